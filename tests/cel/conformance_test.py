"""The shared CEL conformance cases: every case gives upstream's true/false/compile/runtime outcome.

Each case is evaluated the way the allocator would meet it (``../shared/conformance/cel/README.md``):
the pinning DeviceClass selector first (it must be true for the case's device), then the case's
expression on that device, in the scheduler's StoredExpressions environment.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from dralint.api.model import device as model_device
from dralint.cel import CelCompileError, CelRuntimeError, compile_selector, device_value
from dralint.cel.device import DeviceValue
from tests.conftest import SHARED, require_shared

CASES = SHARED / "conformance" / "cel"


def _fleet(root: Path) -> tuple[dict[str, DeviceValue], dict[str, str]]:
    fleet = json.loads((root / "fleet.json").read_text(encoding="utf-8"))
    devices: dict[str, DeviceValue] = {}
    for slice_ in fleet["skeleton"]["resourceSlices"]:
        driver = slice_["spec"]["driver"]
        for raw in slice_["spec"]["devices"]:
            devices[raw["name"]] = device_value(driver, model_device(raw))
    classes = {
        c["metadata"]["name"]: c["spec"]["selectors"][0]["cel"]["expression"]
        for c in fleet["skeleton"]["deviceClasses"]
    }
    pins = {name: classes[info["deviceClassName"]] for name, info in fleet["devices"].items()}
    return devices, pins


def _outcome(expression: str, device: DeviceValue, pin: str) -> tuple[str, str]:
    assert compile_selector(pin).matches(device) is True
    try:
        selector = compile_selector(expression)
    except CelCompileError as error:
        return "compile-error", error.message
    try:
        return ("true" if selector.matches(device) else "false"), ""
    except CelRuntimeError as error:
        return "runtime-error", error.message


def _cases(root: Path) -> list[dict[str, Any]]:
    with open(root / "cases.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_conformance_every_case_matches_upstream() -> None:
    root = require_shared(CASES)
    devices, pins = _fleet(root)
    cases = _cases(root)
    assert len(cases) == 2922
    failures = []
    outcomes: Counter[str] = Counter()
    for case in cases:
        got, message = _outcome(case["expression"], devices[case["device"]], pins[case["device"]])
        outcomes[got] += 1
        if got != case["expected"]:
            failures.append((case["id"], case["expected"], got, message))
    assert failures == []
    assert outcomes == Counter(c["expected"] for c in cases)


# Expressions whose upstream message goes on with the errors ANTLR's recovery finds after the
# first syntax error; dralint's parser stops at the first (see dralint/cel/parser/parse.py).
SYNTAX_RECOVERY = frozenset({"in == 1"})


def test_conformance_error_messages_match_upstream() -> None:
    """Every compile and runtime error is upstream's text, word for word (1,461 of 1,467 cases)."""
    root = require_shared(CASES)
    devices, pins = _fleet(root)
    mismatched = []
    first_errors_only = []
    for case in _cases(root):
        if case["expected"] not in ("compile-error", "runtime-error"):
            continue
        kind, message = _outcome(case["expression"], devices[case["device"]], pins[case["device"]])
        prefix = "CEL compile error: " if kind == "compile-error" else "CEL runtime error: "
        upstream = case["message"].partition(prefix)[2]
        if case["expression"] in SYNTAX_RECOVERY:
            assert upstream.startswith(message + "\n"), case["id"]
            first_errors_only.append(case["id"])
        elif message != upstream:
            mismatched.append((case["id"], message, upstream))
    assert mismatched == []
    assert len(first_errors_only) == 6
