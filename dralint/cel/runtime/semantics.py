"""cel-go's value semantics over plain Python values: type names, errors, equality, containers, ordering.

Every failure raises :class:`CelRuntimeError` with cel-go's text; the logical operators and
comprehensions of the compiled program decide which errors are absorbed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NoReturn

from dralint.apimachinery.quantity import Quantity
from dralint.cel.errors import CelRuntimeError
from dralint.cel.runtime.values import (
    NONE,
    DefaultMap,
    Duration,
    Optional,
    Timestamp,
    TypeValue,
    UInt,
)

__all__ = [
    "GO_TYPES",
    "MATCHERS",
    "TYPE_NAMES",
    "compare",
    "contains",
    "equal",
    "fail",
    "field_of_non_map",
    "index",
    "list_position",
    "map_insert",
    "no_such_overload",
    "not_iterable",
    "operand_mismatch",
    "optional_index",
    "optional_select",
    "size",
    "type_name",
]

# Python classes of CEL values -> CEL type names (library classes register themselves here).
TYPE_NAMES: dict[type, str] = {
    bool: "bool",
    int: "int",
    UInt: "uint",
    float: "double",
    str: "string",
    bytes: "bytes",
    type(None): "null_type",
    list: "list",
    tuple: "list",
    dict: "map",
    DefaultMap: "map",
    Duration: "google.protobuf.Duration",
    Timestamp: "google.protobuf.Timestamp",
    TypeValue: "type",
    Optional: "optional_type",
    Quantity: "kubernetes.Quantity",
}

# Python classes of CEL values -> the Go types cel-go names with %T in some errors (libraries add theirs).
GO_TYPES: dict[type, str] = {
    bool: "types.Bool",
    int: "types.Int",
    UInt: "types.Uint",
    float: "types.Double",
    str: "types.String",
    bytes: "types.Bytes",
    type(None): "types.Null",
    Duration: "types.Duration",
    Timestamp: "types.Timestamp",
    TypeValue: "*types.Type",
    Optional: "*types.Optional",
    Quantity: "cel.Quantity",
}

_NUMBERS = (int, UInt, float)
_SCALARS = frozenset((str, int, UInt, bool, bytes, type(None), float))
# Kubernetes types whose Equal() in cel-go errors unless the right operand is exactly the given
# class: left type -> accepted right type (a boxed Quantity, returned by add()/sub(), is accepted
# on the left but not on the right, as upstream).
STRICT_EQUAL: dict[type, type] = {Quantity: Quantity}


def fail(message: str) -> NoReturn:
    raise CelRuntimeError(message)


def no_such_overload(function: str | None = None, *args: Any) -> NoReturn:
    if function is None:
        raise CelRuntimeError("no such overload")
    raise CelRuntimeError(f"no such overload: {function}({', '.join(type_name(a) for a in args)})")


# cel-go binds each operator to a trait of its first operand (the trait masks of
# common/types/types.go). An operand with the trait rejects an unsuitable second operand with the
# plain "no such overload"; an operand without it does the same when it is a receiver type
# (string, duration, timestamp), and otherwise the interpreter reports "no such overload: <operator>".
_RECEIVERS = frozenset((str, Duration, Timestamp))
_COMPARERS = frozenset((int, UInt, float, str, bytes, bool, Duration, Timestamp))
_SIZERS = frozenset((str, bytes, list, tuple))  # and maps
MATCHERS = frozenset((str,))


def operand_mismatch(function: str, operand: Any, trait: frozenset[type]) -> NoReturn:
    """The error of ``function`` (an operator) when its operands do not fit it."""
    kind = type(operand)
    if kind in trait or kind in _RECEIVERS:
        no_such_overload()
    raise CelRuntimeError(f"no such overload: {function}")


def not_iterable(value: Any, *, two_variables: bool) -> NoReturn:
    """The error of a comprehension over a value that is neither a list nor a map."""
    go_type = GO_TYPES.get(type(value), type(value).__name__)
    if two_variables:
        fail(f"unsupported comprehension range type: {go_type}")
    fail(f"got '{go_type}', expected iterable type")


def type_name(value: Any) -> str:
    name = TYPE_NAMES.get(type(value))
    if name is not None:
        return name
    for cls, cls_name in TYPE_NAMES.items():
        if isinstance(value, cls):
            return cls_name
    if isinstance(value, Mapping):
        return "map"
    return type(value).__name__


# --- equality ----------------------------------------------------------------------------------


def equal(a: Any, b: Any) -> bool:
    """cel-go's ``Equal`` (heterogeneous numeric equality); errors for Kubernetes types vs others."""
    ta, tb = type(a), type(b)
    if ta is tb and ta in _SCALARS:
        return bool(a == b)
    accepted = STRICT_EQUAL.get(ta)
    if accepted is not None:
        if tb is not accepted:
            no_such_overload()
        return bool(a == b)
    if ta in _NUMBERS and ta is not bool:
        if tb not in _NUMBERS or tb is bool:
            return False
        if ta is float or tb is float:
            return float(a) == float(b)
        return int(a) == int(b)
    if ta in (list, tuple):
        if tb not in (list, tuple) or len(a) != len(b):
            return False
        return all(equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping):
        if not isinstance(b, Mapping) or len(a) != len(b):
            return False
        for key, value in a.items():
            found, other = find(b, key)
            if not found or not equal(value, other):
                return False
        return True
    if ta is Optional:
        if tb is not Optional:
            return False
        if not a.present or not b.present:
            return bool(a.present == b.present)
        return equal(a.value, b.value)
    if ta is not tb:
        return False
    return bool(a == b)


def not_equal(a: Any, b: Any) -> bool:
    """``!=`` is ``Equal(a, b) != true`` in cel-go: an erroring Equal makes it true."""
    try:
        return not equal(a, b)
    except CelRuntimeError:
        return True


# --- maps and lists --------------------------------------------------------------------------------------


def find(m: Mapping[Any, Any], key: Any) -> tuple[bool, Any]:
    """(found, value) for ``key`` in ``m`` with cel-go's key semantics."""
    tk = type(key)
    if tk is str:
        if isinstance(m, DefaultMap):
            return True, m[key]
        if key in m:
            return True, m[key]
        return False, None
    if tk is float:
        if not math.isfinite(key) or key != int(key):
            return False, None
        key = int(key)
        tk = int
    for stored, value in m.items():
        ts = type(stored)
        if tk is bool or ts is bool:
            if tk is ts and stored == key:
                return True, value
            continue
        if ts in (int, UInt) and tk in (int, UInt) and int(stored) == int(key):
            return True, value
    return False, None


def index(container: Any, key: Any) -> Any:
    """``container[key]`` for lists and maps; an optional container gives an optional."""
    if type(container) is Optional:
        return optional_index(container, key)
    if type(container) in (list, tuple):
        position = list_position(key)
        if position < 0 or position >= len(container):
            fail(f"index out of bounds: {position}")
        return container[position]
    if isinstance(container, Mapping):
        found, value = find(container, key)
        if not found:
            fail(f"no such key: {format_key(key)}")
        return value
    # cel-go indexes through attribute qualifiers, which report any other value as missing the key.
    fail(f"no such key: {format_key(key)}")


def optional_select(value: Optional, name: str) -> Optional:
    """``value.?name`` on an optional: none where the field is missing."""
    if not value.present:
        return NONE
    inner = value.value
    if isinstance(inner, DefaultMap):
        return Optional(True, inner[name])
    if isinstance(inner, Mapping):
        found, result = find(inner, name)
        return Optional(True, result) if found else NONE
    field_of_non_map(inner, name, presence=True)
    return NONE


def optional_index(container: Any, key: Any) -> Optional:
    """``container[?key]``, and ``container[key]`` on an optional: none where the entry is missing."""
    if type(container) is Optional:
        if not container.present:
            return NONE
        container = container.value
    if type(container) in (list, tuple):
        position = list_position(key)
        return Optional(True, container[position]) if 0 <= position < len(container) else NONE
    if isinstance(container, DefaultMap):
        return Optional(True, container[key])
    if isinstance(container, Mapping):
        found, value = find(container, key)
        return Optional(True, value) if found else NONE
    return NONE  # like has(), an optional index finds nothing in a value without entries


def list_position(key: Any) -> int:
    """A list index from ``key`` (cel-go's ``IndexOrError``): ints, uints and integral doubles."""
    tk = type(key)
    if tk is int or tk is UInt or (tk is float and math.isfinite(key) and key == int(key)):
        return int(key)
    if tk is float:
        fail(f"unsupported index value {key} in list")
    fail(f"unsupported index type '{type_name(key)}' in list")


def field_of_non_map(value: Any, name: str, *, presence: bool) -> bool:
    """A field selected from a value that is neither a map nor an optional (cel-go's ``refQualify``).

    Lists reject the string key; anything else lacks the field: a presence test answers False
    (``has()``, ``.?``), a plain selection fails with ``no such key``.
    """
    if type(value) in (list, tuple):
        list_position(name)
    if presence:
        return False
    fail(f"no such key: {name}")


def map_insert(target: dict[Any, Any], entries: list[Any]) -> None:
    """``cel.@mapInsert`` into ``target`` in place: ``[key, value]``, or ``[map]`` to insert all its entries."""
    pairs = [(entries[0], entries[1])] if len(entries) == 2 else list(entries[0].items())
    for key, value in pairs:
        if find(target, key)[0]:
            fail(f"insert failed: key {format_key(key)} already exists")
        target[key] = value


def format_key(key: Any) -> str:
    if type(key) is bool:
        return "true" if key else "false"
    if type(key) is bytes:
        return key.decode("utf-8", "replace")
    return str(int(key)) if type(key) is UInt else str(key)


def contains(element: Any, container: Any) -> bool:
    """``element in container``."""
    if type(container) in (list, tuple):
        first_error: CelRuntimeError | None = None
        for item in container:
            try:
                if equal(element, item):
                    return True
            except CelRuntimeError as error:
                first_error = first_error or error
        if first_error is not None:
            raise first_error
        return False
    if isinstance(container, Mapping):
        if type(element) is str:
            return dict.__contains__(container, element)
        if type(element) not in (int, UInt, float, bool):
            return False
        return find(container, element)[0]
    no_such_overload()


def size(value: Any) -> int:
    t = type(value)
    if t is str or t is bytes or t is list or t is tuple or isinstance(value, Mapping):
        return len(value)
    operand_mismatch("size", value, _SIZERS)


# --- ordering ----------------------------------------------------------------------------------


def compare(a: Any, b: Any, function: str | None = None) -> int:
    """-1, 0 or 1 (cel-go's ``Compare`` with cross-type numeric comparisons).

    ``function`` names the operator that compares, for its error when ``a`` cannot be ordered.
    """
    ta, tb = type(a), type(b)
    if ta in _NUMBERS and tb in _NUMBERS:
        if ta is float or tb is float:
            x, y = float(a), float(b)
            if math.isnan(x) or math.isnan(y):
                fail("NaN values cannot be ordered")
        else:
            x, y = int(a), int(b)
        return (x > y) - (x < y)
    if ta is tb and ta in (str, bytes, bool):
        return int(a > b) - int(a < b)
    if ta is tb and ta in (Duration, Timestamp):
        return int(a.nanos > b.nanos) - int(a.nanos < b.nanos)
    if function is None:
        no_such_overload()
    operand_mismatch(function, a, _COMPARERS)
