"""The lists and sets surface, function by function, against upstream (fixtures/cel/lists_surface.yaml)."""

from __future__ import annotations

from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.cel.runtime.costs import list_flatten_cost, list_keys_compare_cost, list_self_compare_cost
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


def test_list_cost_trackers_follow_cel_go() -> None:
    # trackListSelfCompare: uint64(float64(n*n) * factor) + 1 + ListCreateBaseCost, truncated;
    # strings add StringTraversalCostFactor (0.1) to the factor 2.
    assert list_self_compare_cost((["a", "b", "c"],), None) == 18 + 1 + 10
    assert list_self_compare_cost(([3, 2, 1],), None) == 18 + 1 + 10
    # trackListSortBy: the keys list (the second argument) is what is compared.
    assert list_keys_compare_cost(([1, 2], ["x", "y"]), None) == 8 + 1 + 10
    # trackListFlatten: the input size times the depth.
    assert list_flatten_cost(([[1], [2], [3]], 2), None) == 6 + 1 + 10
    assert list_flatten_cost(([[1], [2]],), None) == 2 + 1 + 10
