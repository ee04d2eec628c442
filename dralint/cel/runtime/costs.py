"""Runtime cost of function calls: cel-go's cost tracker plus Kubernetes' library costs.

``call_cost`` mirrors ``interpreter/runtimecost.go`` (``costCall``), the per-overload trackers of
cel-go's lists extension and Kubernetes' ``library.CostEstimator.CallCost``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from dralint.cel.checker.decls import Overload
from dralint.cel.cost_factors import (
    COMPARE_BY_SIZE_OVERLOADS,
    LIST_CREATE_COST,
    REGEX_FACTOR,
    STRING_FACTOR,
    TRAVERSAL_FUNCTIONS,
    UNIT_COST_FUNCTIONS,
)
from dralint.cel.runtime.semantics import type_name
from dralint.cel.runtime.values import Optional

__all__ = [
    "actual_size",
    "call_cost",
    "cost_before",
    "list_flatten_cost",
    "list_keys_compare_cost",
    "list_output_cost",
    "list_self_compare_cost",
    "traversal_cost",
]

_STRING_LINEAR = frozenset(
    ("starts_with_string", "ends_with_string", "string_to_bytes", "bytes_to_string", "strings_quote", "string_format")
)
_K8S_STRING = frozenset(("url", "lowerAscii", "upperAscii", "substring", "trim", "cidr", "isIP", "isCIDR"))
_K8S_STRICT_EQUAL_TYPES = frozenset(
    ("kubernetes.Quantity", "kubernetes.Semver", "net.IP", "net.CIDR", "kubernetes.URL", "kubernetes.NamedFormat")
)


def actual_size(value: Any) -> int:
    """cel-go's ``actualSize``: the size of sizers (strings count code points), else 1."""
    if isinstance(value, (str, bytes, list, tuple, Mapping)):
        return len(value)
    if type(value) is Optional and value.present:
        return actual_size(value.value)
    return 1


def traversal_cost(value: Any) -> int:
    """Kubernetes' ``traversalCost`` (bytes of strings, recursively through lists and maps)."""
    if isinstance(value, str):
        return int(len(value.encode("utf-8")) * STRING_FACTOR)
    if isinstance(value, bytes):
        return int(len(value) * STRING_FACTOR)
    if isinstance(value, (list, tuple)):
        return sum(traversal_cost(v) for v in value)
    if isinstance(value, Mapping):
        return sum(traversal_cost(k) + traversal_cost(v) for k, v in value.items())
    return 1


def call_cost(function: str, overload: Overload | None, args: list[Any], result: Any) -> int:
    """Cost of one call, from its arguments and result."""
    overload_id = overload.id if overload is not None else ""
    if overload is not None and overload.cost is not None:
        return overload.cost(tuple(args), result)
    k8s = _k8s_cost(function, overload_id, args, result)
    if k8s is not None:
        return k8s
    if overload_id in _STRING_LINEAR:
        return math.ceil(actual_size(args[0]) * STRING_FACTOR)
    if overload_id == "in_list" or (function == "@in" and args and isinstance(args[-1], (list, tuple))):
        return actual_size(args[1])
    if overload_id in COMPARE_BY_SIZE_OVERLOADS or function in ("_==_", "_!=_"):
        return math.ceil(min(actual_size(args[0]), actual_size(args[1])) * STRING_FACTOR)
    if overload_id in ("add_string", "add_bytes") or (
        function == "_+_" and len(args) == 2 and type(args[0]) in (str, bytes) and type(args[1]) is type(args[0])
    ):
        return math.ceil((actual_size(args[0]) + actual_size(args[1])) * STRING_FACTOR)
    if function == "matches":
        return math.ceil((1 + actual_size(args[0])) * STRING_FACTOR) * math.ceil(actual_size(args[1]) * REGEX_FACTOR)
    if overload_id == "contains_string":
        return math.ceil(actual_size(args[0]) * STRING_FACTOR) * math.ceil(actual_size(args[1]) * STRING_FACTOR)
    if function in ("_<_", "_<=_", "_>_", "_>=_") and type(args[0]) in (str, bytes) and type(args[1]) is type(args[0]):
        return math.ceil(min(actual_size(args[0]), actual_size(args[1])) * STRING_FACTOR)
    return 1


def cost_before(function: str, overload: Overload | None, args: list[Any]) -> int:
    """The part of a call's cost known from its arguments alone, charged before the call builds
    its result: a list range or a concatenation past the limit then stops without being built."""
    if overload is not None and overload.id == "lists_range" and type(args[0]) is int and args[0] > 0:
        return args[0] + 1 + LIST_CREATE_COST
    if function == "_+_" and len(args) == 2 and type(args[0]) in (str, bytes) and type(args[1]) is type(args[0]):
        return math.ceil((actual_size(args[0]) + actual_size(args[1])) * STRING_FACTOR)
    return 0


def _k8s_cost(function: str, overload_id: str, args: list[Any], result: Any) -> int | None:
    if function in TRAVERSAL_FUNCTIONS:
        return traversal_cost(args[0]) if args else 0
    if function in _K8S_STRING:
        return math.ceil(actual_size(args[0]) * STRING_FACTOR)
    if function in ("replace", "split"):
        return math.ceil(actual_size(args[0]) * 2 * STRING_FACTOR)
    if function == "join":
        return math.ceil(actual_size(result) * 2 * STRING_FACTOR)
    if function in ("find", "findAll"):
        return math.ceil((1 + actual_size(args[0])) * STRING_FACTOR) * math.ceil(actual_size(args[1]) * REGEX_FACTOR)
    if function == "ip":
        return 1 if overload_id == "cidr_ip" else math.ceil(actual_size(args[0]) * STRING_FACTOR)
    if function == "ip.isCanonical":
        return math.ceil(actual_size(args[0]) * 2 * STRING_FACTOR)
    if function == "containsIP":
        size = actual_size(args[0])
        cost = math.ceil((size + size) * STRING_FACTOR)
        if overload_id == "cidr_contains_ip_string":
            cost += math.ceil(actual_size(args[1]) * STRING_FACTOR)
        return cost
    if function == "containsCIDR":
        size = actual_size(args[0])
        cost = math.ceil((size + size) * STRING_FACTOR) + math.ceil(size * STRING_FACTOR) + 1
        if overload_id == "cidr_contains_cidr_string":
            cost += math.ceil(actual_size(args[1]) * STRING_FACTOR)
        return cost
    if function in ("quantity", "isQuantity", "semver", "isSemver"):
        return math.ceil(actual_size(args[0]) * STRING_FACTOR)
    if function == "validate" and len(args) >= 2:
        regex_size: int | None = getattr(args[0], "max_regex_size", None)
        if regex_size is not None:
            return math.ceil((1 + actual_size(args[1])) * STRING_FACTOR) * math.ceil(regex_size * REGEX_FACTOR)
    if function in UNIT_COST_FUNCTIONS:
        return 1
    if function == "_==_" and args and type_name(args[0]) in _K8S_STRICT_EQUAL_TYPES:
        return 1
    return None


def list_output_cost(args: tuple[Any, ...], result: Any) -> int:
    """cel-go's ``trackListOutputSize`` (lists.range, slice, reverse)."""
    return actual_size(result) + 1 + LIST_CREATE_COST


def list_self_compare_cost(args: tuple[Any, ...], result: Any) -> int:
    """cel-go's ``trackListSelfCompare`` (distinct, sort): quadratic in the list size."""
    return _self_compare(args[0])


def list_keys_compare_cost(args: tuple[Any, ...], result: Any) -> int:
    """cel-go's ``trackListSortBy``: the self-comparison of the keys list."""
    return _self_compare(args[1])


def _self_compare(items: Any) -> int:
    size = len(items)
    factor = 2.0
    if size and isinstance(items[0], (str, bytes)):
        factor += STRING_FACTOR
    return int(size * size * factor) + 1 + LIST_CREATE_COST  # Go's uint64(float64(...)) truncates


def list_flatten_cost(args: tuple[Any, ...], result: Any) -> int:
    """cel-go's ``trackListFlatten``: the input size times the depth."""
    depth = args[1] if len(args) == 2 else 1
    return int(actual_size(args[0]) * float(depth)) + 1 + LIST_CREATE_COST
