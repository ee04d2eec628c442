"""Demand against supply (dralint/diagnose/demand.py): the bounded text of an oversubscribed class, and what
pods need of the devices a request can use."""

from __future__ import annotations

from dralint.api import model
from dralint.diagnose.demand import ClassDemand, WorkloadDemand, describe, needed


def test_class_demand_text_names_the_five_largest_workloads_and_counts_the_rest() -> None:
    workloads = tuple(WorkloadDemand(f"Job ml/h{i}", ((i, 2),)) for i in range(1, 9))
    demand = ClassDemand("class gpu", "gpu", (WorkloadDemand("Job ml/train", ((64, 1),)), *workloads), 40)
    assert demand.text() == (
        "demand for class gpu: Job ml/train 64 pods × 1 = 64, Job ml/h5 5 pods × 2 = 10, Job ml/h6 6 pods × 2 = 12, "
        "Job ml/h7 7 pods × 2 = 14, Job ml/h8 8 pods × 2 = 16, and 4 more workloads (10 pods) (total 136); "
        "matching devices = 40"
    )


def test_class_demand_text_lists_five_workloads_or_fewer_in_full() -> None:
    workloads = tuple(WorkloadDemand(f"Deployment ml/w{i}", ((1, 4),)) for i in range(5))
    text = ClassDemand("class gpu", "gpu", workloads, 16).text()
    assert "more workload" not in text
    assert text.endswith("Deployment ml/w4 1 pod × 4 = 4 (total 20); matching devices = 16")


def test_workload_demand_text_adds_pods_that_got_different_alternatives_and_shared_claims() -> None:
    assert WorkloadDemand("Job ml/x", ((1, 1), (2, 2)), 1).text() == "Job ml/x 1 pod × 1 + 2 pods × 2 + 1 shared = 6"


def test_a_request_with_selectors_is_described_as_such() -> None:
    assert describe(("gpu", ()), "gpus") == "class gpu"
    assert describe(("gpu", ('device.attributes["gpu"].model == "A100"',)), "gpus") == (
        "class gpu with the selectors of request gpus"
    )


def _claim(*requests: model.DeviceRequest) -> model.ResourceClaim:
    return model.ResourceClaim(model.ObjectMeta(name="c", namespace="ml"), model.ResourceClaimSpec(requests))


def test_a_pod_needs_the_least_of_the_alternatives_that_use_the_same_devices() -> None:
    a100 = (model.DeviceSelector(model.CELDeviceSelector("a100")),)
    claim = _claim(
        model.DeviceRequest(
            "gpu",
            first_available=(
                model.DeviceSubRequest("two", "gpu", a100, "ExactCount", 2),
                model.DeviceSubRequest("one", "gpu", a100, "ExactCount", 1),
                model.DeviceSubRequest("any", "gpu", (), "ExactCount", 1),
            ),
        ),
        model.DeviceRequest("nic", exactly=model.ExactDeviceRequest("nic", (), "ExactCount", 1)),
    )
    assert needed([claim], ("gpu", ("a100",))) == 1
    assert needed([claim], ("nic", ())) == 1
    assert needed([claim], ("tpu", ())) == 0
