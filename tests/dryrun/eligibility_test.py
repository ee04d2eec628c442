"""Node eligibility: nodeName, nodeSelector, required affinity, taints and tolerations."""

from __future__ import annotations

from dralint.cluster import inventory
from dralint.dryrun import eligibility
from testing.simulate import context


def _eligible() -> dict[str, list[str] | str]:
    ctx = context("workloads/eligibility.yaml")
    nodes = inventory.build(ctx.objects, ctx.normalised).nodes
    out: dict[str, list[str] | str] = {}
    for template in ctx.pod_templates:
        spec = template.spec
        excluded = [(n.node.name, eligibility.exclusion(n.node, spec, spec.tolerations)) for n in nodes]
        fits = [name for name, why in excluded if why is None]
        out[template.name] = fits or eligibility.summarise((n, w) for n, w in excluded if w is not None)
    return out


def test_exclusion_applies_selectors_affinity_and_taints() -> None:
    assert _eligible() == {
        "anywhere": ["cpu-1"],
        "tolerates-gpu": ["cpu-1", "gpu-1"],
        "wrong-value": ["cpu-1"],
        # tolerates everything, including the unschedulable taint of gpu-2
        "big-gpu-nodes": ["gpu-1", "gpu-2"],
        "by-field": ["cpu-1"],
        "selector-nowhere": "0 of 3 nodes are eligible: 3 nodeSelector tier=tpu",
    }


def test_summarise_counts_reasons_most_common_first() -> None:
    ctx = context("workloads/eligibility.yaml")
    nodes = inventory.build(ctx.objects, ctx.normalised).nodes
    spec = next(t.spec for t in ctx.pod_templates if t.name == "anywhere")
    excluded = [(n.node.name, eligibility.exclusion(n.node, spec, ())) for n in nodes]
    text = eligibility.summarise((n, w) for n, w in excluded if w is not None)
    assert text == (
        "0 of 2 nodes are eligible: 1 untolerated taint node.kubernetes.io/unschedulable:NoSchedule; "
        "1 untolerated taint nvidia.com/gpu=present:NoSchedule"
    )
