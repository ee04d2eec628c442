"""The runtime on its own (dralint/cel/runtime): values and runtime errors over a fixture object."""

from __future__ import annotations

from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.cel import CelRuntimeError, compile, policy_environment
from testing.cel import FIXTURES

_LOADED = YAML(typ="safe").load((FIXTURES / "runtime" / "cases.yaml").read_text(encoding="utf-8"))
OBJECT: dict[str, Any] = _LOADED["object"]
CASES: list[dict[str, Any]] = _LOADED["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["expression"] for c in CASES])
def test_evaluate_gives_the_value_or_the_runtime_error(case: dict[str, Any]) -> None:
    program = compile(case["expression"], policy_environment())
    if "runtime-error" in case:
        with pytest.raises(CelRuntimeError) as raised:
            program.evaluate({"object": OBJECT})
        assert raised.value.message == case["runtime-error"]
    else:
        assert program.evaluate({"object": OBJECT}) == case["value"]
