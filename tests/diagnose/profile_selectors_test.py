"""Selectors read against a driver profile: kinds of device, unknown names, wrong types, unpublished values.

Each case of ``tests/fixtures/profile_cases/selectors.yaml`` is an expression and what the profile
``accel.example.org`` says of it; the texts are the findings' words (DRA900-DRA904).
"""

from __future__ import annotations

from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.cel.dra import selector_environment
from dralint.diagnose.device_kinds import admitted, why_not
from dralint.diagnose.profile_selectors import Readings, describe, read
from dralint.profiles.load import load
from tests.conftest import FIXTURES

PROFILES = load([str(FIXTURES / "profiles")], shipped=False)
CASES: list[dict[str, Any]] = YAML(typ="safe").load((FIXTURES / "profile_cases" / "selectors.yaml").read_text())


def _reading(expression: str) -> dict[str, Any]:
    reading = read(expression, selector_environment(), PROFILES)
    case: dict[str, Any] = {"expression": expression}
    if reading.expr is not None and reading.drivers:
        profile = PROFILES.get(reading.drivers[0])
        assert profile is not None
        case["kinds"] = list(admitted([reading.expr], profile))
        if not case["kinds"]:
            case["why"] = why_not(reading.expr, profile)
    case["unknown"] = [
        f"{u.table} {u.domain}/{u.name} at {u.offset}" + (f", did you mean {u.suggestion}" if u.suggestion else "")
        for u in reading.unknown
    ]
    case["mistyped"] = [f"at {w.offset}: " + " / ".join(describe(w)) for w in reading.mistyped]
    case["unpublished"] = [
        f"{v.value!r} at {v.offset}" + (f", did you mean {v.suggestion}" if v.suggestion else "")
        for v in reading.unpublished
    ]
    return {key: value for key, value in case.items() if value != []}


@pytest.mark.parametrize("case", CASES, ids=[c["expression"][:60] for c in CASES])
def test_profile_reading_of_a_selector(case: dict[str, Any]) -> None:
    assert _reading(case["expression"]) == case


def test_profile_readings_skip_drivers_the_inventory_has_devices_of() -> None:
    readings = Readings(selector_environment(), PROFILES, frozenset({"accel.example.org"}))
    reading = readings.of('device.attributes["accel.example.org"].modle == "x"')
    assert (reading.drivers, reading.unknown) == ((), ())


def test_profile_readings_kinds_combine_selectors() -> None:
    readings = Readings(selector_environment(), PROFILES)
    part = 'device.attributes["accel.example.org"].type == "part"'
    small = 'device.attributes["accel.example.org"].profile == "1g"'
    full = 'device.attributes["accel.example.org"].type == "full"'
    assert readings.kinds("accel.example.org", [part, small]) == ("part",)
    assert readings.kinds("accel.example.org", [full, small]) == ()
    assert readings.kinds("unknown.example.org", [part]) is None
