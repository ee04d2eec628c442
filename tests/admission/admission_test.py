"""Admission: the dry-run sees what the API server would store (gated fields dropped, rejected
objects left out and referred to, one definition per object, generated claims matched to their pods)."""

from __future__ import annotations

import pytest

from dralint.api.versions import make_target
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from testing.run import ROOT, check

FOLDER = "tests/fixtures/admission"


def _lines(name: str, release: str = "1.37") -> list[str]:
    outcome = check([f"{FOLDER}/{name}"], environment={"DRALINT_KUBERNETES_VERSION": release})
    return [f"{f.location.line} {f.rule} {f.message}" for f in outcome.report.findings]


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_dropped_capacity_requests_take_a_whole_device_instead_of_failing_the_allocator() -> None:
    lines = _lines("gated-capacity.yaml", release="1.34")
    assert [line.split(" ", 2)[1] for line in lines] == ["DRA210"]
    ctx = CheckContext(load([f"{FOLDER}/gated-capacity.yaml"]), make_target("1.34"))
    placements = ctx.dry_run().simulation.placements
    assert [(p.pod.name, p.outcome, p.node) for p in placements] == [("p", "placed", "node-0")]


def test_rejected_slice_skips_its_pool_and_findings_refer_to_the_rejection() -> None:
    assert _lines("rejected-slice.yaml") == [
        '17 DRA125 spec.devices[0].attributes[model]: Invalid value: "": exactly one value must be specified',
        '19 DRA100 unknown field "spec.devices[1].basic"',
        # the inventory defects are the slices' own findings, reported on the slices as written
        "37 DRA707 attribute gpu.example.com/model of driver gpu.example.com is empty on 1 device and a string on "
        "1 device",
        "78 DRA501 1 of 2 pods of Deployment default/d get no devices: earlier pods hold them (demand for class "
        "gpu.example.com: Deployment default/d 2 pods × 1 = 2; matching devices = 1; no order fits them: pods that "
        "can use no other devices need 2 of the 1 device the request can use); pool gpu.example.com/node-a "
        "is skipped: ResourceSlice node-a-gpu is rejected by the API server (see DRA125 at "
        f"{FOLDER}/rejected-slice.yaml:17)",
    ]


def test_generated_claims_are_their_pods_own_claims() -> None:
    assert _lines("generated-claims.yaml") == []
    ctx = CheckContext(load([f"{FOLDER}/generated-claims.yaml"]), make_target("1.37"))
    placements = ctx.dry_run().simulation.placements
    assert [(p.pod.name, p.outcome, [u.key for u, _ in p.allocations]) for p in placements] == [
        ("llm-0", "placed", [("ml", "llm-0-gpu-x7k2p")]),  # annotation and owner reference
        ("llm-1", "placed", [("ml", "llm-1-gpu-9qk4d")]),  # status.reservedFor
    ]


def test_duplicate_slices_count_once_and_the_later_definition_is_reported() -> None:
    lines = _lines("duplicate-slices.yaml")
    assert [line.split(" ", 2)[:2] for line in lines] == [["21", "DRA308"], ["73", "DRA501"]]
    assert "matching devices = 2;" in lines[1]


def test_pod_naming_a_rejected_template_is_explained_by_reference() -> None:
    ctx = CheckContext(load([f"{FOLDER}/rejected-template.yaml"]), make_target("1.37"))
    placements = ctx.dry_run().simulation.placements
    assert [(p.pod.name, p.outcome, p.reason) for p in placements] == [
        (
            "trainer",
            "missing-claim",
            "ResourceClaimTemplate default/two-gpus is rejected by the API server "
            f"(see DRA126 at {FOLDER}/rejected-template.yaml:36)",
        )
    ]
    assert _lines("rejected-template.yaml") == [
        f"36 DRA126 {line}"
        for line in [
            'spec.spec.devices.requests[0].exactly.allocationMode: Unsupported value: "Some": supported values: '
            '"All", "ExactCount"'
        ]
    ]


def test_checked_definition_is_applied_over_the_inventory() -> None:
    ctx = CheckContext(
        load([f"{FOLDER}/class-override.yaml"], [f"{FOLDER}/rejected-template.yaml"]), make_target("1.37")
    )
    admission = ctx.admission
    classes = [obj for obj in admission.objects if obj.kind == "DeviceClass"]
    assert [(obj.file, obj.raw["spec"]["selectors"][0]["cel"]["expression"]) for obj in classes] == [
        (
            f"{FOLDER}/class-override.yaml",
            'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "L4"',
        )
    ]


def test_pod_claims_dropped_with_the_dra_gate_off_leave_the_pod_without_devices() -> None:
    # 1.32: resource.k8s.io/v1 is not served and the pod's claim fields are dropped (DRA210): the
    # pod is created without claims, so nothing is missing and it has no devices to place.
    assert [line.split(" ", 2)[1] for line in _lines("gated-pod-claims.yaml", release="1.32")] == [
        "DRA200",
        "DRA200",
        "DRA210",
    ]
    old = CheckContext(load([f"{FOLDER}/gated-pod-claims.yaml"]), make_target("1.32"))
    (template,) = old.admission.templates
    assert (template.spec.resource_claims, [c.claims for c in template.spec.containers]) == ((), [()])
    assert old.dry_run().simulation.placements == []  # a pod without claims is placed, not listed
    # 1.34 serves v1 with the gate on: the same pod gets its device
    assert _lines("gated-pod-claims.yaml", release="1.34") == []
    new = CheckContext(load([f"{FOLDER}/gated-pod-claims.yaml"]), make_target("1.34"))
    placements = new.dry_run().simulation.placements
    assert [(p.pod.name, p.outcome, p.node, len(p.allocations)) for p in placements] == [("p", "placed", "node-0", 1)]
