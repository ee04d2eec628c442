"""What ``dralint simulate`` says about how groups of pods are scheduled (tests/fixtures/simulate/gangs/)."""

from __future__ import annotations

from dralint.report.simulation import model
from testing.simulate import context

INDEPENDENT = "independent pods: no PodGroup names them, so kube-scheduler places each on its own"


def _rows(gates: dict[str, bool] | None = None) -> list[tuple[str, str, int, int]]:
    report = model.build(context("gangs/jobset-lws.yaml", gates=gates).dry_run())
    return [(r.workload, r.scheduled_as, r.pods, r.placed) for r in report.scheduling]


def test_jobsets_and_leader_worker_sets_are_independent_pods_unless_they_name_a_gang() -> None:
    assert _rows({"GenericWorkload": True}) == [
        ("JobSet default/train", INDEPENDENT, 2, 2),
        ("LeaderWorkerSet default/serve", INDEPENDENT, 4, 4),
        ("JobSet default/sweep", "a gang: PodGroup default/sweep, minCount 4", 4, 0),  # 2 GPUs left for 4
    ]


def test_a_pod_group_reference_is_dropped_where_the_workload_api_is_off() -> None:
    assert _rows()[2] == (
        "JobSet default/sweep",
        "independent pods: the Workload API is off (GenericWorkload), which drops their pod group reference",
        4,
        2,
    )
