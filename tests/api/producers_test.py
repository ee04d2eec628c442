"""The producer table: built-in kinds (KubeVirt VMs, NVIDIA ComputeDomain) and entries from .dralint.yaml
(tests/fixtures/producers/)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from dralint.api.producers import BUILTIN, created, table
from dralint.api.workloads import pod_templates
from dralint.apimachinery.fieldpath import render
from dralint.config import load as load_config
from dralint.config.resolve import Layer, Ref
from dralint.data import folder
from dralint.read.load import load
from testing.run import check, in_root
from tests.conftest import FIXTURES

PRODUCERS = FIXTURES / "producers"
CUSTOM = PRODUCERS / "custom"


def test_builtin_table_has_the_shape_users_write_in_the_configuration() -> None:
    schema = json.loads((folder("schemas") / "config.schema.json").read_text(encoding="utf-8"))
    producers = {**schema, "properties": {"producers": schema["properties"]["producers"]}}
    jsonschema.validate({"producers": BUILTIN}, producers)


def test_kubevirt_vms_make_launcher_pods_with_their_resource_claims() -> None:
    workspace = load([str(PRODUCERS / "kubevirt.yaml")])
    found = [
        (t.owner.kind, t.name, render(t.path), t.replicas, t.labels, t.spec.node_selector, t.spec.resource_claims)
        for obj in workspace.objects
        for t in pod_templates(obj)
    ]
    assert [(kind, name, path, replicas) for kind, name, path, replicas, *_ in found] == [
        ("VirtualMachineInstance", "vmi-gpu", "spec", 1),
        ("VirtualMachine", "vm-gpu", "spec.template.spec", 1),
    ]
    vmi, vm = found
    assert vmi[4:6] == ({"kubevirt.io/domain": "vmi-gpu"}, {"gpu": "passthrough"})
    assert [(c.name, c.resource_claim_template_name) for c in vmi[6]] == [("pgpu", "pgpu-template")]
    assert [(c.name, c.resource_claim_name) for c in vm[6]] == [("vf", "sriov-vf")]


def test_compute_domain_creates_the_channel_template_in_its_namespace() -> None:
    workspace = load([str(PRODUCERS / "compute-domain.yaml")])
    made = created(workspace.objects, table())
    assert [(key, obj.name, render(path)) for key, (obj, path) in made.items()] == [
        (("ResourceClaimTemplate", "ml", "imex-channel"), "imex", "spec.channel.resourceClaimTemplate.name")
    ]


def test_references_to_produced_templates_are_satisfied_and_near_misses_suggest_them() -> None:
    outcome = check(
        [PRODUCERS / "compute-domain.yaml", PRODUCERS / "kubevirt.yaml"], flags=Layer(select=(Ref("DRA3", "--select"),))
    )
    assert [(f.rule, f.location.line, f.message, f.hint) for f in outcome.report.findings] == [
        (
            "DRA306",
            25,
            'DeviceClass "gpu.nvidia.com" is not among the inputs; it must exist in the cluster',
            "install the driver that provides it, or pass the cluster's DeviceClasses with --inventory",
        ),
        (
            "DRA302",
            60,
            'ResourceClaimTemplate "imex-chanel" does not exist in namespace "ml"',
            "did you mean `imex-channel`?",
        ),
        (
            "DRA306",
            21,
            'ResourceClaimTemplate "pgpu-template" is not among the inputs; it must exist in namespace "vms" '
            "before the pod starts",
            "apply the ResourceClaimTemplate with the workload, or make sure something else creates it",
        ),
        (
            "DRA306",
            42,
            'ResourceClaim "sriov-vf" is not among the inputs; it must exist in namespace "vms" before the pod starts',
            "apply the ResourceClaim with the workload, or make sure something else creates it",
        ),
    ]


def test_configured_producers_make_pods_and_claims() -> None:
    config = load_config(str(CUSTOM / ".dralint.yaml"))
    producers = table(config.data["producers"])
    workspace = load([str(CUSTOM / "manifests.yaml")])
    (template,) = [t for obj in workspace.objects for t in pod_templates(obj, producers)]
    assert (template.owner.kind, render(template.path), template.replicas, template.labels) == (
        "TrainingRun",
        "spec.pod.spec",
        3,
        {"run": "run-1"},
    )
    assert [render(template.claim_path(i)) for i in range(2)] == ["spec.devices[0]", "spec.devices[1]"]
    made = created(workspace.objects, producers)
    assert list(made) == [("ResourceClaim", "ml", "reserved")]
    # without the configuration the pod template is found by its shape, but neither the claims
    # (outside its spec) nor the pod count (workers) are known
    (generic,) = [t for obj in workspace.objects for t in pod_templates(obj)]
    assert (render(generic.path), generic.replicas, generic.spec.resource_claims) == ("spec.pod.spec", 1, ())


def test_configured_producers_feed_the_reference_checks() -> None:
    select = (Ref("DRA3", "--select"), Ref("DRA6", "--select"))
    outcome = check([CUSTOM / "manifests.yaml"], config=CUSTOM / ".dralint.yaml", flags=Layer(select=select))
    assert [(f.rule, f.location.line, render(f.path)) for f in outcome.report.findings] == [
        ("DRA600", 26, "spec.devices[1].resourceClaimName"),  # the three workers share the reserved claim
        ("DRA306", 47, "spec.spec.devices.requests[0].exactly.deviceClassName"),
    ]


def test_configured_producer_pods_take_the_claims_written_outside_the_template() -> None:
    """The pods a TrainingRun makes have spec.devices as their resourceClaims, so the containers may name
    them (the README's example): they are placed, not rejected with DRA304."""
    config, manifests = (
        "tests/fixtures/producers/custom/.dralint.yaml",
        "tests/fixtures/producers/custom/manifests.yaml",
    )
    code, output = in_root(
        "check", "--config", config, "-i", "examples/cluster", "-f", "concise", "--select", "DRA3", manifests
    )
    assert (code, output.splitlines()[-1]) == (0, "1 file, 3 objects: 0 errors, 0 warnings, 0 info")
    code, output = in_root("simulate", "--config", config, "-i", "examples/cluster", "-f", "json", manifests)
    assert (code, json.loads(output)["summary"]) == (0, {"pods": 3, "placed": 3, "unplaced": 0, "nodes": 3})


def test_container_claim_that_the_producer_does_not_give_is_dra304(tmp_path: Path) -> None:
    text = (
        (CUSTOM / "manifests.yaml").read_text().replace("          - name: scratch\n", "          - name: scratchh\n")
    )
    (tmp_path / "manifests.yaml").write_text(text)
    outcome = check(
        [tmp_path / "manifests.yaml"], config=CUSTOM / ".dralint.yaml", flags=Layer(select=(Ref("DRA304", "--select"),))
    )
    assert [(f.rule, f.location.line, render(f.path), f.message, f.hint) for f in outcome.report.findings] == [
        (
            "DRA304",
            21,
            "spec.pod.spec.containers[0].resources.claims[1]",
            'spec.pod.spec.containers[0].resources.claims[1]: Not found: "scratchh": must be one of the names in '
            "pod.spec.resourceClaims: gpu, scratch",
            "did you mean `scratch`?",
        )
    ]
