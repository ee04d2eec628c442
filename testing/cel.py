"""Shared helpers of the CEL part tests: cases read from ``tests/fixtures/cel/<part>/*.yaml``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from dralint.cel import CelCompileError, CelRuntimeError, compile, policy_environment

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "cel"


def cases(name: str) -> list[dict[str, Any]]:
    """The cases of one fixture file (a YAML list of mappings)."""
    loaded = YAML(typ="safe").load((FIXTURES / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, list)
    return loaded


def policy_outcome(expression: str, obj: Any) -> Any:
    """A policy expression's value over ``object``, or "compile-error: <first line>" or "runtime-error: <text>"."""
    try:
        program = compile(expression, policy_environment())
    except CelCompileError as error:
        return "compile-error: " + error.message.split("\n")[0]
    try:
        return program.evaluate({"object": obj})
    except CelRuntimeError as error:
        return "runtime-error: " + error.message
