"""Workloads to pods, and each pod's claims."""

from __future__ import annotations

from dralint.apimachinery.fieldpath import render
from dralint.cluster import inventory, pods
from testing.simulate import context


def _pods(release: str = "1.37") -> list[pods.Pod]:
    ctx = context("workloads/mixed.yaml", "inventory/kubectl-list.yaml", release=release)
    inv = inventory.build(ctx.objects, ctx.normalised)
    extended = pods.extended_resource_classes(inv.classes) if ctx.target.enabled("DRAExtendedResource") else {}
    index = pods.claim_index(ctx.normalised.values())
    return pods.expand(ctx.pod_templates, index, inv.nodes, extended)


def test_expand_makes_replicas_daemonset_pods_and_job_pods_in_document_order() -> None:
    assert [(p.name, p.node_name) for p in _pods()] == [
        ("trainer-0", None),
        ("trainer-1", None),
        ("inference-0", None),
        ("inference-1", None),
        ("monitor-worker-2", "worker-2"),  # nodeSelector pool=l4: only worker-2 has the label
        ("batch-0", None),
    ]


def test_expand_instantiates_templates_and_shares_named_claims() -> None:
    by_name = {p.name: p for p in _pods()}
    trainer = by_name["trainer-1"].claims[0]
    assert (trainer.kind, trainer.key, trainer.source is not None) == ("template", ("ml", "trainer-1-gpu"), True)
    first, second = by_name["inference-0"].claims[0], by_name["inference-1"].claims[0]
    assert first.kind == "claim" and first.key == second.key == ("ml", "shared-gpu")
    missing = by_name["inference-0"].claims[1]
    assert (missing.claim, missing.missing) == (None, "ResourceClaimTemplate ml/no-such-template does not exist")


def test_expand_builds_the_extended_resource_claim() -> None:
    batch = {p.name: p for p in _pods()}["batch-0"]
    (use,) = batch.claims
    assert use.kind == "extended" and use.key == ("ml", "batch-0-extended-resources")
    assert use.claim is not None
    request = use.claim.spec.requests[0]
    assert (
        request.name,
        request.exactly and request.exactly.device_class_name,
        request.exactly and request.exactly.count,
    ) == (
        "container-0-request-0",
        "gpu.example.com",
        2,
    )
    assert [(name, render(path), resource) for name, path, resource in use.extended] == [
        (
            "container-0-request-0",
            "spec.template.spec.containers[0].resources.requests.example.com/gpu",
            "example.com/gpu",
        )
    ]


def test_expand_without_the_extended_resource_gate_makes_the_pod_without_claims() -> None:
    # DRAExtendedResource is alpha, off, in 1.35: the Job's pod needs no devices; it is still made,
    # because it takes node resources and counts for other pods' affinity and spread.
    made = {p.name: p.claims for p in _pods("1.35")}
    assert list(made) == ["trainer-0", "trainer-1", "inference-0", "inference-1", "monitor-worker-2", "batch-0"]
    assert made["batch-0"] == ()
