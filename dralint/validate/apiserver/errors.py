"""Field errors the way kube-apiserver reports them: error type, path, bad value, detail.

``FieldError`` mirrors apimachinery's ``field.Error``; :meth:`FieldError.body` prints it the way
the API server does (``Invalid value: "x": must be ...``, ``Too many: 33: must have at most 32
items``, ...). Each error also carries the dralint rule it belongs to (one rule per kind of
defect, see ``dralint/rules/apiserver.yaml``) and a hint saying what to do.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from dralint.apimachinery.fieldpath import Path

ErrorType = Literal[
    "Required", "Invalid", "NotSupported", "Duplicate", "TooMany", "TooLong", "Forbidden", "NotFound", "Internal"
]

# Rule ids: one per kind of defect (dralint/rules/apiserver.yaml, dralint/rules/references.yaml).
METADATA = "DRA120"
REQUIRED = "DRA121"
MALFORMED = "DRA122"
TOO_MANY = "DRA123"
DUPLICATE = "DRA124"
ONE_OF = "DRA125"
UNSUPPORTED = "DRA126"
INVALID = "DRA127"
CEL_TOO_LONG = "DRA128"
FORBIDDEN = "DRA129"
STATUS = "DRA132"
REQUEST_REFERENCE = "DRA303"
POD_CLAIM_REFERENCE = "DRA304"

_DEFAULT_RULE: dict[ErrorType, str] = {
    "Required": REQUIRED,
    "Invalid": INVALID,
    "NotSupported": UNSUPPORTED,
    "Duplicate": DUPLICATE,
    "TooMany": TOO_MANY,
    "TooLong": INVALID,
    "Forbidden": FORBIDDEN,
    "NotFound": INVALID,
    "Internal": INVALID,
}

_TITLE: dict[ErrorType, str] = {
    "Required": "Required value",
    "Invalid": "Invalid value",
    "NotSupported": "Unsupported value",
    "Duplicate": "Duplicate value",
    "TooMany": "Too many",
    "TooLong": "Too long",
    "Forbidden": "Forbidden",
    "NotFound": "Not found",
    "Internal": "Internal error",
}


class GoValue:
    """A bad value that is already rendered the way Go's ``%#v`` prints it (``[]string(nil)``)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GoValue) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"GoValue({self.text!r})"


@dataclass(frozen=True, slots=True)
class FieldError:
    """One validation failure at a field path (the canonical v1 path the API server prints)."""

    type: ErrorType
    path: Path
    detail: str = ""
    value: object = None
    rule: str = ""
    hint: str | None = None
    # Where the finding points when that differs from ``path`` (e.g. the map key whose name is
    # wrong, while the server reports the error at the map itself).
    at: Path | None = None
    supported: tuple[str, ...] = field(default=())
    max_size: int = 0
    too_long_style: Literal["bytes", "legacy"] = "bytes"

    @property
    def location(self) -> Path:
        return self.at if self.at is not None else self.path

    def body(self) -> str:
        """The error without its path, as ``field.Error.ErrorBody`` prints it."""
        title = _TITLE[self.type]
        if self.type == "TooMany":
            text = f"{title}: {self.value}: must have at most {self.max_size} items"
        elif self.type == "TooLong":
            if self.too_long_style == "legacy":
                text = f"{title}: must have at most {self.max_size} bytes"
            else:
                text = f"{title}: may not be more than {self.max_size} bytes"
        elif self.type in ("Required", "Forbidden", "Internal"):
            text = title
        else:
            text = f"{title}: {go_value(self.value)}"
        if self.type == "NotSupported":
            text += ": supported values: " + ", ".join(go_quote(v) for v in self.supported)
        if self.detail and self.type not in ("TooMany", "TooLong"):
            text += f": {self.detail}"
        return text

    def with_rule(self, rule: str) -> FieldError:
        return replace(self, rule=rule)


def _error(
    type_: ErrorType,
    path: Path,
    detail: str = "",
    value: object = None,
    *,
    rule: str | None = None,
    hint: str | None = None,
    at: Path | None = None,
) -> FieldError:
    return FieldError(type_, path, detail, value, rule or _DEFAULT_RULE[type_], hint, at)


def required(path: Path, detail: str = "", *, rule: str | None = None, hint: str | None = None) -> FieldError:
    return _error("Required", path, detail, rule=rule, hint=hint)


def invalid(
    path: Path, value: object, detail: str, *, rule: str | None = None, hint: str | None = None, at: Path | None = None
) -> FieldError:
    return _error("Invalid", path, detail, value, rule=rule, hint=hint, at=at)


def forbidden(path: Path, detail: str, *, rule: str | None = None, hint: str | None = None) -> FieldError:
    return _error("Forbidden", path, detail, rule=rule, hint=hint)


def duplicate(path: Path, value: object, *, rule: str | None = None, hint: str | None = None) -> FieldError:
    return _error("Duplicate", path, "", value, rule=rule, hint=hint or "make every entry unique")


def not_found(
    path: Path, value: object, detail: str = "", *, rule: str | None = None, hint: str | None = None
) -> FieldError:
    return _error("NotFound", path, detail, value, rule=rule, hint=hint)


def not_supported(
    path: Path, value: object, supported: Iterable[str], *, rule: str | None = None, hint: str | None = None
) -> FieldError:
    options = tuple(supported)
    return FieldError(
        "NotSupported",
        path,
        "",
        value,
        rule or UNSUPPORTED,
        hint or "use one of " + ", ".join(f"`{o}`" for o in options),
        supported=options,
    )


def too_many(path: Path, actual: int, maximum: int, *, rule: str | None = None, hint: str | None = None) -> FieldError:
    return FieldError(
        "TooMany",
        path,
        "",
        actual,
        rule or TOO_MANY,
        hint or f"keep at most {maximum} entries",
        max_size=maximum,
    )


def too_long(
    path: Path, maximum: int, *, rule: str | None = None, hint: str | None = None, legacy: bool = False
) -> FieldError:
    return FieldError(
        "TooLong",
        path,
        "",
        None,
        rule or INVALID,
        hint or f"shorten it to at most {maximum} bytes",
        max_size=maximum,
        too_long_style="legacy" if legacy else "bytes",
    )


def retag(errors: Iterable[FieldError], rule: str) -> list[FieldError]:
    """The same errors reported under another rule (e.g. everything in a status block)."""
    return [e.with_rule(rule) for e in errors]


# --- printing values like Go ----------------------------------------------------------------


def go_quote(text: str) -> str:
    """``strconv.Quote``: double quotes, Go escapes for quotes, backslashes and unprintable runes."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        elif char.isprintable() or char == " ":
            out.append(char)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


_SHORT_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def go_value(value: object) -> str:
    """A bad value as ``field.Error`` prints it: strings quoted, numbers and booleans bare, nil as null.

    Go prints structs with ``%#v`` (including pointer addresses); dralint prints mappings as
    compact JSON instead, which says the same thing deterministically.
    """
    if value is None:
        return "null"
    if isinstance(value, GoValue):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, Mapping):
        return json.dumps(value, separators=(", ", ": "), sort_keys=True, default=str)
    if isinstance(value, Sequence):
        return "[" + ", ".join(go_value(v) for v in value) + "]"
    return str(value)


def go_slice(type_name: str, items: Sequence[object] | None) -> GoValue:
    """``%#v`` of a Go slice: ``[]string(nil)``, ``[]string{}``, ``[]string{"a", "b"}``."""
    if items is None:
        return GoValue(f"[]{type_name}(nil)")
    return GoValue(f"[]{type_name}{{" + ", ".join(go_value(i) for i in items) + "}")
