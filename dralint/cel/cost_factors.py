"""The cost constants and function classes that cel-go and Kubernetes price the same way statically and at run time.

cel-go's ``common/cost.go`` factors and creation costs, and the classes of functions that
Kubernetes' ``library.CostEstimator`` prices alike in ``EstimateCallCost`` (``estimate.py``)
and ``CallCost`` (``costs.py``).
"""

from __future__ import annotations

__all__ = [
    "COMPARE_BY_SIZE_OVERLOADS",
    "LIST_CREATE_COST",
    "MAP_CREATE_COST",
    "REGEX_FACTOR",
    "STRING_FACTOR",
    "STRUCT_CREATE_COST",
    "TRAVERSAL_FUNCTIONS",
    "UNIT_COST_FUNCTIONS",
]

STRING_FACTOR = 0.1  # StringTraversalCostFactor: cost per byte of a string traversed
REGEX_FACTOR = 0.25  # RegexStringLengthCostFactor: cost per byte of a pattern
LIST_CREATE_COST = 10
MAP_CREATE_COST = 30
STRUCT_CREATE_COST = 40

# Overloads that cost the size of their smaller operand times STRING_FACTOR.
COMPARE_BY_SIZE_OVERLOADS = frozenset(
    (
        "less_string",
        "greater_string",
        "less_equals_string",
        "greater_equals_string",
        "less_bytes",
        "greater_bytes",
        "less_equals_bytes",
        "greater_equals_bytes",
        "equals",
        "not_equals",
    )
)
# Kubernetes' list functions that traverse their receiver once.
TRAVERSAL_FUNCTIONS = frozenset(("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes"))
# Kubernetes' library functions of constant cost 1 (IP, CIDR, quantity, semver and URL accessors).
UNIT_COST_FUNCTIONS = frozenset(
    (
        "masked",
        "prefixLength",
        "family",
        "isUnspecified",
        "isLoopback",
        "isLinkLocalMulticast",
        "isLinkLocalUnicast",
        "isGlobalUnicast",
        "format.named",
        "sign",
        "asInteger",
        "isInteger",
        "asApproximateFloat",
        "isGreaterThan",
        "isLessThan",
        "compareTo",
        "add",
        "sub",
        "major",
        "minor",
        "patch",
        "getScheme",
        "getHostname",
        "getHost",
        "getPort",
        "getEscapedPath",
        "getQuery",
    )
)
