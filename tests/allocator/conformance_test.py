"""The 400 upstream conformance cases and the 5 scale cases of shared/conformance/."""

from __future__ import annotations

import json

import pytest

from dralint.api import serialize
from dralint.api.scenario import scenario
from dralint.commands.allocate import NodeOutcome, allocate_scenario
from tests.allocator.compare import normalise, normalise_node
from tests.conftest import SHARED, require_shared

CONFORMANCE = SHARED / "conformance"


def _cases(folder: str) -> list[str]:
    directory = CONFORMANCE / folder
    if not directory.exists():
        return ["missing"]
    return sorted(p.name.removesuffix(".scenario.json") for p in directory.glob("*.scenario.json"))


def _as_json(outcome: NodeOutcome) -> dict[str, object]:
    return {
        "node": outcome.node,
        "outcome": outcome.outcome,
        "allocations": [
            {"claim": claim, "allocation": serialize.allocation_result(result)} for claim, result in outcome.allocations
        ],
    }


def _check(folder: str, case: str) -> None:
    directory = require_shared(CONFORMANCE / folder)
    loaded = scenario(json.loads((directory / f"{case}.scenario.json").read_text()))
    expected = json.loads((directory / f"{case}.expected.json").read_text())
    actual = [normalise_node(_as_json(o)) for o in allocate_scenario(loaded)]
    assert actual == normalise(expected)


@pytest.mark.parametrize("case", _cases("allocator"))
def test_allocator_conformance_case_agrees(case: str) -> None:
    _check("allocator", case)


@pytest.mark.parametrize("case", _cases("scale"))
def test_allocator_scale_case_agrees(case: str) -> None:
    _check("scale", case)
