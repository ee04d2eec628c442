"""All 2,922 CEL conformance cases, each rebuilt as an allocator scenario (shared/conformance/cel/README.md).

The CEL engine's own tests evaluate the cases directly on the fleet; this runs them the way the
upstream results were produced: the fleet scenario, one claim whose request selector is the
case's expression, allocated on the fleet's node. Error messages are upstream's, claim and device
context included.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest

from dralint.api.scenario import scenario
from dralint.commands.allocate import allocate_scenario
from tests.cel.conformance_test import SYNTAX_RECOVERY
from tests.conftest import SHARED, require_shared

CEL = SHARED / "conformance" / "cel"


@cache
def _fleet() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((require_shared(CEL) / "fleet.json").read_text(encoding="utf-8"))
    return data


def _cases() -> list[dict[str, Any]]:
    path = CEL / "cases.jsonl"
    if not path.exists():
        return [{"id": "missing"}]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _outcome_kind(outcome: Any) -> str:
    if outcome.outcome == "allocated":
        return "true"
    if outcome.outcome == "unsatisfiable":
        return "false"
    if "CEL compile error" in outcome.error:
        return "compile-error"
    if "CEL runtime error" in outcome.error:
        return "runtime-error"
    return f"error: {outcome.error}"


CASES = _cases()


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_cel_case_as_allocator_scenario_agrees(case: dict[str, Any]) -> None:
    fleet = _fleet()
    data = copy.deepcopy(fleet["skeleton"])
    claim = copy.deepcopy(fleet["claimTemplate"])
    exactly = claim["spec"]["devices"]["requests"][0]["exactly"]
    exactly["deviceClassName"] = fleet["devices"][case["device"]]["deviceClassName"]
    exactly["selectors"][0]["cel"]["expression"] = case["expression"]
    data["claims"] = [claim]
    (outcome,) = allocate_scenario(scenario(data))
    assert _outcome_kind(outcome) == case["expected"], case["message"]
    if outcome.outcome == "error" and case["expression"] not in SYNTAX_RECOVERY:
        assert outcome.error == case["message"]
    if outcome.outcome == "allocated":
        (allocation,) = [result for _, result in outcome.allocations]
        assert [r.device for r in allocation.results] == [case["device"]]
