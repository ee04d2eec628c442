"""Demand against supply (dralint/diagnose/demand.py): the bounded text of an oversubscribed class."""

from __future__ import annotations

from dralint.diagnose.demand import ClassDemand, WorkloadDemand


def test_class_demand_text_names_the_five_largest_holders_and_counts_the_rest() -> None:
    holders = tuple((f"Job ml/h{i}", i, i * 2) for i in range(1, 9))  # (workload, pods, devices)
    demand = ClassDemand("gpu", (WorkloadDemand("Job ml/train", 64, 1),), 40, holders)
    assert demand.text() == (
        "demand for class gpu: Job ml/train 64 pods × 1 = 64; matching devices = 40, of which 72 are held by "
        "pods of other workloads (Job ml/h4 8, Job ml/h5 10, Job ml/h6 12, Job ml/h7 14, Job ml/h8 16, "
        "and 3 more workloads (6 pods))"
    )


def test_class_demand_text_lists_five_workloads_or_fewer_in_full() -> None:
    workloads = tuple(WorkloadDemand(f"Deployment ml/w{i}", 1, 4) for i in range(5))
    text = ClassDemand("gpu", workloads, 16).text()
    assert "more workload" not in text
    assert text.endswith("Deployment ml/w4 1 pod × 4 = 4 (total 20); matching devices = 16")
