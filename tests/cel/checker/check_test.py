"""The checker on its own (dralint/cel/checker): output types and type errors, and the cost estimator."""

from __future__ import annotations

from typing import Any

import pytest

from dralint.cel import CelCompileError, estimate_cost, policy_environment
from dralint.cel.checker.decls import Environment
from dralint.cel.dra import selector_environment
from dralint.cel.program import check
from testing.cel import cases

TYPES = cases("checker/types.yaml")
COSTS = cases("checker/costs.yaml")


def _environment(name: str) -> Environment:
    return policy_environment() if name == "policy" else selector_environment()


@pytest.mark.parametrize("case", TYPES, ids=[f"{c['env']}/{c['expression']}" for c in TYPES])
def test_check_gives_the_output_type_or_the_type_error(case: dict[str, Any]) -> None:
    env = _environment(case["env"])
    if "error" in case:
        with pytest.raises(CelCompileError) as raised:
            check(case["expression"], env)
        assert raised.value.message.splitlines()[0] == case["error"]
    else:
        assert str(check(case["expression"], env).checked.output_type) == case["type"]


@pytest.mark.parametrize("case", COSTS, ids=[c["expression"] for c in COSTS])
def test_estimate_gives_the_worst_case_cost(case: dict[str, Any]) -> None:
    assert estimate_cost(case["expression"]) == case["cost"]


def test_estimate_grows_with_the_range_of_a_comprehension() -> None:
    costs = [estimate_cost(f"lists.range({n}).all(x, x > 0)") for n in (10, 20, 40)]
    assert costs[0] < costs[1] < costs[2]
    assert costs[2] - costs[1] == 2 * (costs[1] - costs[0])  # linear in the range's size
