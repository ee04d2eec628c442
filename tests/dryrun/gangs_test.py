"""Gangs and PodGroup claims in the dry-run, per release and feature gates (tests/fixtures/simulate/gangs/,
tests/rules/DRA513/)."""

from __future__ import annotations

from testing.run import ROOT
from testing.simulate import context

Row = tuple[str, str, str, str]


def _rows(name: str, release: str, gates: dict[str, bool] | None = None) -> list[Row]:
    """(pod, outcome, node, claim:device of each claim)."""
    simulation = context(name, release=release, gates=gates).dry_run().simulation
    return [
        (
            p.pod.name,
            p.outcome,
            p.node or "-",
            ",".join(f"{u.key[1]}:{'+'.join(r.device for r in a.results)}" for u, a in p.allocations),
        )
        for p in simulation.placements
    ]


GANG = str(ROOT / "tests/rules/DRA513/fail/gang.yaml")


def test_a_gang_that_does_not_fit_whole_holds_no_device_and_the_pods_after_it_get_them() -> None:
    rows = _rows(GANG, "1.37", {"GenericWorkload": True})
    assert rows == [
        ("train-0", "gang", "-", ""),
        ("train-1", "gang", "-", ""),
        ("train-2", "gang", "-", ""),
        ("train-3", "gang", "-", ""),
        ("ps-0", "gang", "-", ""),
        ("ps-1", "gang", "-", ""),
        ("eval-0", "gang", "-", ""),
        ("notebook", "placed", "node-0", "notebook-gpu:gpu-0"),
    ]


def test_gangs_are_scheduled_pod_by_pod_where_the_workload_api_is_off() -> None:
    # GenericWorkload is beta and off by default in 1.37: the API server drops spec.schedulingGroup.
    rows = _rows(GANG, "1.37")
    assert [(r[0], r[1]) for r in rows] == [
        ("train-0", "placed"),
        ("train-1", "placed"),
        ("train-2", "placed"),
        ("train-3", "unsatisfiable"),
        ("ps-0", "unsatisfiable"),
        ("ps-1", "unsatisfiable"),
        ("eval-0", "unsatisfiable"),
        ("notebook", "unsatisfiable"),
    ]


def test_gang_scheduling_needs_the_gang_scheduling_gate_too_before_1_37() -> None:
    gates = {"GenericWorkload": True}
    assert [r[1] for r in _rows(GANG, "1.36", gates)][:4] == ["placed", "placed", "placed", "unsatisfiable"]
    assert [r[1] for r in _rows(GANG, "1.36", {**gates, "GangScheduling": True})][:4] == ["gang"] * 4


def test_each_replica_key_of_a_1_35_workload_pod_group_is_a_gang_of_its_own() -> None:
    rows = _rows("gangs/workload-1.35.yaml", "1.35", {"GenericWorkload": True, "GangScheduling": True})
    assert rows == [
        ("replica-a-0", "placed", "node-0", "replica-a-0-gpu:gpu-0"),
        ("replica-a-1", "placed", "node-0", "replica-a-1-gpu:gpu-1"),
        ("replica-b-0", "gang", "-", ""),
        ("replica-b-1", "gang", "-", ""),
        ("notebook", "placed", "node-0", "notebook-gpu:gpu-2"),
    ]
    simulation = context(
        "gangs/workload-1.35.yaml", release="1.35", gates={"GenericWorkload": True, "GangScheduling": True}
    ).dry_run().simulation
    assert simulation.placements[2].reason == (
        "only 1 of the 2 pods of pod group workers of Workload default/training (replica key b) fit, "
        "fewer than its minCount 2: none of them is bound "
        "(default/replica-b-1: unsatisfiable: the claims cannot be allocated on the only node the pod may run on)"
    )


def test_pods_share_their_pod_groups_claim_with_dra_workload_resource_claims() -> None:
    gates = {"GenericWorkload": True, "DRAWorkloadResourceClaims": True}
    for release in ("1.36", "1.37"):
        assert _rows("gangs/podgroup-claims.yaml", release, gates) == [
            ("group-1-0", "placed", "node-0", "group-1-gpu:gpu-0"),
            ("group-1-1", "placed", "node-0", "group-1-gpu:gpu-0"),
            ("group-2-0", "placed", "node-0", "group-2-gpu:gpu-1"),
            ("group-2-1", "placed", "node-0", "group-2-gpu:gpu-1"),
        ]
    # Without the gate (off by default) the PodGroup's resourceClaims are dropped.
    assert _rows("gangs/podgroup-claims.yaml", "1.37", {"GenericWorkload": True}) == [
        ("group-1-0", "placed", "node-0", "group-1-0-gpu:gpu-0"),
        ("group-1-1", "placed", "node-0", "group-1-1-gpu:gpu-1"),
        ("group-2-0", "placed", "node-0", "group-2-0-gpu:gpu-2"),
        ("group-2-1", "unsatisfiable", "-", ""),
    ]
