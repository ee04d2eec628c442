"""Gated fields are dropped exactly when the target's gates are off (spec/api.md §4)."""

from __future__ import annotations

import copy

from dralint.api.strategy import disabled_fields, drop_disabled_fields, drop_disabled_pod_fields
from dralint.api.versions import make_target
from dralint.load import load
from dralint.paths import render
from tests.conftest import FIXTURES

FILE = FIXTURES / "strategy" / "gated-fields.yaml"


def _dropped(kind: str, release: str, **gates: bool) -> list[str]:
    objects = {o.kind: o for o in load([str(FILE)]).objects}
    data = copy.deepcopy(dict(objects[kind].raw))
    return [
        f"{render(d.path)} ({' and '.join(d.gates)})"
        for d in drop_disabled_fields(kind, data, make_target(release, gates))
    ]


def test_drop_keeps_every_field_when_gates_are_on() -> None:
    on = {"AllAlpha": True, "AllBeta": True}
    assert _dropped("ResourceClaim", "1.37", **on) == []
    assert _dropped("ResourceSlice", "1.37", **on) == []


def test_drop_removes_default_off_fields_of_1_37() -> None:
    assert _dropped("ResourceSlice", "1.37") == [
        "spec.devices[0].attributes[zones].strings (DRAListTypeAttributes)",
    ]
    assert _dropped("ResourceClaim", "1.37") == []


def test_drop_removes_fields_whose_gate_does_not_exist_yet() -> None:
    assert _dropped("ResourceClaim", "1.33") == [
        "spec.devices.requests[0].exactly.tolerations (DRADeviceTaints)",
        "spec.devices.requests[0].exactly.adminAccess (DRAAdminAccess)",
        "spec.devices.requests[0].exactly.capacity (DRAConsumableCapacity)",
        "spec.devices.requests[1].firstAvailable (DRAPrioritizedList)",
        "spec.devices.constraints[0].distinctAttribute (DRAConsumableCapacity)",
    ]


def test_drop_keeps_admin_access_of_1_31_which_had_no_gate() -> None:
    assert "spec.devices.requests[0].exactly.adminAccess (DRAAdminAccess)" not in _dropped("ResourceClaim", "1.31")


def test_drop_binding_conditions_needs_both_gates() -> None:
    dropped = _dropped("ResourceSlice", "1.34", DRADeviceBindingConditions=True, DRAConsumableCapacity=True)
    assert (
        "spec.devices[0].bindingConditions (DRADeviceBindingConditions and DRAResourceClaimDeviceStatus)" not in dropped
    )
    dropped = _dropped("ResourceSlice", "1.34", DRADeviceBindingConditions=True, DRAResourceClaimDeviceStatus=False)
    assert "spec.devices[0].bindingConditions (DRADeviceBindingConditions and DRAResourceClaimDeviceStatus)" in dropped


def test_disabled_fields_reports_without_changing_the_object() -> None:
    objects = {o.kind: o for o in load([str(FILE)]).objects}
    data = copy.deepcopy(dict(objects["ResourceSlice"].raw))
    before = copy.deepcopy(data)
    assert [render(d.path) for d in disabled_fields("ResourceSlice", data, make_target())] == [
        "spec.devices[0].attributes[zones].strings"
    ]
    assert data == before


def test_drop_pod_fields_removes_claims_when_dra_is_off() -> None:
    spec = {
        "resourceClaims": [{"name": "gpu"}],
        "containers": [{"name": "c", "resources": {"claims": [{"name": "gpu"}]}}],
    }
    dropped = drop_disabled_pod_fields(spec, make_target("1.33"))
    assert [render(d.path) for d in dropped] == ["resourceClaims", "containers[0].resources.claims"]
    assert spec == {"containers": [{"name": "c", "resources": {}}]}
