"""The 400 upstream conformance cases and the 5 scale cases of shared/conformance/.

Outcomes, allocations and, for errors, the message must be upstream's.
"""

from __future__ import annotations

import json

import pytest

from dralint.api import serialize
from dralint.api.scenario import scenario
from dralint.commands.allocate import NodeOutcome, allocate_scenario
from testing.allocator_compare import normalise, normalise_node
from tests.conftest import SHARED, require_shared

CONFORMANCE = SHARED / "conformance"


def _cases(folder: str, suffix: str = ".scenario.json") -> list[str]:
    directory = CONFORMANCE / folder
    if not directory.exists():
        return ["missing"]
    names = (p.name.removesuffix(suffix) for p in directory.glob(f"*{suffix}"))
    return sorted(n for n in names if not n.endswith(".expected"))


def _as_json(outcome: NodeOutcome) -> dict[str, object]:
    return {
        "node": outcome.node,
        "outcome": outcome.outcome,
        "error": outcome.error,
        "allocations": [
            {"claim": claim, "allocation": serialize.allocation_result(result)} for claim, result in outcome.allocations
        ],
    }


def _check(folder: str, case: str, suffix: str = ".scenario.json") -> None:
    directory = require_shared(CONFORMANCE / folder)
    loaded = scenario(json.loads((directory / f"{case}{suffix}").read_text()))
    expected = json.loads((directory / f"{case}.expected.json").read_text())
    outcomes = allocate_scenario(loaded)
    assert [normalise_node(_as_json(o)) for o in outcomes] == normalise(expected)
    # Where upstream recorded its step count (the CEL examples), the search took as many steps.
    for outcome, result in zip(outcomes, expected["results"], strict=True):
        if "allocateOneInvocations" in result:
            assert outcome.steps == result["allocateOneInvocations"]


@pytest.mark.parametrize("case", _cases("allocator"))
def test_allocator_conformance_case_agrees(case: str) -> None:
    _check("allocator", case)


@pytest.mark.parametrize("case", _cases("scale"))
def test_allocator_scale_case_agrees(case: str) -> None:
    _check("scale", case)


@pytest.mark.parametrize("case", _cases("cel/examples", ".json"))
def test_allocator_cel_example_agrees(case: str) -> None:
    _check("cel/examples", case, ".json")
