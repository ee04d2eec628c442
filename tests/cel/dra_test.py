"""The DRA layer: environments per release and gates, device values, memoisation, batches."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.api.model import device as model_device
from dralint.api.versions import make_target
from dralint.cel import CelCompileError, CelRuntimeError, compile_selector, device_value, selector_environment
from dralint.cel.batch import match_all
from dralint.cel.device import DeviceValue
from dralint.cel.dra import Selector
from tests.conftest import SHARED, require_shared

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "cel"
ENVIRONMENTS = YAML(typ="safe", pure=True).load((FIXTURES / "environments.yaml").read_text(encoding="utf-8"))


def _slice_devices() -> dict[str, DeviceValue]:
    data = YAML(typ="safe", pure=True).load((FIXTURES / "broken_slice.yaml").read_text(encoding="utf-8"))
    driver = data["spec"]["driver"]
    return {raw["name"]: device_value(driver, model_device(raw)) for raw in data["spec"]["devices"]}


def _environment_cases() -> list[tuple[str, dict[str, bool], str, str, str]]:
    """(release, gates, environment, probe, expected) for every cell of the per-release table."""
    probes: dict[str, str] = ENVIRONMENTS["probes"]
    cases = []
    for entry in ENVIRONMENTS["releases"]:
        gates = entry.get("gates") or {}
        new: dict[str, str] = entry["new"]
        if not gates:
            assert set(new) == set(probes), f"{entry['release']} lists every probe"
        for probe, expected in new.items():
            cases.append((entry["release"], gates, "new", probe, expected))
        for probe in probes if not gates else ():
            stored = (entry.get("stored") or {}).get(probe, new[probe])
            cases.append((entry["release"], gates, "stored", probe, stored))
    return cases


ENVIRONMENT_CASES = _environment_cases()


@pytest.mark.parametrize(
    ("release", "gates", "kind", "probe", "expected"),
    ENVIRONMENT_CASES,
    ids=[f"{r}{''.join(f'+{g}' for g in gates)}:{kind}:{probe}" for r, gates, kind, probe, _ in ENVIRONMENT_CASES],
)
def test_selector_environment_accepts_what_the_release_accepts(
    release: str, gates: dict[str, bool], kind: str, probe: str, expected: str
) -> None:
    env = selector_environment(target=make_target(release, gates), stored=kind == "stored")
    try:
        compile_selector(ENVIRONMENTS["probes"][probe], env)
        outcome = "ok"
    except CelCompileError as error:
        outcome = error.message.split("\n")[0]
    assert outcome == expected


def test_selector_environment_without_a_target_is_the_newest_stored_one() -> None:
    newest = selector_environment(target=make_target("1.37"), stored=True)
    for expression in ENVIRONMENTS["probes"].values():
        outcomes = []
        for env in (selector_environment(), newest):
            try:
                compile_selector(expression, env)
                outcomes.append("ok")
            except CelCompileError as error:
                outcomes.append(error.message)
        assert outcomes[0] == outcomes[1], expression


def test_device_value_defers_attribute_errors_to_every_selector() -> None:
    devices = _slice_devices()
    selector = compile_selector("true")
    with pytest.raises(CelRuntimeError) as missing:
        selector.matches(devices["no-value"])
    assert missing.value.message == "attribute broken: unsupported attribute value"
    with pytest.raises(CelRuntimeError) as version:
        compile_selector('device.driver == "other"').matches(devices["bad-version"])
    assert (
        version.value.message
        == 'attribute driverVersion: parse semantic version: Invalid character(s) found in major number "v1"'
    )
    assert selector.matches(devices["fine"]) is True


def test_device_value_maps_domains_and_unknown_domains_like_upstream() -> None:
    fine = _slice_devices()["fine"]
    cases = {
        'device.attributes["gpu.example.com"].model == "A100"': True,
        'device.attributes["dra.example.com"].zone == "a"': True,
        '"gpu.example.com" in device.attributes && !("x.example.com" in device.attributes)': True,
        'has(device.attributes["x.example.com"].y) || size(device.attributes["x.example.com"]) == 0': True,
        "has(device.attributes.x)": True,
        'device.attributes["gpu.example.com"].ports == [1, 2]': True,
        'device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("64Gi"))': True,
        "device.allowMultipleAllocations": False,
    }
    assert {expression: compile_selector(expression).matches(fine) for expression in cases} == cases
    with pytest.raises(CelRuntimeError) as caught:
        compile_selector('device.attributes["x.example.com"].y == 1').matches(fine)
    assert caught.value.message == (
        "no such key: y. consider using CEL optional chaining (.? followed by orValue()) or guarding the check "
        "with has() for optional fields"
    )


def _conformance_fleet() -> tuple[list[DeviceValue], list[Selector]]:
    root = require_shared(SHARED / "conformance" / "cel")
    fleet = json.loads((root / "fleet.json").read_text(encoding="utf-8"))
    devices = [
        device_value(s["spec"]["driver"], model_device(raw))
        for s in fleet["skeleton"]["resourceSlices"]
        for raw in s["spec"]["devices"]
    ]
    selectors = []
    seen = set()
    with open(root / "cases.jsonl", encoding="utf-8") as handle:
        for line in handle:
            expression = json.loads(line)["expression"]
            if expression in seen:
                continue
            seen.add(expression)
            try:
                selector = compile_selector(expression)
            except CelCompileError:
                continue
            # The loops of the cost family are slow and covered by the conformance test.
            if "lists.range" not in expression:
                selectors.append(selector)
    return devices, selectors


def _plain(selector: Selector, device: DeviceValue) -> object:
    try:
        return selector.evaluate(device)
    except CelRuntimeError as error:
        return error.message


def _memoised(selector: Selector, device: DeviceValue) -> object:
    try:
        return selector.matches(device)
    except CelRuntimeError as error:
        return error.message


def test_selector_matches_memoised_agrees_with_plain_evaluation() -> None:
    devices, selectors = _conformance_fleet()
    for _ in range(2):  # the second round is served from the memo
        for selector in selectors:
            assert [_memoised(selector, d) for d in devices] == [_plain(selector, d) for d in devices], (
                selector.expression
            )


def test_match_all_agrees_with_plain_evaluation() -> None:
    devices, selectors = _conformance_fleet()
    results = match_all(selectors, devices)
    for selector, result in zip(selectors, results, strict=True):
        plain = [_plain(selector, d) for d in devices]
        assert result.devices() == [i for i, outcome in enumerate(plain) if outcome is True], selector.expression
        errors = {i: m for i, m in enumerate(plain) if isinstance(m, str)}
        expanded = {i: m for c, m in result.errors.items() for i in result.classes.members[c]}
        assert expanded == errors, selector.expression


def test_selector_paths_pin_driver_and_projection() -> None:
    selector = compile_selector(
        'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "A100"'
    )
    assert selector.paths.driver == "gpu.example.com"
    assert selector.paths.projectable
    assert selector.paths.reads == (("driver",), ("entry", "attributes", "gpu.example.com", "model"))
    assert not compile_selector('device.attributes.all(d, d != "")').paths.projectable


def test_device_value_is_shared_by_devices_made_of_the_same_maps() -> None:
    template = model_device({"name": "gpu-0", "attributes": {"model": {"string": "A100"}}, "capacity": {"mem": "1Gi"}})
    twin = dataclasses.replace(template, name="gpu-1")  # an expanded Inventory's devices share their maps
    alike = model_device({"name": "gpu-2", "attributes": {"model": {"string": "A100"}}, "capacity": {"mem": "1Gi"}})
    shared = device_value("gpu.example.com", template)
    assert device_value("gpu.example.com", twin) is shared
    assert device_value("other.example.com", twin) is not shared  # the driver is part of the value
    own = device_value("gpu.example.com", alike)  # equal maps, not the same ones: a value of its own
    assert own is not shared and (own.value, own.flat, own.error) == (shared.value, shared.flat, shared.error)


ERROR_POSITIONS = YAML(typ="safe", pure=True).load((FIXTURES / "error_positions.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", ERROR_POSITIONS, ids=[c["expression"][:50] for c in ERROR_POSITIONS])
def test_selector_error_offset_is_the_node_raising_it(case: dict[str, Any]) -> None:
    selector = compile_selector(case["expression"])
    offset = selector.error_offset(_slice_devices()["fine"])
    assert (case["expression"][offset:] if offset is not None else None) == case["at"]


def test_selector_error_offset_is_none_for_the_devices_own_error() -> None:
    selector = compile_selector('device.attributes["gpu.example.com"].modle == "A100"')
    assert selector.error_offset(_slice_devices()["bad-version"]) is None
