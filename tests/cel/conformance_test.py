"""The shared CEL conformance cases: every case gives upstream's true/false/compile/runtime outcome,
and every error upstream's text, word for word.

Each case is evaluated the way the allocator would meet it (``../shared/conformance/cel/README.md``):
the pinning DeviceClass selector first (it must be true for the case's device), then the case's
expression on that device, in the scheduler's StoredExpressions environment.

One test per case, its id ``<part>/<family>/<case id>``: the part of ``dralint/cel`` to look at
first when it fails (``parser``, ``checker``, ``estimator``, ``runtime``, ``lib`` or ``dra``, the
device value), then the case's family. Without the shared cases the test is one visible skip
(a failure under ``DRALINT_REQUIRE_CORPUS=1``).
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dralint.api.model import device as model_device
from dralint.cel import CelCompileError, CelRuntimeError, compile_selector, device_value
from dralint.cel.device import DeviceValue
from tests.conftest import SHARED, require_shared

CASES = SHARED / "conformance" / "cel"

# Where a family's cases are decided: the first place to look when one of them fails.
PART_OF_FAMILY = {
    "macros": "parser",
    "escapes": "parser",
    "typecheck": "checker",
    "nonbool": "checker",
    "cost": "estimator",
    "arith": "runtime",
    "bind": "runtime",
    "bytes": "runtime",
    "compare": "runtime",
    "constfold": "runtime",
    "conversions": "runtime",
    "equality": "runtime",
    "has": "runtime",
    "in_map": "runtime",
    "logic": "runtime",
    "long": "runtime",
    "ternary": "runtime",
    "formatlib": "lib",
    "lists": "lib",
    "optional": "lib",
    "quantity": "lib",
    "regex": "lib",
    "semver": "lib",
    "sets": "lib",
    "strformat": "lib",
    "strings": "lib",
    "time": "lib",
    "urlip": "lib",
    "attr": "dra",
    "capacity": "dra",
    "device_fields": "dra",
    "listattr": "dra",
    "missing": "dra",
    "version_attr": "dra",
}

# Expressions whose upstream message goes on with the errors ANTLR's recovery finds after the
# first syntax error; dralint's parser stops at the first (see dralint/cel/parser/parse.py).
SYNTAX_RECOVERY = frozenset({"in == 1"})
MISSING = {"id": "cases-missing", "family": "", "expression": "", "device": "", "expected": "", "message": ""}


@cache
def _fleet() -> tuple[dict[str, DeviceValue], dict[str, str]]:
    fleet = json.loads((CASES / "fleet.json").read_text(encoding="utf-8"))
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


def _outcome(case: dict[str, Any]) -> tuple[str, str]:
    devices, pins = _fleet()
    device = devices[case["device"]]
    assert compile_selector(pins[case["device"]]).matches(device) is True
    try:
        selector = compile_selector(case["expression"])
    except CelCompileError as error:
        return "compile-error", error.message
    try:
        return ("true" if selector.matches(device) else "false"), ""
    except CelRuntimeError as error:
        return "runtime-error", error.message


def _cases(root: Path) -> list[dict[str, Any]]:
    if not (root / "cases.jsonl").exists():
        return []
    with open(root / "cases.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


ALL = _cases(CASES)


def _id(case: dict[str, Any]) -> str:
    return (
        f"{PART_OF_FAMILY.get(case['family'], 'unmapped')}/{case['family']}/{case['id']}"
        if case["family"]
        else case["id"]
    )


@pytest.mark.parametrize("case", ALL or [MISSING], ids=_id)
def test_conformance_case_matches_upstream(case: dict[str, Any]) -> None:
    if case is MISSING:
        require_shared(CASES / "cases.jsonl")
    got, message = _outcome(case)
    assert (got, message if got in ("compile-error", "runtime-error") else "") == (
        case["expected"],
        _upstream_message(case, message),
    )


def _upstream_message(case: dict[str, Any], ours: str) -> str:
    """Upstream's error text without the scheduler's prefix ("" for true/false outcomes)."""
    if case["expected"] not in ("compile-error", "runtime-error"):
        return ""
    prefix = "CEL compile error: " if case["expected"] == "compile-error" else "CEL runtime error: "
    upstream: str = case["message"].partition(prefix)[2]
    if case["expression"] in SYNTAX_RECOVERY and upstream.startswith(ours + "\n"):
        return ours  # the first of ANTLR's recovered errors is ours; the rest are not reproduced
    return upstream


def test_conformance_cases_are_all_there_and_mapped_to_a_part() -> None:
    require_shared(CASES / "cases.jsonl")
    assert len(ALL) == 2922
    assert len({case["id"] for case in ALL}) == len(ALL)
    assert sorted({case["family"] for case in ALL} - set(PART_OF_FAMILY)) == []
    assert sum(1 for case in ALL if case["expression"] in SYNTAX_RECOVERY) == 6
    assert Counter(case["expected"] for case in ALL)["compile-error"] > 0
