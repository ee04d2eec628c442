"""What a target serves and drops: API version availability and the gated-field table."""

from __future__ import annotations

import pytest

from dralint.api.normalise import normalise
from dralint.api.versions import make_target
from dralint.apimachinery.fieldpath import render
from dralint.read.load import load
from dralint.validate.skew import (
    Availability,
    availability,
    default_on_from,
    dra_object_drops,
    other_object_drops,
    preferred_version,
    strip,
)
from tests.conftest import FIXTURES


@pytest.mark.parametrize(
    ("kind", "version", "release", "gates", "expected"),
    [
        ("ResourceClaim", "v1", "1.37", {}, Availability(served=True)),
        ("ResourceClaim", "v1", "1.33", {}, Availability(served=False)),
        ("ResourceClaim", "v1alpha3", "1.34", {}, Availability(served=False)),
        (
            "ResourceClaim",
            "v1alpha3",
            "1.32",
            {},
            Availability(
                True, ("--runtime-config=resource.k8s.io/v1alpha3=true", "feature gate DynamicResourceAllocation=true")
            ),
        ),
        (
            "ResourceClaim",
            "v1",
            "1.34",
            {"DynamicResourceAllocation": False},
            Availability(True, ("feature gate DynamicResourceAllocation=true",)),
        ),
        (
            "ResourceSlice",
            "v1beta1",
            "1.35",
            {},
            Availability(True, ("--runtime-config=resource.k8s.io/v1beta1=true",), "1.35", "1.38", None),
        ),
        (
            "DeviceTaintRule",
            "v1alpha3",
            "1.34",
            {},
            Availability(True, ("--runtime-config=resource.k8s.io/v1alpha3=true", "feature gate DRADeviceTaints=true")),
        ),
        (
            "DeviceTaintRule",
            "v1alpha3",
            "1.36",
            {"DRADeviceTaintRules": True},
            Availability(True, ("--runtime-config=resource.k8s.io/v1alpha3=true",), "1.36", "1.39", None),
        ),
        ("DeviceTaintRule", "v1", "1.37", {}, Availability(served=True)),
        (
            "ResourcePoolStatusRequest",
            "v1alpha3",
            "1.37",
            {},
            Availability(
                True, ("--runtime-config=resource.k8s.io/v1alpha3=true", "feature gate DRAResourcePoolStatus=true")
            ),
        ),
        (
            "DeviceClass",
            "v1alpha3",
            "1.33",
            {"DynamicResourceAllocation": True},
            Availability(True, ("--runtime-config=resource.k8s.io/v1alpha3=true",)),
        ),
    ],
)
def test_availability(kind: str, version: str, release: str, gates: dict[str, bool], expected: Availability) -> None:
    assert availability(make_target(release, gates), kind, version) == expected


@pytest.mark.parametrize(
    ("kind", "release", "expected"),
    [
        ("ResourceClaim", "1.33", "v1beta2"),
        ("ResourceClaim", "1.37", "v1"),
        ("DeviceTaintRule", "1.36", "v1beta2"),
        ("DeviceTaintRule", "1.35", "v1alpha3"),
        ("ResourcePoolStatusRequest", "1.35", None),
    ],
)
def test_preferred_version(kind: str, release: str, expected: str | None) -> None:
    assert preferred_version(make_target(release), kind) == expected


def test_default_on_from() -> None:
    assert default_on_from("DRAConsumableCapacity") == "1.36"
    assert default_on_from("DynamicResourceAllocation") == "1.34"
    assert default_on_from("DRAListTypeAttributes") is None


def _drops(release: str, gates: dict[str, bool] | None = None) -> list[tuple[str, str, str, tuple[str, ...]]]:
    target = make_target(release, gates)
    out = []
    for obj in load([str(FIXTURES / "skew" / "drops.yaml")]).objects:
        normalised = normalise(obj)
        found = (
            dra_object_drops(target, obj.kind, normalised.data)
            if normalised is not None
            else other_object_drops(target, obj.group, obj.kind, obj.raw)
        )
        out.extend((obj.kind, render(d.path), d.outcome, d.gates) for d in found)
    return out


def test_drops_on_1_35_with_default_gates() -> None:
    assert _drops("1.35") == [
        ("ResourceClaim", "spec.devices.constraints[0].distinctAttribute", "changed", ("DRAConsumableCapacity",)),
        ("ResourceClaim", "spec.devices.requests[0].firstAvailable[0].capacity", "changed", ("DRAConsumableCapacity",)),
        ("ResourceClaim", "status.allocation.devices.results[0].shareID", "ignored", ("DRAConsumableCapacity",)),
        ("ResourceSlice", "spec.perDeviceNodeSelection", "changed", ("DRAPartitionableDevices",)),
        ("ResourceSlice", "spec.devices[0].bindsToNode", "ignored", ("DRADeviceBindingConditions",)),
        ("Pod", "status.extendedResourceClaimStatus", "ignored", ("DRAExtendedResource",)),
    ]


def test_drops_on_1_37_with_default_gates() -> None:
    assert _drops("1.37") == [
        ("ResourceSlice", "spec.devices[0].attributes[both].strings", "changed", ("DRAListTypeAttributes",)),
        ("PodGroup", "spec.resourceClaims", "changed", ("DRAWorkloadResourceClaims",)),
        ("Workload", "spec.podGroupTemplates[0].resourceClaims", "changed", ("DRAWorkloadResourceClaims",)),
    ]


def test_drops_need_both_binding_gates() -> None:
    drops = _drops("1.36", {"DRAResourceClaimDeviceStatus": False})
    assert ("ResourceSlice", "spec.devices[0].bindsToNode", "ignored", ("DRAResourceClaimDeviceStatus",)) in drops


def test_drops_skip_gates_the_release_does_not_have() -> None:
    # Capacity, binding conditions and list attributes have no gate in 1.33: there they are unknown fields.
    # (Whether 1.33 serves the objects' versions at all is the check's business, not skew's.)
    assert _drops("1.33", {"DynamicResourceAllocation": True}) == [
        ("ResourceClaim", "spec.devices.requests[0].firstAvailable", "changed", ("DRAPrioritizedList",)),
        ("ResourceSlice", "spec.perDeviceNodeSelection", "changed", ("DRAPartitionableDevices",)),
    ]


def test_strip_removes_what_the_server_clears_zero_values_included() -> None:
    target = make_target("1.35")
    objects = {obj.kind: normalise(obj) for obj in load([str(FIXTURES / "skew" / "drops.yaml")]).objects}
    claim, slice_ = objects["ResourceClaim"], objects["ResourceSlice"]
    assert claim is not None and slice_ is not None
    removed = [render(p) for p in strip(target, "ResourceClaim", claim.data)]
    assert removed == [
        "spec.devices.requests[0].exactly.tolerations",  # an empty list is cleared too
        "spec.devices.constraints[0].distinctAttribute",
        "spec.devices.requests[0].firstAvailable[0].capacity",
        "status.allocation.devices.results[0].shareID",
    ]
    assert claim.data["spec"]["devices"]["constraints"] == [{"matchAttribute": "a.example.com/x"}]
    removed = [render(p) for p in strip(target, "ResourceSlice", slice_.data)]
    assert removed == [
        "spec.perDeviceNodeSelection",
        "spec.devices[0].bindsToNode",
        "spec.devices[0].allowMultipleAllocations",
        "spec.devices[0].attributes[both].strings",
        "spec.devices[0].attributes[empty].strings",
    ]
