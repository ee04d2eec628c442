"""Random manifests written the many ways YAML allows, for the differential test against kubectl.

:func:`files` makes seeded files of one to three documents. Each document is an object kubectl
can print (``apiVersion``, ``kind``, ``metadata.name`` naming the file and document) with a
random payload mixing block and flow collections (flow ones on several lines too, compact
nested lists, indentless lists), YAML 1.1 scalars (booleans, octal, hexadecimal, binary,
sexagesimal, timestamps, ``~``, special floats, numbers beyond 64 bits), the quoting styles
with their escapes, block scalars with every chomping and indentation indicator, tags
(``!!str`` to ``!!binary``, local and non-specific ones), anchors, aliases and merge keys
(self-referencing and unknown ones too), comments, odd keys (null, booleans, numbers, lists,
keys longer than 1024 characters), ``---`` lines with comments or content after them,
``...`` with text after it, indentation variants, tabs, CR LF line ends, NEL and the Unicode
line separators, and now and then a control character. Many of the files are invalid: that
kubectl and dralint refuse the same ones is half of what is tested.

One thing is avoided on purpose: keys of different YAML types that JSON writes alike in one
mapping (``1`` and ``"1"``, ``true`` and ``"true"``). sigs.k8s.io/yaml then keeps one of
them at random (Go's map order), so kubectl itself gives different answers run to run.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator

__all__ = ["document", "files"]

API = ("apiVersion: test.dralint.io/v1", "apiVersion: 'test.dralint.io/v1'", 'apiVersion: "test.dralint.io/v1"')
KIND = ("kind: Oracle", "kind: 'Oracle'", "kind: !!str Oracle")

# Plain scalars whose meaning YAML 1.1 (go-yaml) and YAML 1.2 (or common sense) disagree on.
PLAINS = (
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "NO", "on", "On", "OFF", "off", "true", "True", "TRUE", "false",
    "False", "yES", "tRUE", "~", "null", "Null", "NULL", "nil", "None",
    "0", "00", "012", "0777", "08", "09", "0o17", "0O17", "0o8", "0x1F", "0X1f", "-0x10", "+0x10", "0x", "0x_1F",
    "0b101", "-0b101", "0b2", "+12", "-12", "1_000", "1__2", "_1", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "0x10000000000000000", "0o2000000000000000000000", "123456789012345678901234567890",
    "1.5", ".5", "1.", "-.5", "+1.5", "1e3", "1E3", "1e+3", "1e-3", "-1.5e-3", "6.02e23", "1e21", "1e20", "1.0",
    "100.0", "-0.0", "1e400", "-1e400", "1e-400", ".5e1", ".e3", ".inf", ".Inf", ".INF", "-.inf", "+.inf", ".nan",
    ".NaN", ".NAN", "inf", "nan", "Infinity", ".iNf", "1_0.5", "0.1_0", "1e1_0",
    "1:30", "190:20:30", "-1:30", "1:30.5", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10",
    "2002-12-14", "2001-2-30", "1.2.3", "v1.34", "nginx:1.25", "a:b", "http://example.com/x?y=1", "a#b", "a?b",
    "-a", "?a", "a-", "a*b", "a&b", "a!b", "a,b", "a]b", "a}b", "a{b", "a[b", "a%", "<<", "=", "a b", "a  b", "日本",
    "\u00e9t\u00e9", "a\u2028b", "a\x85b",
)  # fmt: skip
# Plain scalars that cannot stand everywhere (an indicator first, a ": " inside).
RISKY = ("%a", "@a", "`a", ":a", "a:", "a: b", "- a", "[a", "{a", "&", "*", "!", "|", ">", "'a", '"a', "#a", "a #b")
ESCAPES = (
    "\\n", "\\t", "\\\t", "\\\\", '\\"', "\\'", "\\0", "\\a", "\\b", "\\e", "\\f", "\\r", "\\v", "\\ ", "\\N", "\\_",
    "\\L", "\\P", "\\x41", "\\xe9", "\\u263a", "\\U0001F600",
)  # fmt: skip
BAD_ESCAPES = ("\\/", "\\x4", "\\ud800", "\\U00110000", "\\q")
WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu")
# Keys of other types, with the JSON key each becomes (go-yaml type, text, JSON key).
OTHER_KEYS = (
    ("int", "1", "1"), ("int", "0x10", "16"), ("int", "020", "16"), ("int", "-3", "-3"), ("int", "1_000", "1000"),
    ("float", "1.5", "1.5"), ("float", "0.25", "0.25"), ("float", "1e6", "1e+06"), ("float", "2.5e-7", "2.5e-07"),
    ("float", ".inf", ".inf"), ("float", "-.Inf", "-.inf"), ("bool", "on", "true"), ("bool", "yes", "true"),
    ("bool", "N", "false"), ("bool", "false", "false"), ("string", "2001-12-14", "2001-12-14"),
    ("string", "'1'", "1"), ("string", '"yes"', "yes"), ("string", "!!str 7", "7"),
)  # fmt: skip
REFUSED_KEYS = (
    ("null", "~", "null"),
    ("null", "null", "null"),
    ("uint64", "18446744073709551615", "18446744073709551615"),
)


class _Doc:
    """One document being written: its anchors and the randomness it draws from."""

    def __init__(self, rng: random.Random, unit: int) -> None:
        self.rng = rng
        self.unit = unit  # indentation step
        self.anchors: list[tuple[str, str]] = []  # (name, "map" | "seq" | "scalar")
        self.counter = 0

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def scalar(self, flow: bool) -> str:
        rng = self.rng
        pick = rng.random()
        if pick < 0.45:
            return rng.choice(RISKY if self.chance(0.04) else PLAINS)
        if pick < 0.6:
            body = rng.choice(WORDS + PLAINS).replace("'", "''")
            return f"'{body}'" if not self.chance(0.05) else f"'{body}\n{' ' * rng.randint(0, 3)}more'"
        if pick < 0.75:
            parts = [rng.choice(WORDS) for _ in range(rng.randint(0, 2))]
            parts.append(rng.choice(BAD_ESCAPES if self.chance(0.05) else ESCAPES))
            rng.shuffle(parts)
            body = "".join(parts)
            if self.chance(0.05):
                body += "\\\n  continued"
            return f'"{body}"'
        if pick < 0.9:
            return self.tagged(flow)
        return f"{rng.choice(WORDS)} {rng.choice(PLAINS)}"

    def tagged(self, flow: bool) -> str:
        rng = self.rng
        tag = rng.choice(("!!str", "!!int", "!!float", "!!bool", "!!null", "!!timestamp", "!!binary", "!custom", "!",
                          "!<tag:yaml.org,2002:str>", "!!merge", "!!map", "!!str", "!custom", "!"))  # fmt: skip
        if self.chance(0.02):
            tag = "!e!x"  # a handle no %TAG directive defines
        if tag == "!!binary":
            raw = bytes(rng.randrange(256) for _ in range(rng.randint(0, 8)))
            value = base64.b64encode(raw).decode()
            if self.chance(0.2):
                value = value.rstrip("=") or "!"
            return f"{tag} {value}"
        value = rng.choice(PLAINS + WORDS)
        if self.chance(0.2):
            value = f'"{value}"'
        return f"{tag} {value}"

    def anchor(self, kind: str) -> tuple[str, str]:
        """``&name `` (or nothing) and the name; :meth:`defined` makes it usable by later aliases."""
        if not self.chance(0.12):
            return "", ""
        self.counter += 1
        name = f"a{self.counter}" if not self.chance(0.1) else "a1"
        if self.chance(0.03):  # usable inside its own node: an alias that contains itself
            self.anchors.append((name, kind))
            return f"&{name} ", ""
        return f"&{name} ", name

    def defined(self, name: str, kind: str, text: str) -> str:
        if name:
            self.anchors.append((name, kind))
        return text

    def alias(self) -> str | None:
        if not self.anchors or not self.chance(0.5):
            return "*nowhere" if self.chance(0.002) else None
        return f"*{self.rng.choice(self.anchors)[0]}"

    def key(self, used: dict[str, str]) -> str:
        rng = self.rng
        pick = rng.random()
        if pick < 0.75:
            text = json_key = rng.choice(WORDS)
            kind = "string"
            if self.chance(0.1):
                text = f'"{text}"'
        elif pick < 0.97:
            kind, text, json_key = rng.choice(OTHER_KEYS)
        elif pick < 0.975:
            kind, text, json_key = rng.choice(REFUSED_KEYS)
        elif pick < 0.98:
            return "? [a, b]" if self.chance(0.5) else "? {x: 1}"
        else:
            return "x" * rng.choice((1020, 1020, 1100))
        if used.setdefault(json_key, kind) != kind:
            return rng.choice(WORDS) + "z"
        return text

    # --- values ---------------------------------------------------------------------

    def flow(self, depth: int) -> str:
        rng = self.rng
        alias = self.alias()
        if alias is not None and self.chance(0.3):
            return alias
        if depth <= 0 or self.chance(0.5):
            prefix, name = self.anchor("scalar")
            return self.defined(name, "scalar", prefix + self.scalar(flow=True))
        sep = rng.choice((", ", ",", " , ", ",\n  ", "\n  , "))
        if self.chance(0.5):
            prefix, name = self.anchor("seq")
            items = [self.flow(depth - 1) for _ in range(rng.randint(0, 3))]
            if self.chance(0.1) and items:
                items[0] = f"{rng.choice(WORDS)}: {items[0]}"  # a single-pair mapping as an item
            text = prefix + "[" + sep.join(items) + ("," if self.chance(0.05) else "") + "]"
            return self.defined(name, "seq", text)
        used: dict[str, str] = {}
        pairs = []
        prefix, name = self.anchor("map")
        for _ in range(rng.randint(0, 3)):
            key = self.key(used)
            if key.startswith("?") or len(key) > 100:
                key = rng.choice(WORDS)
            pairs.append(f"{key}: {self.flow(depth - 1)}" if not self.chance(0.05) else key)
        return self.defined(name, "map", prefix + "{" + sep.join(pairs) + "}")

    def block(self, indent: int, depth: int) -> str:
        """A value after ``key:`` (starting with a space or a line break), indented ``indent`` spaces."""
        rng = self.rng
        pick = rng.random()
        if depth <= 0 or pick < 0.35:
            alias = self.alias()
            if alias is None:
                prefix, name = self.anchor("scalar")
                alias = self.defined(name, "scalar", prefix + self.scalar(flow=False))
            value = alias
            return " " + value + (f" # {rng.choice(WORDS)}" if self.chance(0.1) else "")
        if pick < 0.45:
            return " " + self.flow(depth)
        if pick < 0.55:
            return " " + self.block_scalar(indent)
        inner = indent + self.unit
        kind = "map" if pick < 0.8 else "seq"
        anchor, name = self.anchor(kind)
        head = f" {anchor.strip()}" if anchor else ""
        if kind == "map":
            return self.defined(name, kind, head + "\n" + self.mapping(inner, depth - 1))
        item_indent = indent if self.chance(0.3) else inner  # indentless lists under a key
        return self.defined(name, kind, head + "\n" + self.sequence(item_indent, depth - 1))

    def block_scalar(self, indent: int) -> str:
        rng = self.rng
        header = rng.choice(("|", ">", "|-", ">-", "|+", ">+", "|2", ">1-", "|+1"))
        inner = " " * (indent + self.unit + rng.choice((0, 0, 1)))
        lines = [rng.choice(("text", "more text", "  indented", "", "# not a comment", "a: b", "- c")) for _ in
                 range(rng.randint(0, 4))]  # fmt: skip
        body = "".join(f"{inner}{line}\n" if line else "\n" for line in lines)
        return header + "\n" + body.rstrip("\n") + ("\n" * rng.randint(0, 2) if body else "")

    def mapping(self, indent: int, depth: int) -> str:
        rng = self.rng
        pad = " " * indent
        used: dict[str, str] = {}
        lines = []
        for _ in range(rng.randint(1, 4)):
            if self.chance(0.08) and self.anchors:
                maps = [a for a, kind in self.anchors if kind == "map"] or [a for a, _ in self.anchors]
                merge = rng.choice(("*" + rng.choice(maps), f"[{', '.join('*' + a for a in maps[:2])}]", "{merged: 1}",
                                    "*" + rng.choice(maps), "~" if self.chance(0.2) else "{merged: 2}"))  # fmt: skip
                lines.append(f"{pad}<<: {merge}")
                continue
            if self.chance(0.05):
                lines.append(f"{pad}# {rng.choice(WORDS)}")
            key = self.key(used)
            if key.startswith("?"):
                lines.append(f"{pad}{key}\n{pad}:{self.block(indent, depth)}")
                continue
            value = self.block(indent, depth)
            if self.chance(0.03):
                value = value.replace(" ", "\t", 1)
            lines.append(f"{pad}{key}:{value}")
        if self.chance(0.03):
            lines.append(lines[0])  # a duplicate key
        return "\n".join(line.rstrip("\n") for line in lines)

    def sequence(self, indent: int, depth: int) -> str:
        rng = self.rng
        pad = " " * indent
        items = []
        for _ in range(rng.randint(1, 3)):
            pick = rng.random()
            if pick < 0.5 or depth <= 0:
                items.append(f"{pad}-{self.block(indent, 0)}")
            elif pick < 0.8:  # a mapping as an item: its first key on the dash's line
                body = self.mapping(indent + 2, depth - 1)
                items.append(f"{pad}- {body.lstrip()}")
            else:  # compact nested lists
                items.append(f"{pad}- - {self.scalar(flow=False)}\n{pad}  - {self.scalar(flow=False)}")
        return "\n".join(items)


def document(rng: random.Random, name: str) -> str:
    """One document (without its ``---``): an object named ``name`` with a random payload."""
    doc = _Doc(rng, rng.choice((2, 2, 2, 1, 3, 4)))
    lines = [rng.choice(API), rng.choice(KIND)]
    lines.append(f"metadata: {{name: {name}}}" if doc.chance(0.5) else f"metadata:\n{' ' * doc.unit}name: '{name}'")
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(("data", "spec", "extra", "more"))
        lines.append(f"{key}:{doc.block(0, rng.randint(1, 4))}")
    if doc.chance(0.05):
        lines.insert(rng.randrange(len(lines) + 1), f"# {rng.choice(WORDS)}")
    rng.shuffle(lines[2:])
    return "\n".join(lines) + "\n"


JSON_VALUES = (
    '"text"', '"\\u00e9\\n\\t\\/"', '"\\ud83d\\ude00"', '"\\ud800"', "1", "-0", "1.0", "1e3", "1E-2", "-1.5",
    "9223372036854775808", "18446744073709551616", "1e400", "true", "null", "[]", "{}", '[1, "a", null]',
    '{"k": {"deep": [true, false]}}',
)  # fmt: skip
JSON_MUTATIONS = ("NaN", "Infinity", "'single'", "[1,]", '{"a": 1,}', "// comment", "0x10", "01", ".5", "+1", "tru")


def json_file(rng: random.Random, stem: str) -> str:
    """A stream of JSON objects (kubectl reads a text starting with "{" as JSON), sometimes one JSON refuses."""
    objects = []
    for index in range(rng.choice((1, 1, 2))):
        fields = [
            '"apiVersion": "test.dralint.io/v1"',
            '"kind": "Oracle"',
            f'"metadata": {{"name": "{stem}-d{index}"}}',
        ]
        for _ in range(rng.randint(1, 3)):
            value = rng.choice(JSON_MUTATIONS) if rng.random() < 0.05 else rng.choice(JSON_VALUES)
            fields.append(f'"{rng.choice(WORDS)}": {value}')
        layout = rng.choice((", ", ",\n  ", ","))
        objects.append("{" + layout.join(fields) + "}")
    return rng.choice(("\n", " ", "\n\n")).join(objects) + "\n"


def files(seed: int, count: int) -> Iterator[tuple[str, str]]:
    """``count`` files (name, text) from ``seed``; the same seed gives the same files."""
    rng = random.Random(seed)
    for number in range(count):
        stem = f"s{seed}-f{number}"
        if rng.random() < 0.04:
            yield f"{stem}.yaml", json_file(rng, stem)
            continue
        parts = []
        for index in range(rng.choice((1, 1, 1, 2, 2, 3))):
            text = document(rng, f"{stem}-d{index}")
            if index or rng.random() < 0.2:
                separator = rng.choice(("---", "---", "--- # next", "---   ", "---\t#", "---"))
                if rng.random() < 0.03:
                    separator = rng.choice(("--- x", "----", "--- {a: 1}"))  # refused by kubectl
                text = separator + "\n" + text
            if rng.random() < 0.03:
                text += "...\n" + rng.choice(("]]] garbage", "# trailing", "a: b", "%YAML 1.1")) + "\n"
            parts.append(text)
        text = "".join(parts)
        pick = rng.random()
        if pick < 0.05:
            text = text.replace("\n", "\r\n")
        elif pick < 0.07:
            text = "\ufeff" + text
        elif pick < 0.09:
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(("\x01", "\x7f", "\x9f", "\ufffe", "\x00")) + text[at:]
        elif pick < 0.11:
            text = text.rstrip("\n")
        yield f"{stem}.yaml", text
