"""The lists and sets surface, function by function, against upstream (fixtures/cel/lists_surface.yaml)."""

from __future__ import annotations

from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.cel.lib.environments import base_options, build
from dralint.cel.runtime.costs import call_cost
from testing.cel import policy_outcome
from tests.conftest import FIXTURES

CASES: list[dict[str, Any]] = YAML(typ="safe", pure=True).load(
    (FIXTURES / "cel" / "lists_surface.yaml").read_text(encoding="utf-8")
)
# Every function of cel-go's lists (v3) and sets extensions and of Kubernetes' list library.
SURFACE = {
    "slice", "flatten", "sort", "sortBy", "lists.range", "reverse", "distinct",
    "sets.contains", "sets.equivalent", "sets.intersects",
    "isSorted", "sum", "min", "max", "indexOf", "lastIndexOf", "includes",
}  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c["expression"][:60] for c in CASES])
def test_lists_surface_case_matches_upstream(case: dict[str, Any]) -> None:
    assert policy_outcome(case["expression"], {}) == case["expect"]


def test_lists_surface_covers_every_function() -> None:
    assert {c["function"] for c in CASES} == SURFACE
    assert all(c["source"] for c in CASES)


def _run_cost(function: str, overload_id: str, *args: Any) -> int:
    """The run-time cost of ``function`` called with ``args`` as the declared overload ``overload_id``."""
    declared = build("all", base_options(), compatibility=None, honour_gates=False).functions[function]
    overload = next(o for o in declared.overloads if o.id == overload_id)
    return call_cost(function, declared.pricing, overload, list(args), None)


def test_list_cost_trackers_follow_cel_go() -> None:
    # trackListSelfCompare: uint64(float64(n*n) * factor) + 1 + ListCreateBaseCost, truncated;
    # strings add StringTraversalCostFactor (0.1) to the factor 2.
    assert _run_cost("sort", "list_string_sort", ["a", "b", "c"]) == 18 + 1 + 10
    assert _run_cost("sort", "list_int_sort", [3, 2, 1]) == 18 + 1 + 10
    assert _run_cost("distinct", "list_distinct", [3, 2, 1]) == 18 + 1 + 10
    # trackListSortBy: the keys list (the second argument) is what is compared.
    assert _run_cost("@sortByAssociatedKeys", "list_string_sortByAssociatedKeys", [1, 2], ["x", "y"]) == 8 + 1 + 10
    # trackListFlatten: the input size times the depth.
    assert _run_cost("flatten", "list_flatten_int", [[1], [2], [3]], 2) == 6 + 1 + 10
    assert _run_cost("flatten", "list_flatten", [[1], [2]]) == 2 + 1 + 10
