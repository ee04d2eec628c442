"""Static CEL types and cel-go's type algebra (assignability, unification with type parameters).

A port of ``checker/types.go`` and ``checker/mapping.go``: types are immutable values; a
:class:`Mapping` binds type parameters during overload resolution.
"""

from __future__ import annotations

from dralint.dataclass import dataclass

__all__ = [
    "ANY",
    "BOOL",
    "BYTES",
    "DOUBLE",
    "DURATION",
    "DYN",
    "ERROR",
    "INT",
    "NULL",
    "STRING",
    "TIMESTAMP",
    "TYPE",
    "UINT",
    "Mapping",
    "Type",
    "is_assignable",
    "list_of",
    "map_of",
    "object_type",
    "opaque",
    "optional_of",
    "param",
    "substitute",
    "type_of",
]

_PRIMITIVES = ("bool", "int", "uint", "double", "string", "bytes", "duration", "timestamp", "null")


@dataclass(frozen=True, slots=True)
class Type:
    """``kind`` is one of dyn, any, error, the primitives, list, map, type, param, opaque, struct."""

    kind: str
    name: str
    params: tuple[Type, ...] = ()

    def __str__(self) -> str:
        return format_type(self)


DYN = Type("dyn", "dyn")
ANY = Type("any", "google.protobuf.Any")
ERROR = Type("error", "*error*")
BOOL = Type("bool", "bool")
INT = Type("int", "int")
UINT = Type("uint", "uint")
DOUBLE = Type("double", "double")
STRING = Type("string", "string")
BYTES = Type("bytes", "bytes")
NULL = Type("null", "null_type")
DURATION = Type("duration", "google.protobuf.Duration")
TIMESTAMP = Type("timestamp", "google.protobuf.Timestamp")
TYPE = Type("type", "type")


def list_of(elem: Type) -> Type:
    return Type("list", "list", (elem,))


def map_of(key: Type, value: Type) -> Type:
    return Type("map", "map", (key, value))


def type_of(t: Type) -> Type:
    return Type("type", "type", (t,))


def param(name: str) -> Type:
    return Type("param", name)


def opaque(name: str, *params: Type) -> Type:
    return Type("opaque", name, params)


def optional_of(t: Type) -> Type:
    return Type("opaque", "optional_type", (t,))


def object_type(name: str) -> Type:
    return Type("struct", name)


def format_type(t: Type) -> str:
    """cel-go's ``FormatCELType``."""
    kind = t.kind
    if kind in ("list", "map", "opaque") or (kind == "type" and t.params):
        inner = ", ".join(format_type(p) for p in t.params)
        return f"{t.name}({inner})" if t.params else t.name
    return t.name


def is_dyn(t: Type) -> bool:
    return t.kind in ("dyn", "any")


def is_dyn_or_error(t: Type) -> bool:
    return t.kind in ("dyn", "any", "error")


def is_optional(t: Type) -> bool:
    return t.kind == "opaque" and t.name == "optional_type"


def unwrap_optional(t: Type) -> tuple[Type, bool]:
    if is_optional(t):
        return t.params[0], True
    return t, False


class Mapping:
    """Substitutions of type parameters (``checker/mapping.go``)."""

    __slots__ = ("subs",)

    def __init__(self, subs: dict[Type, Type] | None = None) -> None:
        self.subs: dict[Type, Type] = dict(subs) if subs else {}

    def copy(self) -> Mapping:
        return Mapping(self.subs)

    def find(self, t: Type) -> Type | None:
        return self.subs.get(t)

    def add(self, frm: Type, to: Type) -> None:
        self.subs[frm] = to


def _less_specific(t1: Type, t2: Type) -> bool:
    """``isEqualOrLessSpecific``."""
    if is_dyn(t1) or t1.kind == "param":
        return True
    if is_dyn(t2) or t2.kind == "param":
        return False
    if t1.kind != t2.kind:
        return False
    if t1.kind == "opaque":
        if t1.name != t2.name or len(t1.params) != len(t2.params):
            return False
        return all(_less_specific(a, b) for a, b in zip(t1.params, t2.params, strict=True))
    if t1.kind in ("list", "map"):
        return all(_less_specific(a, b) for a, b in zip(t1.params, t2.params, strict=True))
    if t1.kind == "type":
        return True
    return t1 == t2


def most_general(t1: Type, t2: Type) -> Type:
    return t1 if _less_specific(t1, t2) else t2


def _not_referenced_in(m: Mapping, t: Type, within: Type) -> bool:
    if t == within:
        return False
    if within.kind == "param":
        sub = m.find(within)
        return True if sub is None else _not_referenced_in(m, t, sub)
    if within.kind in ("opaque", "list", "map", "type"):
        return all(_not_referenced_in(m, t, p) for p in within.params)
    return True


def _valid_substitution(m: Mapping, t1: Type, t2: Type) -> tuple[bool, bool]:
    if t1 == t2:
        return True, True
    sub = m.find(t2)
    if sub is not None:
        if t1 == sub:
            return True, True
        if _assignable(m, t1, sub):
            new = most_general(t1, sub)
            if _not_referenced_in(m, t2, new):
                m.add(t2, new)
            return True, True
        return False, True
    if _not_referenced_in(m, t2, t1):
        m.add(t2, t1)
        return True, False
    return False, False


def _nullable(t: Type) -> bool:
    return t.kind in ("opaque", "struct", "any", "duration", "timestamp", "null")


def _assignable(m: Mapping, t1: Type, t2: Type) -> bool:
    """``internalIsAssignable``: can a value of type ``t2`` be used where ``t1`` is expected?"""
    if t2.kind == "param":
        valid, has_sub = _valid_substitution(m, t1, t2)
        if valid:
            return True
        if has_sub:
            return False
    if t1.kind == "param":
        return _valid_substitution(m, t2, t1)[0]
    if is_dyn_or_error(t1) or is_dyn_or_error(t2):
        return True
    if t1.kind == "null":
        return _nullable(t2)
    if t2.kind == "null":
        return _nullable(t1)
    kind = t1.kind
    if kind in _PRIMITIVES or kind in ("struct",):
        return t1 == t2
    if kind == "type":
        return t2.kind == "type"
    if kind in ("opaque", "list", "map"):
        return (
            t1.kind == t2.kind
            and t1.name == t2.name
            and len(t1.params) == len(t2.params)
            and all(_assignable(m, a, b) for a, b in zip(t1.params, t2.params, strict=True))
        )
    return False


def is_assignable(m: Mapping, t1: Type, t2: Type) -> Mapping | None:
    """A new mapping if ``t2`` is assignable to ``t1``, else ``None``."""
    copy = m.copy()
    return copy if _assignable(copy, t1, t2) else None


def is_assignable_list(m: Mapping, l1: tuple[Type, ...], l2: tuple[Type, ...]) -> Mapping | None:
    if len(l1) != len(l2):
        return None
    copy = m.copy()
    for a, b in zip(l1, l2, strict=True):
        if not _assignable(copy, a, b):
            return None
    return copy


def substitute(m: Mapping, t: Type, param_to_dyn: bool) -> Type:
    sub = m.find(t)
    if sub is not None:
        return substitute(m, sub, param_to_dyn)
    if param_to_dyn and t.kind == "param":
        return DYN
    if t.params:
        return Type(t.kind, t.name, tuple(substitute(m, p, param_to_dyn) for p in t.params))
    return t


def equivalent(t1: Type, t2: Type) -> bool:
    """``IsEquivalentType``: equal, ignoring the names of type parameters."""
    if t1.kind == "param" and t2.kind == "param":
        return True
    if t1.kind != t2.kind or t1.name != t2.name or len(t1.params) != len(t2.params):
        return False
    return all(equivalent(a, b) for a, b in zip(t1.params, t2.params, strict=True))
