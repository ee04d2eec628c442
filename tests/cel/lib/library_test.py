"""The CEL libraries on their own (dralint/cel/lib): one fixture file per library module, each case
an expression in Kubernetes' policy environment with its value, runtime error or compile error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dralint.cel import CelCompileError, CelRuntimeError, compile, lib, policy_environment
from testing.cel import FIXTURES, cases

MODULES = sorted(p.stem for p in (FIXTURES / "lib").glob("*.yaml"))
CASES = [(module, case) for module in MODULES for case in cases(f"lib/{module}.yaml")]


@pytest.mark.parametrize(("module", "case"), CASES, ids=[f"{m}/{c['expression']}" for m, c in CASES])
def test_library_function_gives_its_value_or_error(module: str, case: dict[str, Any]) -> None:
    env = policy_environment()
    if "compile-error" in case:
        with pytest.raises(CelCompileError) as compile_error:
            compile(case["expression"], env)
        assert compile_error.value.message.splitlines()[0] == case["compile-error"]
        return
    program = compile(case["expression"], env)
    if "runtime-error" in case:
        with pytest.raises(CelRuntimeError) as runtime_error:
            program.evaluate({"object": {}})
        assert runtime_error.value.message == case["runtime-error"]
    else:
        assert program.evaluate({"object": {}}) == case["value"]


def test_every_library_fixture_names_a_library_module() -> None:
    modules = {p.stem for p in Path(lib.__file__).parent.glob("*.py")}
    assert sorted(set(MODULES) - modules) == []
