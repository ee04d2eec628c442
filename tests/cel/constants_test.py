"""Constant arguments checked when a selector compiles, from tests/fixtures/cel/constants.yaml."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.api.versions import make_target
from dralint.cel.constants import invalid_constants, invalid_patterns
from dralint.cel.dra import selector_environment

CASES = YAML(typ="safe", pure=True).load(
    (Path(__file__).resolve().parent.parent / "fixtures" / "cel" / "constants.yaml").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['release']}:{c['expression'][:50]}" for c in CASES])
def test_invalid_constants_reports_what_the_call_does_on_any_device(case: dict[str, Any]) -> None:
    env = selector_environment(target=make_target(case["release"]))
    found = invalid_constants(case["expression"], env)
    assert [[f.call, f.error, f.suggestion] for f in found] == case["found"]
    for f in found:
        assert f.offset is not None and case["expression"][f.offset] == '"'


def test_invalid_patterns_points_at_the_pattern_of_every_regex_function() -> None:
    expression = 'device.driver.matches("*.x") || matches(device.driver, "a(") || device.driver.findAll("[", 1) == []'
    found = invalid_patterns(expression, selector_environment())
    assert [(f.function, f.value, f.suggestion, expression[f.offset or 0 :].split(")")[0]) for f in found] == [
        ("matches", "*.x", "^.*\\.x$", '"*.x"'),
        ("matches", "a(", "a\\(", '"a("'),
        ("findAll", "[", "\\[", '"[", 1'),
    ]
