"""Hostile CEL ends in cel-go's value or error within bounds, never a Python exception (issue 18).

The cases are in ``tests/fixtures/cel/hostile/cases.yaml`` with where each expectation comes
from; every one must finish within two seconds of CPU and 64 MiB of allocations.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import tracemalloc
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.api.model import device as model_device
from dralint.cel import CelCompileError, CelRuntimeError, compile, compile_selector, device_value, policy_environment
from tests.conftest import FIXTURES, ROOT

HOSTILE = FIXTURES / "cel" / "hostile"
_YAML = YAML(typ="safe", pure=True)
CASES: list[dict[str, Any]] = _YAML.load((HOSTILE / "cases.yaml").read_text(encoding="utf-8"))
SLICE: dict[str, Any] = _YAML.load((HOSTILE / "device.yaml").read_text(encoding="utf-8"))
DEVICE = device_value(SLICE["spec"]["driver"], model_device(SLICE["spec"]["devices"][0]))
MAX_CPU_SECONDS = 2.0
MAX_ALLOCATED = 64 * 2**20


def expand(text: str) -> str:
    """``<D×N>`` is the character D written N times."""
    return re.sub(r"<(.)×(\d+)>", lambda m: m.group(1) * int(m.group(2)), text)


def outcome(env: str, expression: str) -> Any:
    try:
        if env == "selector":
            return compile_selector(expression).matches(DEVICE)
        return compile(expression, policy_environment()).evaluate({"object": SLICE})
    except CelCompileError as error:
        return "compile-error: " + error.message.split("\n")[0]
    except CelRuntimeError as error:
        return "runtime-error: " + error.message


@pytest.mark.parametrize("case", CASES, ids=[c["expression"][:50] for c in CASES])
def test_hostile_expression_ends_in_cel_outcome_within_bounds(case: dict[str, Any]) -> None:
    expression = expand(case["expression"])
    expected = case["expect"]
    tracemalloc.start()
    start = time.process_time()
    try:
        got = outcome(case["env"], expression)
        elapsed = time.process_time() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got == (expand(expected) if isinstance(expected, str) else expected)
    assert elapsed < MAX_CPU_SECONDS
    assert peak < MAX_ALLOCATED


def test_hostile_cases_cover_every_item() -> None:
    # The file must keep a case of each kind the issue lists (the digits limit is 4,300).
    texts = [c["expression"] for c in CASES]
    for needle in ("<9×5000> > 0", "int('<9", "uint('<9", "duration('<9", "semver(", "asApproximateFloat",
                   "getHours('+99:99')", "getHours('+24:00')", "'%.1000000000f'", "lists.range(100000000)"):  # fmt: skip
        assert any(needle in text for text in texts), needle
    assert all(c["env"] in ("selector", "policy") for c in CASES)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "dralint", "check", "--no-config", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False, cwd=ROOT)


def test_rule_file_with_a_huge_integer_is_a_configuration_error() -> None:
    rules = HOSTILE / "rules-huge-int.yaml"
    result = _cli("--rules", str(rules), str(HOSTILE / "infinite-capacity.yaml"))
    assert result.returncode == 2
    assert result.stderr == f"dralint: error: {rules}:10:46: rule ACME900: policy.expression: invalid int literal\n"


def test_slice_with_an_infinite_capacity_is_accepted_and_evaluated() -> None:
    result = _cli(str(HOSTILE / "infinite-capacity.yaml"))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "1 file, 3 objects: 0 errors, 0 warnings, 0 info\n"
