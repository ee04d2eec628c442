"""The node resources a pod's devices take (KEP-5517), per claim, from allocation results and devices.

Expected amounts from addDeviceMapping / addDeviceOverhead / buildNodeAllocatableDRAInfo of
kube-scheduler 1.37 and the dra-driver-cpu documentation of its two mappings.
"""

from __future__ import annotations

from fractions import Fraction

from dralint.api import model
from dralint.api.workloads import Container, ContainerClaim, PodSpec
from dralint.dryrun import nodealloc

SLICE = model.resource_slice(
    {
        "metadata": {"name": "cpus"},
        "spec": {
            "driver": "dra.cpu",
            "pool": {"name": "node-0", "generation": 1, "resourceSliceCount": 1},
            "nodeName": "node-0",
            "devices": [
                {  # grouped mode: capacity dra.cpu/cpu mapped 1:1
                    "name": "cpudevnuma000",
                    "allowMultipleAllocations": True,
                    "capacity": {"dra.cpu/cpu": {"value": "64"}},
                    "nodeAllocatableResources": {
                        "cpu": {"mapping": {"capacityKey": "dra.cpu/cpu", "capacityMultiplier": "2"}}
                    },
                },
                {  # individual mode: one device, one cpu; and an overhead of host memory
                    "name": "cpudev000",
                    "nodeAllocatableResources": {
                        "cpu": {"mapping": {"deviceMultiplier": "1"}},
                        "memory": {"overhead": {"perPod": "100Mi", "perContainer": "10Mi"}},
                    },
                },
                {"name": "cpudev001", "nodeAllocatableResources": {"cpu": {"mapping": {"deviceMultiplier": "1"}}}},
                {"name": "plain"},
            ],
        },
    }
)
DEVICES = nodealloc.lookup([SLICE])
assert DEVICES is not None
SPEC = PodSpec(
    containers=(
        Container("init", "initContainers", 0, (ContainerClaim("cpus"),)),
        Container("main", "containers", 0, (ContainerClaim("cpus"), ContainerClaim("other"))),
        Container("side", "containers", 1, (ContainerClaim("cpus"),)),
    )
)


def _result(device: str, consumed: dict[str, str] | None = None) -> model.DeviceRequestAllocationResult:
    quantities = {k: model.quantity(v) for k, v in consumed.items()} if consumed else None
    return model.DeviceRequestAllocationResult("cpus", "dra.cpu", "node-0", device, consumed_capacity=quantities)


def test_capacity_mapping_multiplies_the_consumed_capacity() -> None:
    allocation = model.AllocationResult((_result("cpudevnuma000", {"dra.cpu/cpu": "3"}),))
    status = nodealloc.claim_status("cpus", allocation, DEVICES, SPEC)
    assert status is not None and status.mapped
    assert dict(status.mapping) == {"cpu": Fraction(6)}
    assert status.containers == ("init", "main", "side")  # init containers first
    assert nodealloc.pod_demand([status]) == {"cpu": 6000}


def test_capacity_mapping_by_the_bare_capacity_name_of_the_driver() -> None:
    allocation = model.AllocationResult((_result("cpudevnuma000", {"cpu": "500m"}),))
    status = nodealloc.claim_status("cpus", allocation, DEVICES, SPEC)
    assert status is not None and dict(status.mapping) == {"cpu": Fraction(1)}


def test_device_multiplier_per_device_and_overheads_per_pod_and_container() -> None:
    allocation = model.AllocationResult((_result("cpudev000"), _result("cpudev001"), _result("plain")))
    status = nodealloc.claim_status("cpus", allocation, DEVICES, SPEC)
    assert status is not None
    assert dict(status.mapping) == {"cpu": Fraction(2)}
    # perPod 100Mi once, perContainer 10Mi for each of the 3 containers referencing the claim
    assert nodealloc.pod_demand([status]) == {"cpu": 2000, "memory": (100 + 3 * 10) * 2**20}


def test_claims_without_such_devices_take_nothing() -> None:
    allocation = model.AllocationResult((_result("plain"),))
    assert nodealloc.claim_status("cpus", allocation, DEVICES, SPEC) is None
    assert nodealloc.lookup([]) is None
