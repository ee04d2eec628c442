"""The dry-run's placement loop with the real allocator: order, strategies, shared and existing claims."""

from __future__ import annotations

from dralint.dryrun.placement import Strategy
from dralint.dryrun.utilisation import utilisation
from testing.run import ROOT
from testing.simulate import context

RULES = ROOT / "tests" / "rules"


def _placements(
    name: str, *, strategy: Strategy = "pack", release: str = "1.37", gates: dict[str, bool] | None = None
) -> list[tuple[str, str, str, str]]:
    result = context(name, release=release, gates=gates).dry_run(strategy)
    return [
        (
            p.pod.name,
            p.outcome,
            p.node or "-",
            ",".join(r.device for _, a in p.allocations for r in a.results),
        )
        for p in result.simulation.placements
    ]


def test_simulate_packs_pods_onto_the_first_node_that_fits() -> None:
    assert _placements("placement/three-nodes.yaml") == [
        ("web-0", "placed", "node-0", "gpu-0"),
        ("web-1", "placed", "node-0", "gpu-1"),
        ("web-2", "placed", "node-1", "gpu-0"),
        ("web-3", "placed", "node-1", "gpu-1"),
    ]


def test_simulate_spread_continues_after_the_node_used_last() -> None:
    assert _placements("placement/three-nodes.yaml", strategy="spread") == [
        ("web-0", "placed", "node-0", "gpu-0"),
        ("web-1", "placed", "node-1", "gpu-0"),
        ("web-2", "placed", "node-2", "gpu-0"),
        ("web-3", "placed", "node-0", "gpu-1"),
    ]


def test_simulate_allocates_a_named_claim_once_and_counts_its_consumers() -> None:
    placements = _placements("placement/shared-claim.yaml")
    assert placements[:2] == [("sweep-0", "placed", "node-0", "gpu-0"), ("sweep-1", "placed", "node-0", "gpu-0")]
    assert {p[1:] for p in placements[:40]} == {("placed", "node-0", "gpu-0")}
    # bound to node-1, but the claim's device is on node-0
    assert placements[40] == ("pinned", "claim-elsewhere", "-", "")


def test_simulate_stops_at_the_claim_consumer_limit_of_the_release() -> None:
    # (1.31 serves no resource.k8s.io/v1: the API server would reject the v1 objects of shared-claim.yaml)
    placements = _placements(
        "placement/shared-claim-1.31.yaml", release="1.31", gates={"DynamicResourceAllocation": True}
    )
    outcomes = [p[1] for p in placements[:40]]
    assert outcomes == ["placed"] * 32 + ["claim-consumers"] * 8


def test_simulate_keeps_existing_allocations_and_reuses_allocated_claims() -> None:
    # (mixed.yaml redefines the inventory's DeviceClass with an extended resource name: as with kubectl apply -f,
    # the definition read last is the one the cluster keeps)
    result = context("inventory/kubectl-list.yaml", "workloads/mixed.yaml").dry_run()
    rows = [(p.pod.name, p.outcome, p.node) for p in result.simulation.placements]
    assert rows == [
        ("trainer-0", "placed", "worker-2"),  # tolerates worker-2's taint; worker-1's gpu-1 is taken
        ("trainer-1", "placed", "worker-1"),
        ("inference-0", "missing-claim", None),
        ("inference-1", "missing-claim", None),
        ("monitor-worker-2", "unsatisfiable", None),
        ("batch-0", "unsatisfiable", None),
    ]
    assert result.simulation.consumers[("ml", "already-running")] == 1


def test_simulate_partitions_share_counters_with_the_whole_device() -> None:
    assert _placements("placement/partitions.yaml") == [
        ("small-0", "placed", "node-0", "mig-gpu-0-1g-0"),
        ("small-1", "placed", "node-0", "mig-gpu-0-1g-1"),
        ("small-2", "placed", "node-0", "mig-gpu-0-1g-2"),
        ("big", "placed", "node-0", "gpu-0"),
    ]


def test_utilisation_weights_atomic_devices_and_counter_sets() -> None:
    result = context("placement/partitions.yaml").dry_run()
    (pool,) = result.utilisation
    assert (pool.driver, pool.pool, pool.devices, pool.allocated) == ("gpu.example.com", "node-0", 10, 4)
    # atomic: 1 of 2 = 0.5; partitionable: one counter set at max(3/7 slices, 15Gi/40Gi) = 3/7;
    # weighted by 2 atomic devices and 1 counter set.
    assert abs(pool.utilisation - (0.5 * 2 / 3 + (3 / 7) / 3)) < 1e-9
    assert [(c.counter_set, c.counter, str(c.consumed), str(c.total)) for c in pool.counters] == [
        ("mig-gpu-0-counters", "memory", "15Gi", "40Gi"),
        ("mig-gpu-0-counters", "slices", "3", "7"),
    ]


def test_utilisation_of_the_packed_pools() -> None:
    result = context("placement/three-nodes.yaml").dry_run()
    assert [(u.pool, u.allocated, u.devices, u.utilisation) for u in result.utilisation] == [
        ("node-0", 2, 2, 1.0),
        ("node-1", 2, 2, 1.0),
        ("node-2", 0, 2, 0.0),
    ]


def test_admin_access_allocations_neither_block_devices_nor_count_as_utilised() -> None:
    result = context("placement/admin.yaml").dry_run()
    assert _placements("placement/admin.yaml") == [("new", "placed", "node-a", "gpu-0")]
    (pool,) = result.utilisation
    # gpu-1 (training) and gpu-0 (the new pod) are allocated; the admin allocation of gpu-0 is not counted
    assert (pool.allocated, pool.devices, pool.utilisation) == (2, 2, 1.0)
    existing = [a.claim.allocation for a in result.inventory.allocated if a.claim.allocation is not None]
    assert [(u.allocated, u.utilisation) for u in utilisation(result.inventory.slices, existing)] == [(1, 0.5)]


def test_an_allocator_error_on_any_feasible_node_aborts_the_pod_although_another_node_fits() -> None:
    # DynamicResources.Filter returns an Error status for an allocator error other than
    # ErrFailedAllocationOnNode, and one Error on any node aborts the scheduling cycle.
    simulation = context(str(RULES / "DRA505/fail/error-on-another-node.yaml")).dry_run().simulation
    [placement] = simulation.placements
    assert (placement.outcome, placement.candidates, placement.reason) == (
        "error",
        ("node-1",),
        "claim default/burn-in-gpus, request gpus: asks for all devices, "
        "but resource pool gpu.example.com/node-1 is currently being updated",
    )
    assert simulation.allocated == {}


def test_a_pod_bound_by_node_name_never_gets_unallocated_claims_but_uses_allocated_ones() -> None:
    # The resource claim controller only reserves claims already allocated for such a pod
    # (pkg/controller/resourceclaim: "scheduler will deal with it" unless spec.nodeName is set).
    failing = context(str(RULES / "DRA510/fail/node-name.yaml")).dry_run().simulation.placements
    assert [(p.pod.name, p.outcome) for p in failing] == [
        ("pinned", "bypassed"),
        ("encoder-0", "bypassed"),
        ("encoder-1", "bypassed"),
    ]
    assert failing[0].reason == (
        "spec.nodeName node-1 bypasses the scheduler, which alone allocates claims: "
        "claim default/pinned-gpu is never allocated"
    )
    passing = context(str(RULES / "DRA510/pass/allocated-claim.yaml")).dry_run().simulation.placements
    assert [(p.pod.name, p.outcome, p.node) for p in passing] == [("pinned", "placed", "node-1")]


def _rows(name: str, release: str = "1.37") -> list[tuple[str, str, str, str, str]]:
    """(pod, outcome, node, claims with their devices, reason) of the pods that need devices."""
    simulation = context(name, release=release).dry_run().simulation
    return [
        (
            p.pod.name,
            p.outcome,
            p.node or "-",
            ",".join(f"{u.entry.name}:{'+'.join(r.device for r in a.results)}" for u, a in p.allocations),
            p.reason,
        )
        for p in simulation.placements
    ]


def test_a_node_advertising_an_extended_resource_serves_it_by_device_plugin_and_dra_serves_the_others() -> None:
    # KEP-5004 / filterExtendedResources: DRA only where the resource is backed by a class and the
    # node's allocatable has none of it; NodeResourcesFit counts it where the node advertises it.
    assert _rows("extended/device-plugin-first.yaml") == [
        ("infer-0", "placed", "node-a", "", ""),
        ("infer-1", "placed", "node-a", "", ""),
        ("infer-2", "placed", "node-b", "extended-resources:gpu-0", ""),
        ("infer-3", "placed", "node-b", "extended-resources:gpu-1", ""),
        ("infer-4", "placed", "node-c", "extended-resources:gpu-0", ""),
        (
            "infer-5",
            "unsatisfiable",
            "-",
            "",
            "the claims cannot be allocated on any of the 2 nodes the pod may run on",
        ),
    ]


def test_on_1_34_a_node_listing_an_extended_resource_at_zero_keeps_it_for_the_device_plugin() -> None:
    """Kubernetes 1.34's NodeResourcesFit (noderesources/fit.go, fitsRequest) leaves a DRA-backed
    resource to DynamicResources only when the node's allocatable lacks its name (okScalar false):
    node-c lists example.com/gpu at "0", so the pod does not fit there. From 1.35 on
    (kubernetes#133784, shouldDelegateResourceToDRA: allocatable > 0) node-c's DRA GPU serves it."""
    fixture = "extended/device-plugin-first.yaml"
    gates = {"DRAExtendedResource": True}  # alpha, off by default on 1.34 and 1.35
    rows = {
        release: [
            (p.pod.name, p.node or "-")
            for p in context(fixture, release=release, gates=gates).dry_run().simulation.placements
        ]
        for release in ("1.34", "1.35")
    }
    served = [("infer-0", "node-a"), ("infer-1", "node-a"), ("infer-2", "node-b"), ("infer-3", "node-b")]
    assert rows["1.34"] == [*served, ("infer-4", "-"), ("infer-5", "-")]
    assert rows["1.35"] == [*served, ("infer-4", "node-c"), ("infer-5", "-")]


def test_an_extended_resource_no_class_backs_and_no_node_advertises_leaves_the_pods_pending() -> None:
    fixture = str(RULES / "DRA511/fail/gate-off.yaml")
    pending = "no Node advertises example.com/gpu and no DeviceClass backs it"
    for release in ("1.34", "1.35"):  # DRAExtendedResource alpha, off: extendedResourceName is dropped
        assert _rows(fixture, release) == [
            ("encode-0", "no-resource", "-", "", pending),
            ("encode-1", "no-resource", "-", "", pending),
        ]
    for release in ("1.36", "1.37"):  # on by default: the class backs it
        assert _rows(fixture, release) == [
            ("encode-0", "placed", "node-0", "extended-resources:gpu-0", ""),
            ("encode-1", "placed", "node-1", "extended-resources:gpu-0", ""),
        ]


def _quota_rows(name: str, release: str = "1.37") -> list[tuple[str, str, str]]:
    simulation = context(str(RULES / "DRA512/fail" / name), release=release).dry_run().simulation
    return [(p.pod.display, p.outcome, p.reason) for p in simulation.placements]


DEVICES = "gpu.example.com.deviceclass.resource.k8s.io/devices"


def test_quota_admits_claims_in_creation_order_and_counts_devices_per_class_and_claims() -> None:
    assert _quota_rows("devices-per-class.yaml") == [
        ("ml/notebook", "placed", ""),
        ("ml/train-0", "placed", ""),
        ("ml/train-1", "placed", ""),
        (
            "ml/train-2",
            "quota",
            "the ResourceClaim ml/train-2-gpu made from ResourceClaimTemplate ml/one-gpu for pod ml/train-2 "
            f"is not created: exceeded quota: gpus, requested: {DEVICES}=1, used: {DEVICES}=3, limited: {DEVICES}=3",
        ),
        ("web/serve-0", "placed", ""),
        (
            "web/serve-1",
            "quota",
            "the ResourceClaim web/serve-1-gpu made from ResourceClaimTemplate web/one-gpu for pod web/serve-1 "
            "is not created: exceeded quota: claims, requested: count/resourceclaims.resource.k8s.io=1, "
            "used: count/resourceclaims.resource.k8s.io=4, limited: count/resourceclaims.resource.k8s.io=4",
        ),
    ]


def test_quota_charges_the_largest_alternative_admin_access_and_32_for_all() -> None:
    rows = _quota_rows("worst-case.yaml")
    assert [row[:2] for row in rows] == [
        ("lab/flex", "placed"),
        ("lab/probe", "placed"),
        ("lab/single", "quota"),
        ("lab/sweep", "quota"),
    ]
    assert rows[3][2].endswith(f"requested: {DEVICES}=32, used: {DEVICES}=3, limited: {DEVICES}=3")


def test_claims_count_for_the_extended_resource_of_their_class_only_with_dra_extended_resource() -> None:
    refused = (
        "the ResourceClaim media/paint-gpu made from ResourceClaimTemplate media/one-gpu for pod media/paint "
        "is not created: exceeded quota: gpus, requested: requests.example.com/gpu=1, "
        "used: requests.example.com/gpu=3, limited: requests.example.com/gpu=3"
    )
    assert _quota_rows("extended-resources.yaml") == [
        ("media/encode-0", "placed", ""),
        ("media/encode-1", "placed", ""),
        ("media/render", "placed", ""),
        ("media/paint", "quota", refused),
    ]
    unavailable = "no Node advertises example.com/gpu and no DeviceClass backs it"
    assert _quota_rows("extended-resources.yaml", "1.35") == [
        ("media/encode-0", "no-resource", unavailable),
        ("media/encode-1", "no-resource", unavailable),
        ("media/render", "placed", ""),
        ("media/paint", "placed", ""),
    ]


def test_the_extended_resource_claim_is_admitted_when_the_pod_is_placed() -> None:
    assert _quota_rows("extended-claim.yaml") == [
        ("media/encode-0", "placed", ""),
        (
            "media/encode-1",
            "quota",
            "the claim kube-scheduler makes for the extended resources of pod media/encode-1 is not created: "
            f"exceeded quota: gpus, requested: {DEVICES}=1, used: {DEVICES}=1, limited: {DEVICES}=1",
        ),
    ]
