"""Field errors the way kube-apiserver reports them: error type, path, bad value, detail.

``FieldError`` mirrors apimachinery's ``field.Error``; :meth:`FieldError.body` prints it the way
the API server does (``Invalid value: "x": must be ...``, ``Too many: 33: must have at most 32
items``, ...). Each error also carries its kind of defect (:class:`Kind`; ``checks/apiserver.py`` maps each kind
to its rule) and a hint saying what to do.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from enum import Enum, auto
from typing import Literal

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass

ErrorType = Literal[
    "Required", "Invalid", "NotSupported", "Duplicate", "TooMany", "TooLong", "Forbidden", "NotFound", "Internal"
]


class Kind(Enum):
    """The kind of defect a field error is: one rule per kind (``checks/apiserver.py`` maps them)."""

    METADATA = auto()
    REQUIRED = auto()
    MALFORMED = auto()
    TOO_MANY = auto()
    DUPLICATE = auto()
    ONE_OF = auto()
    UNSUPPORTED = auto()
    INVALID = auto()
    CEL_TOO_LONG = auto()
    FORBIDDEN = auto()
    STATUS = auto()
    REQUEST_REFERENCE = auto()
    POD_CLAIM_REFERENCE = auto()
    OWNER_REFERENCE = auto()


# The kinds under their own names, as the validators pass them (``kind=ONE_OF``).
METADATA = Kind.METADATA
REQUIRED = Kind.REQUIRED
MALFORMED = Kind.MALFORMED
TOO_MANY = Kind.TOO_MANY
DUPLICATE = Kind.DUPLICATE
ONE_OF = Kind.ONE_OF
UNSUPPORTED = Kind.UNSUPPORTED
INVALID = Kind.INVALID
CEL_TOO_LONG = Kind.CEL_TOO_LONG
FORBIDDEN = Kind.FORBIDDEN
STATUS = Kind.STATUS
REQUEST_REFERENCE = Kind.REQUEST_REFERENCE
POD_CLAIM_REFERENCE = Kind.POD_CLAIM_REFERENCE
OWNER_REFERENCE = Kind.OWNER_REFERENCE

_DEFAULT_KIND: dict[ErrorType, Kind] = {
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
    kind: Kind = Kind.INVALID
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

    def with_kind(self, kind: Kind) -> FieldError:
        return replace(self, kind=kind)


def _error(
    type_: ErrorType,
    path: Path,
    detail: str = "",
    value: object = None,
    *,
    kind: Kind | None = None,
    hint: str | None = None,
    at: Path | None = None,
) -> FieldError:
    return FieldError(type_, path, detail, value, kind or _DEFAULT_KIND[type_], hint, at)


def required(path: Path, detail: str = "", *, kind: Kind | None = None, hint: str | None = None) -> FieldError:
    return _error("Required", path, detail, kind=kind, hint=hint)


def invalid(
    path: Path, value: object, detail: str, *, kind: Kind | None = None, hint: str | None = None, at: Path | None = None
) -> FieldError:
    return _error("Invalid", path, detail, value, kind=kind, hint=hint, at=at)


def forbidden(path: Path, detail: str, *, kind: Kind | None = None, hint: str | None = None) -> FieldError:
    return _error("Forbidden", path, detail, kind=kind, hint=hint)


def duplicate(path: Path, value: object, *, kind: Kind | None = None, hint: str | None = None) -> FieldError:
    return _error("Duplicate", path, "", value, kind=kind, hint=hint or "make every entry unique")


def not_found(
    path: Path, value: object, detail: str = "", *, kind: Kind | None = None, hint: str | None = None
) -> FieldError:
    return _error("NotFound", path, detail, value, kind=kind, hint=hint)


def not_supported(
    path: Path, value: object, supported: Iterable[str], *, kind: Kind | None = None, hint: str | None = None
) -> FieldError:
    options = tuple(supported)
    return FieldError(
        "NotSupported",
        path,
        "",
        value,
        kind or UNSUPPORTED,
        hint or "use one of " + ", ".join(f"`{o}`" for o in options),
        supported=options,
    )


def too_many(path: Path, actual: int, maximum: int, *, kind: Kind | None = None, hint: str | None = None) -> FieldError:
    return FieldError(
        "TooMany",
        path,
        "",
        actual,
        kind or TOO_MANY,
        hint or f"keep at most {maximum} entries",
        max_size=maximum,
    )


def too_long(
    path: Path, maximum: int, *, kind: Kind | None = None, hint: str | None = None, legacy: bool = False
) -> FieldError:
    return FieldError(
        "TooLong",
        path,
        "",
        None,
        kind or INVALID,
        hint or f"shorten it to at most {maximum} bytes",
        max_size=maximum,
        too_long_style="legacy" if legacy else "bytes",
    )


def retag(errors: Iterable[FieldError], kind: Kind) -> list[FieldError]:
    """The same errors reported as another kind (e.g. everything in a status block)."""
    return [e.with_kind(kind) for e in errors]


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
