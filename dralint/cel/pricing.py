"""How Kubernetes and cel-go price CEL function calls: the cost constants, and one class per kind of library function.

A library declares each function with its :class:`Pricing` (``env.add(name, ..., pricing=...)``,
next to the overloads), so that a function's declaration, its cost and its release gate (the
library's ``RELEASES``) are written in one place. The static estimator
(:mod:`dralint.cel.checker.estimate`, Kubernetes' ``EstimateCallCost``) and the run-time tracker
(:mod:`dralint.cel.runtime.costs`, ``CallCost``) each implement every class once.
"""

from __future__ import annotations

import enum

__all__ = [
    "COMPARE_BY_SIZE_OVERLOADS",
    "LIST_CREATE_COST",
    "MAP_CREATE_COST",
    "REGEX_FACTOR",
    "STRING_FACTOR",
    "STRUCT_CREATE_COST",
    "Pricing",
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


class Pricing(enum.Enum):
    """The cost class of a library function (functions without one cost what cel-go's core gives them)."""

    UNIT = "unit"  # constant 1: accessors and comparisons of IPs, CIDRs, quantities, semvers and URLs
    TRAVERSAL = "traversal"  # traverses its receiver once: isSorted, sum, max, min, indexOf, lastIndexOf, includes
    DRA_INCLUDES = "dra-includes"  # DRA's includes: a traversal of at most 48 values, estimated as such
    PARSE = "parse"  # parses its string argument: quantity, semver, cidr, ip, isIP, isCIDR and friends
    URL = "url"  # parses its string argument into a URL as long as the string
    RECEIVER_STRING = "receiver-string"  # copies its string receiver: lowerAscii, upperAscii, substring, trim
    REPLACE = "replace"  # two passes over the receiver
    SPLIT = "split"  # two passes over the receiver; at most the limit's pieces
    JOIN = "join"  # the joined string, built from the list and separators
    FIND = "find"  # a regular expression over the receiver: find, findAll
    IP = "ip"  # ip(string) parses; cidr.ip() is an accessor
    IP_CANONICAL = "ip-canonical"  # parses and formats its argument
    CONTAINS_IP = "contains-ip"  # a CIDR containment test (parsing a string argument first)
    CONTAINS_CIDR = "contains-cidr"
    VALIDATE = "validate"  # a named format's regular expression over the argument
    # cel-go's lists extension (priced by its own trackers; the estimates follow its estimators).
    LIST_RANGE = "list-range"
    LIST_SLICE = "list-slice"
    LIST_REVERSE = "list-reverse"
    LIST_FLATTEN = "list-flatten"
    LIST_SORT = "list-sort"  # sort and distinct: the list compared with itself
    LIST_SORT_BY_KEYS = "list-sort-by-keys"  # sortBy: the keys compared with themselves
