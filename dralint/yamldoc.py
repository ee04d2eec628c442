"""Decode YAML (and JSON) text into documents that remember where each value came from.

Kubernetes reads manifests with go-yaml v2 (YAML 1.1 scalars: ``yes``/``on`` are booleans,
``0777`` is octal, timestamps stay strings), so plain scalars are resolved the same way here
instead of with ruamel's YAML 1.2 rules. Composing nodes with the C parser and building plain
Python values from them is about 25 times faster than ruamel's round-trip loader; positions are
looked up lazily in the kept node tree, only for the few paths that get a finding.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from dralint.paths import Path

try:  # the C parser ships in ruamel.yaml.clib; without it the pure-Python composer is used
    from _ruamel_yaml import CParser as _CParser
except ImportError:  # pragma: no cover - depends on the platform
    _CParser = None

__all__ = ["DecodeIssue", "Document", "Limits", "decode"]

_PLAIN = "?plain"
_QUOTED = "?quoted"
_MAP = "?map"
_SEQ = "?seq"
_TAG_PREFIX = "tag:yaml.org,2002:"


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds that keep hostile input from exhausting time or memory (documented in the README)."""

    max_values_per_document: int = 2_000_000  # constructed values, counting alias expansion
    max_depth: int = 256


@dataclass(frozen=True, slots=True)
class DecodeIssue:
    """A defect found while decoding: syntax errors, duplicate keys, alias bombs, ..."""

    kind: str  # "syntax", "duplicate-key", "too-large", "too-deep", "encoding"
    message: str
    line: int  # 1-based
    column: int  # 1-based
    hint: str | None = None


@dataclass(slots=True, eq=False)
class Document:
    """One YAML document of a file: its value and the node tree for position look-ups."""

    file: str
    index: int  # 0-based position among the file's documents
    line: int  # 1-based line where the document starts
    data: Any
    node: Node | None = field(default=None, repr=False)
    line_offset: int = 0  # added to node marks when the document was parsed out of a fragment

    def position(self, path: Path) -> tuple[int, int]:
        """1-based (line, column) of ``path``: a mapping entry's key, a list item, or the nearest parent."""
        node = self.node
        if node is None:
            return (self.line, 1)
        best = node.start_mark
        for step in path:
            found = _child(node, step)
            if found is None:
                break
            mark_node, node = found
            best = mark_node.start_mark
        return (best.line + 1 + self.line_offset, best.column + 1)

    def value_node(self, path: Path) -> Node | None:
        """The node holding the value at ``path``, or ``None`` when the path does not exist."""
        node = self.node
        for step in path:
            if node is None:
                return None
            found = _child(node, step)
            if found is None:
                return None
            node = found[1]
        return node

    def scalar_position(self, path: Path, offset: int) -> tuple[int, int]:
        """Position of character ``offset`` inside the string scalar at ``path``.

        Exact for single-line plain and quoted scalars without escapes and for literal block
        scalars (``|``); other styles fall back to the scalar's start.
        """
        node = self.value_node(path)
        if not isinstance(node, ScalarNode):
            return self.position(path)
        start = node.start_mark
        line0 = start.line + 1 + self.line_offset
        style = node.style
        if style == "|":
            text: str = node.value
            before = text[:offset]
            row = before.count("\n")
            col = len(before) - (before.rfind("\n") + 1)
            indent = _block_indent(node)
            return (line0 + 1 + row, indent + col + 1)
        if style in ('"', "'"):
            return (line0, start.column + 2 + offset) if "\n" not in node.value[:offset] else (line0, start.column + 1)
        if not style and "\n" not in node.value[:offset]:  # plain (the C composer says "", not None)
            return (line0, start.column + 1 + offset)
        return (line0, start.column + 1)


def _block_indent(node: ScalarNode) -> int:
    """Indentation of a block scalar's content (0-based column of its first line)."""
    buffer = getattr(node.start_mark, "buffer", None)
    end = node.end_mark
    if isinstance(buffer, str):
        first_line_start = buffer.find("\n", node.start_mark.index) + 1
        i = first_line_start
        while i < len(buffer) and buffer[i] in " ":
            i += 1
        return i - first_line_start
    return int(end.column)


def _child(node: Node, step: str | int) -> tuple[Node, Node] | None:
    """(node to report, value node) for one path step, following merge keys."""
    if isinstance(node, MappingNode) and isinstance(step, str):
        merged: list[Node] = []
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode):
                if key_node.value == step:
                    return key_node, value_node
                if key_node.value == "<<" and key_node.ctag.suffix in (_PLAIN, _TAG_PREFIX + "merge"):
                    merged.append(value_node)
        for source in merged:
            sources = source.value if isinstance(source, SequenceNode) else [source]
            for candidate in sources:
                found = _child(candidate, step)
                if found is not None:
                    return found
        return None
    if isinstance(node, SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
        item = node.value[step]
        return item, item
    return None


# --- scalar resolution (go-yaml v2 rules) -------------------------------------------------

_BOOL = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE"), False),
}
_NULL = {"", "~", "null", "Null", "NULL"}
_SPECIAL_FLOAT = {
    ".inf": math.inf, ".Inf": math.inf, ".INF": math.inf,
    "+.inf": math.inf, "+.Inf": math.inf, "+.INF": math.inf,
    "-.inf": -math.inf, "-.Inf": -math.inf, "-.INF": -math.inf,
    ".nan": math.nan, ".NaN": math.nan, ".NAN": math.nan,
}  # fmt: skip
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_INT = re.compile(r"^[-+]?(0[bB][01_]+|0[oO][0-7_]+|0[xX][0-9a-fA-F_]+|0[0-7_]*|[1-9][0-9_]*)$")
_NUMERIC_START = frozenset("0123456789+-.")


def resolve_plain(text: str) -> Any:
    """Value of a plain (unquoted) scalar the way go-yaml v2 resolves it for Kubernetes."""
    if text in _BOOL:
        return _BOOL[text]
    if text in _NULL:
        return None
    if not text or text[0] not in _NUMERIC_START:
        return text
    if text in _SPECIAL_FLOAT:
        return _SPECIAL_FLOAT[text]
    if _INT.match(text):
        value = _parse_go_int(text.replace("_", ""))
        if value is not None:
            return value
    if _FLOAT.match(text):
        return float(text)
    return text


def _parse_go_int(text: str) -> int | None:
    """strconv.ParseInt(text, 0, 64) with ParseUint as a fallback for large positives."""
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-")
    try:
        if body[:2] in ("0x", "0X"):
            value = int(body[2:], 16)
        elif body[:2] in ("0b", "0B"):
            value = int(body[2:], 2)
        elif body[:2] in ("0o", "0O"):
            value = int(body[2:], 8)
        elif len(body) > 1 and body[0] == "0":
            value = int(body, 8)
        else:
            value = int(body, 10)
    except ValueError:
        return None
    value *= sign
    if -(2**63) <= value < 2**64:
        return value
    return None


def _resolve_tagged(tag: str, text: str) -> Any:
    """Value of a scalar with an explicit core tag (``!!str 5``, ``!!int "3"``)."""
    short = tag[len(_TAG_PREFIX) :] if tag.startswith(_TAG_PREFIX) else ""
    if short == "str" or short == "binary" or short == "timestamp":
        return text
    if short == "null":
        return None
    value = resolve_plain(text)
    if short == "bool" and isinstance(value, bool):
        return value
    if short == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if short == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return text if short else value  # local tags (!foo): the value as if untagged


class _TooLarge(Exception):
    def __init__(self, node: Node) -> None:
        self.node = node


class _TooDeep(Exception):
    def __init__(self, node: Node) -> None:
        self.node = node


class _Builder:
    """Turns a node tree into plain Python values, recording duplicate keys on the way."""

    def __init__(self, limits: Limits, quoted_by_style: bool) -> None:
        self.limits = limits
        self.budget = limits.max_values_per_document
        self.quoted_by_style = quoted_by_style
        self.duplicates: list[tuple[str, Node, Node]] = []

    def build(self, node: Node, depth: int = 0) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise _TooLarge(node)
        kind = type(node)
        if kind is ScalarNode:
            return self.scalar(node)  # type: ignore[arg-type]
        if depth >= self.limits.max_depth:
            raise _TooDeep(node)
        if kind is MappingNode:
            return self.mapping(node, depth)  # type: ignore[arg-type]
        if kind is SequenceNode:
            build = self.build
            return [build(item, depth + 1) for item in node.value]
        return None  # pragma: no cover - the composer only makes the three kinds

    def scalar(self, node: ScalarNode) -> Any:
        if self.quoted_by_style:
            # Pure-Python composer: its resolver tags every scalar, so the style decides.
            return resolve_plain(node.value) if node.style is None else node.value
        tag = node.ctag.suffix  # the raw tag; Node.tag would re-render it on every access
        if tag == _PLAIN:
            return resolve_plain(node.value)
        if tag == _QUOTED:
            return node.value
        return _resolve_tagged(str(tag), node.value)

    def key(self, node: Node) -> str:
        if type(node) is ScalarNode:
            value = self.scalar(node)
            if value.__class__ is str:
                return value  # type: ignore[no-any-return,unused-ignore]
            if isinstance(value, bool):
                return "true" if value else "false"
            if value is None:
                return "null"
            return str(value)
        # Complex keys do not exist in Kubernetes manifests; keep something printable.
        return json.dumps(self.build(node), sort_keys=True, default=str)

    def mapping(self, node: MappingNode, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        merges: list[Node] = []
        build, key_of = self.build, self.key
        for key_node, value_node in node.value:
            if key_node.value == "<<" and type(key_node) is ScalarNode and self._is_merge(key_node):
                merges.append(value_node)
                continue
            key = key_of(key_node)
            if key in out:
                self._duplicate(node, key, key_node)
            out[key] = build(value_node, depth + 1)
        for merge in merges:
            sources = merge.value if isinstance(merge, SequenceNode) else [merge]
            for source in sources:
                merged = build(source, depth + 1)
                if isinstance(merged, dict):
                    for key, value in merged.items():
                        out.setdefault(key, value)
        return out

    def _is_merge(self, node: ScalarNode) -> bool:
        if self.quoted_by_style:
            return node.style is None
        return node.ctag.suffix in (_PLAIN, _TAG_PREFIX + "merge")

    def _duplicate(self, mapping: MappingNode, key: str, second: Node) -> None:
        for key_node, _ in mapping.value:
            if key_node is second:
                break
            if type(key_node) is ScalarNode and self.key(key_node) == key:
                self.duplicates.append((key, key_node, second))
                return


if _CParser is not None:

    class _FastLoader(_CParser):  # type: ignore[misc]
        """The C parser with a resolver that only marks plain vs quoted scalars."""

        def descend_resolver(self, parent: Any, index: Any) -> None:
            pass

        def ascend_resolver(self) -> None:
            pass

        def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
            if kind is ScalarNode:
                return _PLAIN if implicit[0] else _QUOTED
            return _MAP if kind is MappingNode else _SEQ


def _compose_fast(text: str) -> list[Node]:
    loader = _FastLoader(text)
    nodes: list[Node] = []
    while loader.check_node():
        nodes.append(loader.get_node())
    return nodes


def _compose_pure(text: str) -> Iterator[Node]:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yield from yaml.compose_all(text)


_DOC_SEPARATOR = re.compile(r"^---(?=[ \t]|$)", re.MULTILINE)


def decode(
    file: str, text: str, limits: Limits | None = None, *, templates: bool = True
) -> tuple[list[Document], list[DecodeIssue]]:
    """All documents of ``text`` (empty documents dropped) and the defects found on the way.

    A syntax error does not lose the rest of the file: the text is split at ``---`` lines and
    the documents after the broken one are decoded on their own. ``templates=False`` reads
    ``{{ ... }}`` as plain text (dralint's own files quote templates in their documentation).
    """
    limits = limits or Limits()
    documents, issues = _decode_all(file, text, limits)
    if not templates:
        return documents, issues
    templates_found = _template_markers(text)
    if not templates_found:
        return documents, issues
    return _drop_templated(text, documents, issues, templates_found)


_TEMPLATE = re.compile(r"\{\{-?\s*[^{}]*\}\}|\{\{")


def _template_markers(text: str) -> list[tuple[int, int]]:
    """(line, column) of the first Helm/Go template directive on each line that is not a comment."""
    if "{{" not in text:
        return []
    markers = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        match = _TEMPLATE.search(line)
        if match:
            markers.append((number, match.start() + 1))
    return markers


def _drop_templated(
    text: str, documents: list[Document], issues: list[DecodeIssue], templates: list[tuple[int, int]]
) -> tuple[list[Document], list[DecodeIssue]]:
    """Unrendered templates are not manifests: report each templated document once and skip it."""
    separators = [1] + [text.count("\n", 0, m.start()) + 1 for m in _DOC_SEPARATOR.finditer(text) if m.start() > 0]

    def chunk_of(line: int) -> int:
        chunk = 0
        for n, start in enumerate(separators):
            if start <= line:
                chunk = n
        return chunk

    templated_chunks: dict[int, tuple[int, int]] = {}
    for line, column in templates:
        templated_chunks.setdefault(chunk_of(line), (line, column))
    kept_docs = [d for d in documents if chunk_of(d.line) not in templated_chunks]
    kept_issues = [i for i in issues if chunk_of(i.line) not in templated_chunks]
    for line, column in templated_chunks.values():
        kept_issues.append(DecodeIssue(
            "template", "unrendered template directive ({{ ... }}); this document is not checked",
            line, column,
            hint="render the chart first: helm template ... | dralint check -",
        ))  # fmt: skip
    for n, doc in enumerate(kept_docs):
        doc.index = n
    return kept_docs, sorted(kept_issues, key=lambda i: (i.line, i.column))


def _decode_all(file: str, text: str, limits: Limits) -> tuple[list[Document], list[DecodeIssue]]:
    if file.endswith(".json") or text.lstrip().startswith(("{", "[")):
        decoded = _decode_json(file, text, limits)
        if decoded is not None:
            return decoded
    try:
        return _decode_yaml(file, text, 0, limits)
    except _SyntaxError as error:
        first_issue = error.issue
    # Recover: decode each ---separated chunk on its own, keeping the documents of good chunks.
    documents: list[Document] = []
    issues: list[DecodeIssue] = [first_issue]
    starts = [0] + [m.start() for m in _DOC_SEPARATOR.finditer(text) if m.start() > 0]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(text)
        chunk = text[start:end]
        line_offset = text.count("\n", 0, start)
        try:
            chunk_docs, chunk_issues = _decode_yaml(file, chunk, line_offset, limits)
        except _SyntaxError as error:
            if error.issue != first_issue:
                issues.append(error.issue)
            continue
        for doc in chunk_docs:
            doc.index = len(documents)
            documents.append(doc)
        issues.extend(chunk_issues)
    return documents, _unique(issues)


def _unique(issues: list[DecodeIssue]) -> list[DecodeIssue]:
    seen: set[DecodeIssue] = set()
    out = []
    for issue in issues:
        if issue not in seen:
            seen.add(issue)
            out.append(issue)
    return out


class _SyntaxError(Exception):
    def __init__(self, issue: DecodeIssue) -> None:
        self.issue = issue


def _decode_yaml(file: str, text: str, line_offset: int, limits: Limits) -> tuple[list[Document], list[DecodeIssue]]:
    quoted_by_style = _CParser is None
    try:
        nodes = _compose_fast(text) if _CParser is not None else list(_compose_pure(text))
    except Exception as fast_error:
        raise _SyntaxError(_syntax_issue(text, line_offset, fast_error)) from None
    documents: list[Document] = []
    issues: list[DecodeIssue] = []
    for node in nodes:
        builder = _Builder(limits, quoted_by_style)
        start = node.start_mark.line + 1 + line_offset
        try:
            data = builder.build(node)
        except _TooLarge as error:
            mark = error.node.start_mark
            issues.append(DecodeIssue(
                "too-large",
                f"document expands to more than {limits.max_values_per_document} values (YAML aliases?)",
                mark.line + 1 + line_offset, mark.column + 1,
                hint="expand the aliases or raise limits.maxValuesPerDocument in the configuration",
            ))  # fmt: skip
            continue
        except _TooDeep as error:
            mark = error.node.start_mark
            issues.append(DecodeIssue(
                "too-deep", f"document nests deeper than {limits.max_depth} levels",
                mark.line + 1 + line_offset, mark.column + 1,
            ))  # fmt: skip
            continue
        for key, first, second in builder.duplicates:
            issues.append(DecodeIssue(
                "duplicate-key",
                f"mapping key {key!r} already defined at line {first.start_mark.line + 1 + line_offset}",
                second.start_mark.line + 1 + line_offset, second.start_mark.column + 1,
                hint="the API server rejects duplicate fields; keep one of them",
            ))  # fmt: skip
        if data is None:
            continue  # an empty document (e.g. a trailing ---)
        documents.append(Document(file, len(documents), start, data, node, line_offset))
    return documents, issues


def _syntax_issue(text: str, line_offset: int, fast_error: Exception) -> DecodeIssue:
    """A syntax error with its position; the pure-Python parser is asked for a good message."""
    error: Any = fast_error
    if getattr(error, "problem_mark", None) is None:
        try:
            for _ in _compose_pure(text):
                pass
        except Exception as pure_error:
            error = pure_error
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    problem = getattr(error, "problem", None) or (str(error).splitlines() or ["invalid YAML"])[0]
    context = getattr(error, "context", None)
    message = f"{context}: {problem}" if context else str(problem)
    hint = None
    if "\\t" in message or "\t" in message:
        hint = "YAML does not allow tabs for indentation; use spaces"
    if mark is None:
        return DecodeIssue("syntax", f"invalid YAML: {message}", 1 + line_offset, 1, hint)
    return DecodeIssue("syntax", f"invalid YAML: {message}", mark.line + 1 + line_offset, mark.column + 1, hint)


def _decode_json(file: str, text: str, limits: Limits) -> tuple[list[Document], list[DecodeIssue]] | None:
    """JSON is decoded as YAML for positions; only JSON that YAML rejects (tabs) goes through json."""
    try:
        return _decode_yaml(file, text, 0, limits)
    except _SyntaxError:
        pass
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return [], [DecodeIssue("syntax", f"invalid JSON: {error.msg}", error.lineno, error.colno)]
    except RecursionError:
        return [], [DecodeIssue("too-deep", "JSON document nests too deeply", 1, 1)]
    if data is None:
        return [], []
    return [Document(file, 0, 1, data)], []
