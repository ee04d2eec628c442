"""Pods and claims of the producer table in the dry-run (tests/fixtures/producers/ against
tests/fixtures/simulate/inventory/producers.yaml)."""

from __future__ import annotations

from testing.simulate import context

INVENTORY = "inventory/producers.yaml"


def _rows(name: str) -> list[tuple[str, str, str, list[tuple[str, str, str]], list[str]]]:
    simulation = context(f"../producers/{name}", INVENTORY).analysis.simulation
    return [
        (
            p.pod.name,
            p.outcome,
            p.node or "-",
            [(use.entry.name, use.kind, ",".join(r.device for r in a.results)) for use, a in p.allocations],
            [use.kind for use in p.pod.claims],
        )
        for p in simulation.placements
    ]


def test_kubevirt_launcher_pods_are_placed_with_the_vm_claims_and_node_selector() -> None:
    assert _rows("kubevirt.yaml") == [
        ("vmi-gpu-0", "placed", "gpu-0", [("pgpu", "template", "gpu-0")], ["template"]),  # nodeSelector gpu=passthrough
        ("vm-gpu-0", "placed", "plain-0", [("vf", "claim", "gpu-0")], ["claim"]),
    ]


def test_a_template_a_compute_domain_creates_is_not_allocated_and_does_not_stop_the_pod() -> None:
    assert _rows("compute-domain.yaml") == [
        ("trainer", "placed", "plain-0", [("gpus", "template", "gpu-0")], ["produced", "template"]),
        ("typo", "missing-claim", "-", [], ["template"]),
    ]
