"""The general CEL API (``compile``/``Program.evaluate``) over a whole object, from a case file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.cel import CelCompileError, CelRuntimeError, compile, policy_environment
from dralint.cel.program import render_issues
from testing.cel import policy_outcome

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "cel"
CASES = YAML(typ="safe", pure=True).load((FIXTURES / "policy_cases.yaml").read_text(encoding="utf-8"))
OBJECT = YAML(typ="safe", pure=True).load((FIXTURES / "object.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["expression"][:60] for c in CASES])
def test_program_evaluate_policy_case(case: dict[str, Any]) -> None:
    assert policy_outcome(case["expression"], OBJECT) == case["expect"]


def test_program_compile_error_reports_offset_and_every_issue() -> None:
    with pytest.raises(CelCompileError) as caught:
        compile("object.a + \n  undeclared1 + undeclared2", policy_environment())
    error = caught.value
    assert error.offset == 14
    assert error.issues == (
        (14, "undeclared reference to 'undeclared1' (in container '')"),
        (28, "undeclared reference to 'undeclared2' (in container '')"),
    )
    assert error.message == (
        "compilation failed: ERROR: <input>:2:3: undeclared reference to 'undeclared1' (in container '')\n"
        " |   undeclared1 + undeclared2\n"
        " | ..^\n"
        "ERROR: <input>:2:17: undeclared reference to 'undeclared2' (in container '')\n"
        " |   undeclared1 + undeclared2\n"
        " | ................^"
    )


def test_render_issues_marks_wide_characters_like_cel_go() -> None:
    assert render_issues("'日本' + 1", [(5, "found no matching overload")]) == (
        "ERROR: <input>:1:6: found no matching overload\n | '日本' + 1\n | .．．..^"
    )


def test_program_mixed_literal_is_reported_by_the_validators_after_checking() -> None:
    """The checker types a mixed literal as dyn; the homogeneous-literal validator reports it, with the
    other validators' findings, and only when checking found nothing."""
    with pytest.raises(CelCompileError) as caught:
        compile('[1, "a"].size() == 2 && duration("bad") == duration("1s")', policy_environment())
    assert [message for _, message in caught.value.issues] == [
        "expected type 'int' but found 'string'",
        "invalid duration argument",
    ]
    with pytest.raises(CelCompileError) as caught:
        compile('[1, "a"] == [] && undeclared', policy_environment())
    assert [message for _, message in caught.value.issues] == ["undeclared reference to 'undeclared' (in container '')"]


def test_program_missing_variable_is_a_runtime_error() -> None:
    program = compile("object.a == 1", policy_environment())
    with pytest.raises(CelRuntimeError) as caught:
        program.evaluate({})
    assert caught.value.message == "no such attribute: object"
