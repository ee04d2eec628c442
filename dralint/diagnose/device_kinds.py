"""Which kinds of a driver's devices a CEL selector can select, read from the driver's profile alone.

Without an inventory there are no devices to evaluate a selector on; a profile says, per kind
of device (a full GPU, a MIG partition), which attributes its devices publish and which values
tell the kinds apart. This module evaluates a selector abstractly, once per kind: each boolean
subexpression yields the set of outcomes it may have on devices of the kind (true, false, a
runtime error), with CEL's rules for ``&&``, ``||``, ``!`` and ``?:`` (an error on one side of
``&&`` is absorbed by false on the other). A kind can be selected when *true* is among the
outcomes. What the profile cannot decide (a comparison of a value it does not fix, any other
function) may be anything, so the result only ever rules a kind out when the profile says so:
reading an attribute devices of the kind never publish is an error, a value the kind fixes or
that lies outside the closed set the driver publishes compares to a known result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dralint.cel.parser.nodes import Call, Comprehension, CreateList, Expr, Ident, Literal, Select, walk
from dralint.dataclass import dataclass
from dralint.profiles.model import DeviceKind, DriverProfile, Published, Scalar, Table

__all__ = ["Entry", "admitted", "entry_of", "outcomes", "why_not"]

TRUE, FALSE, ERROR = "true", "false", "error"
Outcomes = frozenset[str]
_ANY: Outcomes = frozenset({TRUE, FALSE, ERROR})
_BOOL: Outcomes = frozenset({TRUE, FALSE})


@dataclass(frozen=True, slots=True)
class Entry:
    """An attribute or capacity a selector reads: ``device.attributes["domain"].name`` and its spellings."""

    table: Table
    domain: str
    name: str
    node: Expr  # the node that reads the entry (a select, an index, an optional select)
    test_only: bool  # has(...)
    optional: bool  # .?name or [?"name"]


def entry_of(node: Expr, driver: str | None = None) -> Entry | None:
    """The entry ``node`` reads, if it is one (``device.driver`` as the domain counts when ``driver`` is known)."""
    if isinstance(node, Select):
        domain = _domain(node.operand, driver)
        return None if domain is None else Entry(domain[0], domain[1], node.field, node, node.test_only, False)
    if isinstance(node, Call) and node.function in ("_[_]", "_?._", "_[?_]") and len(node.args) == 2:
        key = node.args[1]
        if not isinstance(key, Literal) or not isinstance(key.value, str):
            return None
        domain = _domain(node.args[0], driver)
        if domain is None:
            return None
        return Entry(domain[0], domain[1], key.value, node, False, node.function != "_[_]")
    return None


def _domain(node: Expr, driver: str | None) -> tuple[Table, str] | None:
    """(table, domain) when ``node`` is ``device.attributes["domain"]`` or ``device.capacity[...]``."""
    if isinstance(node, Select) and not node.test_only:
        table = _is_device_field(node.operand)
        return None if table is None else (table, node.field)
    if not (isinstance(node, Call) and node.function == "_[_]" and len(node.args) == 2):
        return None
    table = _is_device_field(node.args[0])
    if table is None:
        return None
    key = node.args[1]
    if isinstance(key, Literal) and isinstance(key.value, str):
        return (table, key.value)
    if driver is not None and _is_device_driver(key):
        return (table, driver)
    return None


def _is_device_field(node: Expr) -> Table | None:
    if (
        isinstance(node, Select)
        and not node.test_only
        and isinstance(node.operand, Ident)
        and node.operand.name == "device"
    ):
        if node.field == "attributes":
            return "attributes"
        if node.field == "capacity":
            return "capacity"
    return None


def _is_device_driver(node: Expr) -> bool:
    return isinstance(node, Select) and node.field == "driver" and not node.test_only and _is_device(node.operand)


def _is_device(node: Expr) -> bool:
    return isinstance(node, Ident) and node.name == "device"


# Abstract values: what the profile says a subexpression is on devices of one kind.
@dataclass(frozen=True, slots=True)
class _Known:
    values: frozenset[Any]  # one of these


_MISSING = "missing"  # reading it raises a runtime error on every device of the kind
_UNKNOWN = "unknown"
_Value = _Known | str


class _Kind:
    """The abstract evaluation of expressions on the devices of one kind of one driver."""

    def __init__(self, profile: DriverProfile, kind: DeviceKind) -> None:
        self.profile = profile
        self.kind = kind

    def outcomes(self, node: Expr) -> Outcomes:
        if isinstance(node, Literal):
            if node.value is True:
                return frozenset({TRUE})
            if node.value is False:
                return frozenset({FALSE})
            return _ANY
        if isinstance(node, Select) and node.test_only:
            return self._has(node)
        if isinstance(node, Call):
            return self._call(node)
        value = self.value(node)
        if value == _MISSING:
            return frozenset({ERROR})
        if isinstance(value, _Known):
            return frozenset(TRUE if v is True else FALSE if v is False else ERROR for v in value.values)
        return _ANY

    def _call(self, node: Call) -> Outcomes:
        function, args = node.function, node.args
        if function == "_&&_" and len(args) == 2:
            return _and(self.outcomes(args[0]), self.outcomes(args[1]))
        if function == "_||_" and len(args) == 2:
            return _or(self.outcomes(args[0]), self.outcomes(args[1]))
        if function == "!_" and len(args) == 1:
            return frozenset({TRUE: FALSE, FALSE: TRUE, ERROR: ERROR}[o] for o in self.outcomes(args[0]))
        if function == "_?_:_" and len(args) == 3:
            condition = self.outcomes(args[0])
            out: set[str] = set()
            if TRUE in condition:
                out |= self.outcomes(args[1])
            if FALSE in condition:
                out |= self.outcomes(args[2])
            if ERROR in condition:
                out.add(ERROR)
            return frozenset(out)
        if function in ("_==_", "_!=_") and len(args) == 2:
            return self._equality(function == "_==_", self.value(args[0]), self.value(args[1]))
        if function == "@in" and len(args) == 2:
            return self._membership(args[0], args[1])
        if entry_of(node, self.profile.driver) is not None:
            return _ANY if self.value(node) != _MISSING else frozenset({ERROR})
        # Any other function is strict: an argument that cannot be read makes it fail.
        operands = ([node.target] if node.target is not None else []) + list(args)
        if any(self.value(operand) == _MISSING for operand in operands):
            return frozenset({ERROR})
        return _ANY

    def _has(self, node: Select) -> Outcomes:
        entry = entry_of(node, self.profile.driver)
        if entry is None:
            return _BOOL
        published = self._published(entry)
        if published is None:
            return _BOOL  # not described by the profile: it may be there
        if not published.published_by(self.kind.name):
            return frozenset({FALSE})
        return _BOOL if published.optional else frozenset({TRUE})

    def _equality(self, equal: bool, left: _Value, right: _Value) -> Outcomes:
        if _MISSING in (left, right):
            return frozenset({ERROR})
        if isinstance(left, _Known) and isinstance(right, _Known):
            out = set()
            for a in left.values:
                for b in right.values:
                    same = type(a) is type(b) and a == b
                    out.add(TRUE if same == equal else FALSE)
            return frozenset(out)
        return _ANY

    def _membership(self, item: Expr, collection: Expr) -> Outcomes:
        value = self.value(item)
        if value == _MISSING:
            return frozenset({ERROR})
        if not isinstance(value, _Known) or not isinstance(collection, CreateList):
            return _ANY
        listed: set[Any] = set()
        for element in collection.elements:
            known = self.value(element)
            if not isinstance(known, _Known):
                return _ANY
            listed |= known.values
        return frozenset(TRUE if any(type(v) is type(x) and v == x for x in listed) else FALSE for v in value.values)

    def value(self, node: Expr) -> _Value:
        if isinstance(node, Literal):
            return _Known(frozenset({node.value})) if isinstance(node.value, (str, int, bool)) else _UNKNOWN
        if _is_device_driver(node):
            return _Known(frozenset({self.profile.driver}))
        if isinstance(node, Comprehension):
            return _MISSING if self.value(node.iter_range) == _MISSING else _UNKNOWN
        entry = entry_of(node, self.profile.driver)
        if entry is None or entry.test_only:
            return _UNKNOWN
        published = self._published(entry)
        if published is None:
            return _UNKNOWN
        if not published.published_by(self.kind.name):
            return _UNKNOWN if entry.optional else _MISSING
        if entry.optional or published.optional:
            return _UNKNOWN
        fixed = self.kind.match.get(published.qualified)
        if fixed is not None:
            return _Known(frozenset({_typed(fixed, published.type)}))
        if published.values is not None and published.type in ("string", "int", "bool"):
            return _Known(frozenset(_typed(v, published.type) for v in published.values))
        return _UNKNOWN

    def _published(self, entry: Entry) -> Published | None:
        return self.profile.published(entry.table).get((entry.domain, entry.name))


def _typed(value: Scalar, kind: str) -> Scalar:
    """A profile value as CEL sees it (a version is not a string: it never equals a string literal)."""
    return ("version", value) if kind == "version" else value  # type: ignore[return-value]


def _and(a: Outcomes, b: Outcomes) -> Outcomes:
    return _logical(a, b, absorbing=FALSE, otherwise=TRUE)


def _or(a: Outcomes, b: Outcomes) -> Outcomes:
    return _logical(a, b, absorbing=TRUE, otherwise=FALSE)


def _logical(a: Outcomes, b: Outcomes, *, absorbing: str, otherwise: str) -> Outcomes:
    """CEL's commutative ``&&``/``||``: the absorbing value on either side wins, then an error."""
    out = set()
    for x in a:
        for y in b:
            out.add(absorbing if absorbing in (x, y) else ERROR if ERROR in (x, y) else otherwise)
    return frozenset(out)


def outcomes(expr: Expr, profile: DriverProfile, kind: DeviceKind) -> Outcomes:
    """What ``expr`` may evaluate to on devices of ``kind``: a subset of true, false and error."""
    return _Kind(profile, kind).outcomes(expr)


def admitted(exprs: Sequence[Expr], profile: DriverProfile) -> tuple[str, ...]:
    """The kinds of ``profile`` whose devices every one of ``exprs`` may select, in the profile's order."""
    return tuple(kind.name for kind in profile.kinds if all(TRUE in outcomes(e, profile, kind) for e in exprs))


def why_not(expr: Expr, profile: DriverProfile) -> str:
    """Why no kind of ``profile`` satisfies ``expr``: per kind, what its devices publish against the failing clause."""
    reasons: list[str] = []
    for kind in profile.kinds:
        clause = next((c for c in _conjuncts(expr) if TRUE not in outcomes(c, profile, kind)), expr)
        reasons.append(_reason(clause, profile, kind))
    return "; ".join(dict.fromkeys(reasons))


def _conjuncts(expr: Expr) -> list[Expr]:
    if isinstance(expr, Call) and expr.function == "_&&_" and len(expr.args) == 2:
        return _conjuncts(expr.args[0]) + _conjuncts(expr.args[1])
    return [expr]


def _reason(clause: Expr, profile: DriverProfile, kind: DeviceKind) -> str:
    """What rules ``kind`` out in ``clause``: the first comparison or has() in it that is never true, described."""
    devices = f"{kind.name} devices" if profile.device_kinds else f"devices of {profile.driver}"
    tests = [n for n in walk(clause) if _is_test(n)]
    failing = [n for n in tests if TRUE not in outcomes(n, profile, kind)]
    for node in failing + [n for n in tests if n not in failing]:
        for part in walk(node):
            entry = entry_of(part, profile.driver)
            published = None if entry is None else profile.published(entry.table).get((entry.domain, entry.name))
            if entry is None or published is None:
                continue
            if not published.published_by(kind.name):
                return f"{devices} do not publish {entry.name}"
            if entry.test_only:
                return f"{devices} always publish {entry.name}"
            fixed = kind.match.get(published.qualified)
            if fixed is not None:
                return f"{devices} have {entry.name} {_show(fixed)}"
            if published.values is not None:
                shown = [_show(v) for v in published.values[:_VALUES_SHOWN]]
                more = len(published.values) - len(shown)
                return f"{entry.name} is one of {', '.join(shown)}" + (f" and {more} more" if more > 0 else "")
    return f"{devices} never satisfy it"


def _is_test(node: Expr) -> bool:
    if isinstance(node, Select):
        return node.test_only
    return isinstance(node, Call) and node.function in ("_==_", "_!=_", "@in")


_VALUES_SHOWN = 12  # a finding's message stays short (the profile lists the rest)


def _show(value: Scalar) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
