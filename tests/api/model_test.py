"""The typed DRA model (dralint/api/model.py), built through normalisation from fixture files."""

from __future__ import annotations

from dralint.api import model as m
from dralint.api.normalise import Typed, normalise
from dralint.api.objects import identify
from dralint.apimachinery.quantity import parse_quantity as q
from dralint.read.yamldoc import decode
from tests.conftest import FIXTURES


def typed_objects(name: str) -> list[Typed | None]:
    documents, issues = decode(name, (FIXTURES / "model" / name).read_text(encoding="utf-8"))
    assert issues == []
    out = []
    for obj in identify(documents).objects:
        normalised = normalise(obj)
        assert normalised is not None
        out.append(normalised.typed)
    return out


def test_model_builds_every_kind() -> None:
    device_class, claim, slice_, taint_rule, template = typed_objects("kinds.yaml")
    assert device_class == m.DeviceClass(
        meta=m.ObjectMeta(name="gpu.example.com", labels={"tier": "gold"}),
        selectors=(m.DeviceSelector(m.CELDeviceSelector('device.driver == "gpu.example.com"')),),
        config=(
            m.DeviceClassConfiguration(m.OpaqueDeviceConfiguration("gpu.example.com", {"sharing": "time-slicing"})),
        ),
        extended_resource_name="example.com/gpu",
    )
    assert claim == m.ResourceClaim(
        meta=m.ObjectMeta(name="pair", namespace="ml"),
        spec=m.ResourceClaimSpec(
            requests=(
                m.DeviceRequest(
                    "gpu",
                    exactly=m.ExactDeviceRequest(
                        device_class_name="gpu.example.com",
                        allocation_mode="ExactCount",
                        count=2,
                        admin_access=False,
                        capacity=m.CapacityRequirements({"memory": q("10Gi")}),
                    ),
                ),
                m.DeviceRequest(
                    "nic",
                    first_available=(
                        m.DeviceSubRequest(
                            name="fast",
                            device_class_name="nic.example.com",
                            selectors=(
                                m.DeviceSelector(
                                    m.CELDeviceSelector('device.attributes["nic.example.com"].speed >= 100')
                                ),
                            ),
                            allocation_mode="ExactCount",
                            count=1,
                            tolerations=(m.DeviceToleration("flaky", "Exists", "", "NoExecute", 60),),
                        ),
                    ),
                ),
            ),
            constraints=(
                m.DeviceConstraint(("gpu", "nic/fast"), match_attribute="example.com/numaNode"),
                m.DeviceConstraint((), distinct_attribute="example.com/slot"),
            ),
            config=(
                m.DeviceClaimConfiguration(
                    ("gpu",), m.OpaqueDeviceConfiguration("gpu.example.com", {"mode": "exclusive"})
                ),
            ),
        ),
        allocation=m.AllocationResult(
            results=(
                m.DeviceRequestAllocationResult(
                    request="gpu",
                    driver="gpu.example.com",
                    pool="node-a",
                    device="gpu-0",
                    share_id="4b1d9f0e-5a1c-4a8e-9d0c-3f2e1b0a9c8d",
                    consumed_capacity={"memory": q("10Gi")},
                ),
            ),
            config=(
                m.DeviceAllocationConfiguration(
                    "FromClass", ("gpu",), m.OpaqueDeviceConfiguration("gpu.example.com", {})
                ),
            ),
            node_selector=m.NodeSelector(
                (m.NodeSelectorTerm(match_fields=(m.NodeSelectorRequirement("metadata.name", "In", ("node-a",)),)),)
            ),
        ),
        reserved_for=1,
    )
    assert slice_ == m.ResourceSlice(
        meta=m.ObjectMeta(name="node-a-gpus"),
        driver="gpu.example.com",
        pool=m.ResourcePool("node-a", 3, 2),
        node_name="node-a",
        shared_counters=(m.CounterSet("gpu-0-counters", {"memory": q("80Gi")}),),
        devices=(
            m.Device(
                name="gpu-0",
                attributes={
                    "model": m.DeviceAttribute("string", "H100"),
                    "numaNode": m.DeviceAttribute("int", 1),
                    "healthy": m.DeviceAttribute("bool", True),
                    "driverVersion": m.DeviceAttribute("version", "1.2.3"),
                    "example.com/links": m.DeviceAttribute("strings", ("nvlink0", "nvlink1")),
                },
                capacity={
                    "memory": m.DeviceCapacity(
                        q("80Gi"),
                        m.CapacityRequestPolicy(
                            default=q("10Gi"), valid_range=m.CapacityRequestPolicyRange(q("1Gi"), None, q("1Gi"))
                        ),
                    )
                },
                consumes_counters=(m.DeviceCounterConsumption("gpu-0-counters", {"memory": q("80Gi")}),),
                taints=(m.DeviceTaint("maintenance", "planned", "NoSchedule"),),
                binds_to_node=True,
                binding_conditions=("attached",),
                binding_failure_conditions=("attach-failed",),
                allow_multiple_allocations=True,
            ),
        ),
    )
    assert taint_rule == m.DeviceTaintRule(
        meta=m.ObjectMeta(name="drain-node-a"),
        selector=m.DeviceTaintSelector(driver="gpu.example.com", pool="node-a"),
        taint=m.DeviceTaint("drain", "", "NoExecute", "2026-01-01T00:00:00Z"),
    )
    assert template == m.ResourceClaimTemplate(
        meta=m.ObjectMeta(name="one-gpu", namespace="ml"),
        claim_meta=m.ObjectMeta(labels={"team": "ml"}),
        spec=m.ResourceClaimSpec(
            requests=(
                m.DeviceRequest(
                    "gpu", exactly=m.ExactDeviceRequest("gpu.example.com", allocation_mode="ExactCount", count=1)
                ),
            )
        ),
    )


def test_model_falls_back_to_zero_values_on_wrong_types() -> None:
    slice_, claim = typed_objects("malformed.yaml")
    assert isinstance(slice_, m.ResourceSlice)
    assert (slice_.meta, slice_.driver, slice_.pool) == (m.ObjectMeta(), "", m.ResourcePool(""))
    device = slice_.devices[0]
    assert device.name == ""
    assert device.attributes == {
        "model": m.DeviceAttribute("", None),
        "count": m.DeviceAttribute("string", "three"),  # the int is not an int: the next kind in the allocator's order
        "both": m.DeviceAttribute("ints", (1, 3)),
        "empty": m.DeviceAttribute("", None),
    }
    assert device.capacity == {"scalar": m.DeviceCapacity(q("8"))}
    assert device.consumes_counters == ()
    assert slice_.devices[1] == m.Device(name="")
    assert isinstance(claim, m.ResourceClaim)
    # `name: y` is the boolean true in YAML 1.1, so the second request has no name either
    assert [r.name for r in claim.spec.requests] == ["", ""]
    exact = claim.spec.requests[0].exactly
    assert exact == m.ExactDeviceRequest(allocation_mode="ExactCount")
    assert claim.spec.requests[1].first_available is None
    assert claim.spec.constraints == (m.DeviceConstraint(),)
    assert claim.allocation is None


def test_quantity_from_yaml_numbers() -> None:
    assert m.quantity(2) == q("2")
    assert m.quantity(0.5) == q("500m")
    assert m.quantity(1e-7) == q("100n")
    assert m.quantity(True) is None
    assert m.quantity(float("nan")) is None
    assert m.quantity("12 apples") is None


def test_node_builder_reads_labels_and_taints() -> None:
    node = m.node(
        {
            "metadata": {"name": "n", "labels": {"zone": "a", "bad": 1}},
            "spec": {"taints": [{"key": "k", "effect": "NoSchedule"}], "unschedulable": True},
        }
    )
    assert node == m.Node(m.ObjectMeta(name="n", labels={"zone": "a"}), (m.NodeTaint("k", "", "NoSchedule"),), True)
    assert node.labels == {"zone": "a"}
