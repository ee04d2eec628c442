"""Runtime cost of function calls: cel-go's cost tracker plus Kubernetes' library costs.

``call_cost`` mirrors ``interpreter/runtimecost.go`` (``costCall``), the per-overload trackers of
cel-go's lists extension and Kubernetes' ``library.CostEstimator.CallCost``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from dralint.cel.checker.decls import Overload
from dralint.cel.pricing import COMPARE_BY_SIZE_OVERLOADS, LIST_CREATE_COST, REGEX_FACTOR, STRING_FACTOR, Pricing
from dralint.cel.runtime.semantics import type_name
from dralint.cel.runtime.values import Optional

__all__ = [
    "actual_size",
    "call_cost",
    "cost_before",
    "traversal_cost",
]

_STRING_LINEAR = frozenset(
    ("starts_with_string", "ends_with_string", "string_to_bytes", "bytes_to_string", "strings_quote", "string_format")
)
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


def call_cost(function: str, pricing: Pricing | None, overload: Overload | None, args: list[Any], result: Any) -> int:
    """Cost of one call, from its arguments and result (``overload``: when the checker resolved just one)."""
    overload_id = overload.id if overload is not None else ""
    if pricing is not None:
        priced = _priced(pricing, overload_id, args, result)
        if priced is not None:
            return priced
    if function == "_==_" and args and type_name(args[0]) in _K8S_STRICT_EQUAL_TYPES:
        return 1  # Kubernetes prices equality of its library types as a unit
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


def cost_before(function: str, pricing: Pricing | None, overload: Overload | None, args: list[Any]) -> int:
    """The part of a call's cost known from its arguments alone, charged before the call builds
    its result: a list range or a concatenation past the limit then stops without being built."""
    if pricing is Pricing.LIST_RANGE and overload is not None and type(args[0]) is int and args[0] > 0:
        return args[0] + 1 + LIST_CREATE_COST
    if function == "_+_" and len(args) == 2 and type(args[0]) in (str, bytes) and type(args[1]) is type(args[0]):
        return math.ceil((actual_size(args[0]) + actual_size(args[1])) * STRING_FACTOR)
    return 0


def _priced(pricing: Pricing, overload_id: str, args: list[Any], result: Any) -> int | None:
    """Kubernetes' ``CallCost`` and the lists extension's trackers, by the function's class.

    ``None``: not priced here (cel-go's core prices apply)."""
    match pricing:
        case Pricing.UNIT:
            return 1
        case Pricing.TRAVERSAL | Pricing.DRA_INCLUDES:
            return traversal_cost(args[0]) if args else 0
        case Pricing.PARSE | Pricing.URL | Pricing.RECEIVER_STRING:
            return math.ceil(actual_size(args[0]) * STRING_FACTOR)
        case Pricing.IP:
            return 1 if overload_id == "cidr_ip" else math.ceil(actual_size(args[0]) * STRING_FACTOR)
        case Pricing.REPLACE | Pricing.SPLIT:
            return math.ceil(actual_size(args[0]) * 2 * STRING_FACTOR)
        case Pricing.JOIN:
            return math.ceil(actual_size(result) * 2 * STRING_FACTOR)
        case Pricing.FIND:
            return math.ceil((1 + actual_size(args[0])) * STRING_FACTOR) * math.ceil(
                actual_size(args[1]) * REGEX_FACTOR
            )
        case Pricing.IP_CANONICAL:
            return math.ceil(actual_size(args[0]) * 2 * STRING_FACTOR)
        case Pricing.CONTAINS_IP:
            size = actual_size(args[0])
            cost = math.ceil((size + size) * STRING_FACTOR)
            if overload_id == "cidr_contains_ip_string":
                cost += math.ceil(actual_size(args[1]) * STRING_FACTOR)
            return cost
        case Pricing.CONTAINS_CIDR:
            size = actual_size(args[0])
            cost = math.ceil((size + size) * STRING_FACTOR) + math.ceil(size * STRING_FACTOR) + 1
            if overload_id == "cidr_contains_cidr_string":
                cost += math.ceil(actual_size(args[1]) * STRING_FACTOR)
            return cost
        case Pricing.VALIDATE:
            regex_size: int | None = getattr(args[0], "max_regex_size", None) if len(args) >= 2 else None
            if regex_size is not None:
                return math.ceil((1 + actual_size(args[1])) * STRING_FACTOR) * math.ceil(regex_size * REGEX_FACTOR)
        # The lists extension's trackers are bound to an overload: a call dispatched at run time
        # among several overloads (no ``overload_id``) costs what cel-go's core gives it.
        case Pricing.LIST_RANGE | Pricing.LIST_SLICE | Pricing.LIST_REVERSE if overload_id:
            return actual_size(result) + 1 + LIST_CREATE_COST
        case Pricing.LIST_FLATTEN if overload_id:
            depth = args[1] if len(args) == 2 else 1
            return int(actual_size(args[0]) * float(depth)) + 1 + LIST_CREATE_COST
        case Pricing.LIST_SORT if overload_id:
            return _self_compare(args[0])
        case Pricing.LIST_SORT_BY_KEYS if overload_id:
            return _self_compare(args[1])
    return None


def _self_compare(items: Any) -> int:
    size = len(items)
    factor = 2.0
    if size and isinstance(items[0], (str, bytes)):
        factor += STRING_FACTOR
    return int(size * size * factor) + 1 + LIST_CREATE_COST  # Go's uint64(float64(...)) truncates
