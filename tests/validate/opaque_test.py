"""Opaque driver configuration against its driver's profile: kind, schema, rules (``dralint/validate/opaque.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.apimachinery.fieldpath import render
from dralint.profiles.load import load
from dralint.validate.opaque import BrokenRule, ConfigProblem, InvalidParameter, UnknownConfigKind, problems
from tests.conftest import FIXTURES

PROFILE = load([str(FIXTURES / "profiles")], shipped=False).get("accel.example.org")
CASES: list[dict[str, Any]] = YAML(typ="safe").load((FIXTURES / "profile_cases" / "opaque.yaml").read_text())


def _described(problem: ConfigProblem) -> list[str]:
    if isinstance(problem, UnknownConfigKind):
        wanted = "no kind" if problem.kind is None else f"{problem.kind} ({problem.api_version})"
        guess = f"{problem.suggestion[1]} ({problem.suggestion[0]})" if problem.suggestion else "none"
        return ["UnknownConfigKind", render(problem.path), f"{wanted}; suggestion {guess}"]
    assert isinstance(problem, (InvalidParameter, BrokenRule))
    return [type(problem).__name__, render(problem.path), problem.message]


@pytest.mark.parametrize("case", CASES, ids=[str(n) for n in range(len(CASES))])
def test_opaque_parameters_against_the_profile(case: dict[str, Any]) -> None:
    assert PROFILE is not None
    assert [_described(p) for p in problems(PROFILE, case["parameters"])] == case["problems"]


def test_opaque_parameters_of_a_profile_without_configs_are_left_alone() -> None:
    shipped = load([])
    intel = shipped.get("gpu.intel.com")
    assert intel is not None and intel.configs is None
    assert list(problems(intel, {"apiVersion": "x/v1", "kind": "Anything"})) == []
