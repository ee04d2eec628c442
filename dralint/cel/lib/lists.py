"""List functions: Kubernetes' list library, cel-go's lists extension (v3) and its sets extension."""

from __future__ import annotations

import functools
from typing import Any

from dralint.cel.checker.decls import Environment, Overload, VersionedOption
from dralint.cel.checker.types import (
    BOOL,
    BYTES,
    DOUBLE,
    DURATION,
    DYN,
    INT,
    STRING,
    TIMESTAMP,
    UINT,
    Type,
    list_of,
    param,
)
from dralint.cel.errors import CelRuntimeError
from dralint.cel.parser.macros import MACROS_LISTS
from dralint.cel.pricing import Pricing
from dralint.cel.runtime import arithmetic
from dralint.cel.runtime import semantics as runtime
from dralint.cel.runtime.values import MAX_LIST_SIZE, Duration, UInt, refuse_larger

__all__ = ["RELEASES", "install_k8s_lists", "install_lists_ext", "install_sets"]

A = param("A")
_COMPARABLE: tuple[tuple[str, Type], ...] = (
    ("int", INT),
    ("uint", UINT),
    ("double", DOUBLE),
    ("bool", BOOL),
    ("duration", DURATION),
    ("timestamp", TIMESTAMP),
    ("string", STRING),
    ("bytes", BYTES),
)
_SUMMABLE: tuple[tuple[str, Type, Any], ...] = (
    ("int", INT, 0),
    ("uint", UINT, UInt(0)),
    ("double", DOUBLE, 0.0),
    ("duration", DURATION, Duration(0)),
)


def _eq(a: Any, b: Any) -> bool:
    """``a.Equal(b) == types.True``: an erroring comparison counts as unequal."""
    try:
        return runtime.equal(a, b)
    except CelRuntimeError:
        return False


def install_k8s_lists(env: Environment, *, version: int = 1) -> None:
    env.add(
        "isSorted",
        *(Overload(f"list_{n}_is_sorted_bool", (list_of(t),), BOOL, _is_sorted, member=True) for n, t in _COMPARABLE),
        pricing=Pricing.TRAVERSAL,
    )
    env.add(
        "sum",
        *(
            Overload(f"list_{n}_sum_{n}", (list_of(t),), t, functools.partial(_sum, zero), member=True)
            for n, t, zero in _SUMMABLE
        ),
        pricing=Pricing.TRAVERSAL,
    )
    env.add(
        "max",
        *(Overload(f"list_{n}_max_{n}", (list_of(t),), t, _max, member=True) for n, t in _COMPARABLE),
        pricing=Pricing.TRAVERSAL,
    )
    env.add(
        "min",
        *(Overload(f"list_{n}_min_{n}", (list_of(t),), t, _min, member=True) for n, t in _COMPARABLE),
        pricing=Pricing.TRAVERSAL,
    )
    env.add(
        "indexOf",
        Overload("list_a_index_of_int", (list_of(A), A), INT, _index_of, True, ("A",)),
        pricing=Pricing.TRAVERSAL,
    )
    env.add(
        "lastIndexOf",
        Overload("list_a_last_index_of_int", (list_of(A), A), INT, _last_index_of, True, ("A",)),
        pricing=Pricing.TRAVERSAL,
    )
    if version >= 1:
        env.add(
            "includes",
            Overload("list_includes_dyn_dyn", (DYN, DYN), BOOL, includes, member=True),
            pricing=Pricing.TRAVERSAL,
        )


def _is_sorted(items: list[Any]) -> bool:
    """Kubernetes' ``isSorted``: every element must be comparable, but a pair of different types
    (a list of ``dyn``) compares to an error value, which is not "greater", so it is skipped."""
    previous: Any = _START
    for item in items:
        runtime.compare(item, item)  # "no such overload" for an element that cannot be compared
        if previous is not _START and _compare(previous, item) == 1:
            return False
        previous = item
    return True


_START = object()


def _sum(zero: Any, items: list[Any]) -> Any:
    total = zero
    for item in items:
        total = arithmetic.add(total, item)
    return total


def _extreme(name: str, prefer: int, items: list[Any]) -> Any:
    """Kubernetes' ``min``/``max``: like ``isSorted``, a pair of different types is skipped."""
    result: Any = _START
    for item in items:
        runtime.compare(item, item)  # every element must be comparable
        if result is _START or _compare(result, item) == prefer:
            result = item
    if result is _START:
        raise CelRuntimeError(f"{name} called on empty list")
    return result


def _compare(a: Any, b: Any) -> int | None:
    """``a.Compare(b)``, or None where cel-go gets an error value (different types)."""
    try:
        return runtime.compare(a, b)
    except CelRuntimeError:
        return None


def _max(items: list[Any]) -> Any:
    return _extreme("max", -1, items)


def _min(items: list[Any]) -> Any:
    return _extreme("min", 1, items)


def _index_of(items: list[Any], item: Any) -> int:
    for position, value in enumerate(items):
        if _eq(value, item):
            return position
    return -1


def _last_index_of(items: list[Any], item: Any) -> int:
    for position in range(len(items) - 1, -1, -1):
        if _eq(items[position], item):
            return position
    return -1


def includes(target: Any, arg: Any) -> bool:
    """Kubernetes' ``includes``: list membership, or equality for a scalar."""
    if type(target) in (list, tuple):
        return any(_eq(item, arg) for item in target)
    return _eq(target, arg)


def install_lists_ext(env: Environment, *, version: int = 3) -> None:
    list_a = list_of(A)
    env.add(
        "slice", Overload("list_slice", (list_a, INT, INT), list_a, _slice, True, ("A",)), pricing=Pricing.LIST_SLICE
    )
    if version >= 1:
        env.add(
            "flatten",
            Overload("list_flatten", (list_of(list_a),), list_a, _flatten, True, ("A",)),
            Overload("list_flatten_int", (list_of(DYN), INT), list_of(DYN), _flatten, True, ()),
            pricing=Pricing.LIST_FLATTEN,
        )
    if version >= 2:
        env.add(
            "sort",
            *(Overload(f"list_{t.name}_sort", (list_of(t),), list_of(t), _sort, True, ()) for _, t in _COMPARABLE),
            pricing=Pricing.LIST_SORT,
        )
        env.add(
            "@sortByAssociatedKeys",
            *(
                Overload(
                    f"list_{t.name}_sortByAssociatedKeys",
                    (list_a, list_of(t)),
                    list_a,
                    _sort_by_keys,
                    True,
                    ("A",),
                )
                for _, t in _COMPARABLE
            ),
            pricing=Pricing.LIST_SORT_BY_KEYS,
        )
        env.macros = env.macros | MACROS_LISTS
        env.add("lists.range", Overload("lists_range", (INT,), list_of(INT), _range), pricing=Pricing.LIST_RANGE)
        env.add(
            "reverse", Overload("list_reverse", (list_a,), list_a, _reverse, True, ("A",)), pricing=Pricing.LIST_REVERSE
        )
        env.add(
            "distinct",
            Overload("list_distinct", (list_a,), list_a, _distinct, True, ("A",)),
            pricing=Pricing.LIST_SORT,
        )


def _slice(items: list[Any], start: int, end: int) -> list[Any]:
    if start < 0 or end < 0:
        raise CelRuntimeError(f"cannot slice({start}, {end}), negative indexes not supported")
    if start > end:
        raise CelRuntimeError(f"cannot slice({start}, {end}), start index must be less than or equal to end index")
    if len(items) < end:
        raise CelRuntimeError(f"cannot slice({start}, {end}), list is length {len(items)}")
    return list(items[start:end])


def _flatten(items: list[Any], depth: int = 1) -> list[Any]:
    if depth < 0:
        raise CelRuntimeError("level must be non-negative")
    out: list[Any] = []
    for item in items:
        if type(item) in (list, tuple) and depth > 0:
            out.extend(_flatten(item, depth - 1))
        else:
            out.append(item)
    return out


def _sort(items: list[Any]) -> list[Any]:
    return _sort_by_keys(items, items)


def _sort_by_keys(items: list[Any], keys: list[Any]) -> list[Any]:
    """cel-go's ``sortListByAssociatedKeys`` (``sort()`` and the ``sortBy`` macro): ``items``
    in the order of their ``keys``, which must be comparable values of one type.

    Go's ``sort.Slice`` is stable up to 12 elements (insertion sort); past that, elements with
    equal keys may come out in another order than this stable sort gives.
    """
    if len(items) != len(keys):
        raise CelRuntimeError(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, "
            f"but got {len(items)} and {len(keys)} elements respectively"
        )
    if not keys:
        return list(items)
    if _compare(keys[0], keys[0]) is None:
        raise CelRuntimeError("list elements must be comparable")
    first = runtime.type_name(keys[0])
    if any(runtime.type_name(k) != first for k in keys):
        raise CelRuntimeError("list elements must have the same type")

    def by_key(i: int, j: int) -> int:
        return runtime.compare(keys[i], keys[j])

    order = sorted(range(len(keys)), key=functools.cmp_to_key(by_key))
    return [items[i] for i in order]


def _range(n: int) -> list[int]:
    refuse_larger(n, MAX_LIST_SIZE)
    return list(range(n))


def _reverse(items: list[Any]) -> list[Any]:
    return list(reversed(items))


def _distinct(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if not any(_eq(seen, item) for seen in out):
            out.append(item)
    return out


def install_sets(env: Environment) -> None:
    list_a = list_of(A)
    env.add("sets.contains", Overload("list_sets_contains_list", (list_a, list_a), BOOL, _contains, False, ("A",)))
    env.add(
        "sets.equivalent", Overload("list_sets_equivalent_list", (list_a, list_a), BOOL, _equivalent, False, ("A",))
    )
    env.add(
        "sets.intersects", Overload("list_sets_intersects_list", (list_a, list_a), BOOL, _intersects, False, ("A",))
    )


def _has(items: list[Any], element: Any) -> bool:
    return any(_eq(element, item) for item in items)


def _contains(items: list[Any], sublist: list[Any]) -> bool:
    return all(_has(items, element) for element in sublist)


def _equivalent(left: list[Any], right: list[Any]) -> bool:
    return _contains(left, right) and _contains(right, left)


def _intersects(left: list[Any], right: list[Any]) -> bool:
    return any(_has(right, element) for element in left)


# The releases whose base environment introduced (and removed) these declarations. Up to 1.36
# base.go lists Kubernetes' lists library unversioned (version 0's content) and for good; 1.37
# removes version 0 in 1.37 for version 1, which adds includes().
RELEASES = (
    VersionedOption("1.0", lambda env: install_k8s_lists(env, version=0), shipped=("1.31", "1.36")),
    VersionedOption("1.0", lambda env: install_k8s_lists(env, version=0), removed="1.37", shipped=("1.37", None)),
    VersionedOption("1.37", lambda env: install_k8s_lists(env, version=1)),
    VersionedOption("1.29", install_sets),
    VersionedOption("1.34", lambda env: install_lists_ext(env, version=3)),
)
