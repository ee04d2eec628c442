"""The allocator features of 1.37 in the dry-run (tests/fixtures/simulate/features), gates on and off.

Expected placements are written from KEP-6080 (derived attributes), KEP-5963 (compatibility
groups, its example 3) and the 1.37 consumable-capacity code (fractional ranges); with a gate off
the API server drops the fields on create and the allocator works without them.
"""

from __future__ import annotations

from testing.simulate import context, placement_rows


def _run(name: str, **gates: bool) -> list[tuple[str, str, str, str]]:
    return placement_rows(context(f"features/{name}", release="1.37", gates=gates).dry_run())


def test_derived_attributes_pair_gpu_and_nic_on_one_numa_node() -> None:
    assert _run("derived-attributes.yaml", DRADerivedAttributes=True) == [
        ("train-0", "placed", "node-0", "gpu-1,nic-1"),
        ("train-1", "unsatisfiable", "-", ""),
    ]


def test_derived_attributes_dropped_leave_a_constraint_no_device_satisfies() -> None:
    # DRADerivedAttributes is alpha (off) in 1.37: derived/numa is then looked up on the devices
    assert _run("derived-attributes.yaml") == [
        ("train-0", "unsatisfiable", "-", ""),
        ("train-1", "unsatisfiable", "-", ""),
    ]


def test_compatibility_groups_keep_mig_and_vgpu_apart() -> None:
    assert _run("compatibility-groups.yaml", DRADeviceCompatibilityGroups=True) == [
        ("pod-a", "placed", "node-0", "gpu-0-mig-1g-0"),
        ("pod-b", "unsatisfiable", "-", ""),
    ]


def test_compatibility_groups_dropped_let_the_counters_decide() -> None:
    assert _run("compatibility-groups.yaml") == [
        ("pod-a", "placed", "node-0", "gpu-0-mig-1g-0"),
        ("pod-b", "placed", "node-0", "gpu-0-vgpu-0"),
    ]


def test_fractional_capacity_range_four_halves_share_two_cores() -> None:
    placements = _run("fractional-capacity.yaml")  # beta, on by default in 1.37
    assert placements == [(f"infer-{i}", "placed", "node-0", "accel-0") for i in range(4)]
    analysis = context("features/fractional-capacity.yaml", release="1.37").dry_run()
    consumed = [
        r.consumed_capacity["accel.example.com/cores"].canonical()
        for p in analysis.simulation.placements
        for _, a in p.allocations
        for r in a.results
        if r.consumed_capacity
    ]
    assert consumed == ["500m"] * 4


def test_fractional_capacity_range_off_rounds_to_whole_cores() -> None:
    assert _run("fractional-capacity.yaml", DRAFractionalCapacityRange=False) == [
        ("infer-0", "placed", "node-0", "accel-0"),
        ("infer-1", "placed", "node-0", "accel-0"),
        ("infer-2", "unsatisfiable", "-", ""),
        ("infer-3", "unsatisfiable", "-", ""),
    ]


def test_node_allocatable_cpu_mapping_is_charged_against_the_node() -> None:
    # KEP-5517 / nodeallocatabledynamicresources.go: consumedCapacity[capacityKey] x capacityMultiplier
    # is added to the pod's 4 cpu; 2 x (4 + 4) = 16 fills the node
    assert _run("node-allocatable-cpu.yaml", DRANodeAllocatableResources=True) == [
        ("compute-0", "placed", "node-0", "cpudevnuma000"),
        ("compute-1", "placed", "node-0", "cpudevnuma000"),
        ("compute-2", "no-node", "-", ""),  # NodeResourcesFit: 4 cpu requested, 0 free
    ]
    assert _run("node-allocatable-cpu.yaml") == [  # alpha, off: only the containers' cpu counts
        (f"compute-{i}", "placed", "node-0", "cpudevnuma000") for i in range(3)
    ]


def test_node_allocatable_overhead_per_pod_and_per_container() -> None:
    # addDeviceOverhead: perPod once, perContainer for each of the 2 containers using the claim
    analysis = context("features/node-allocatable-overhead.yaml", release="1.37").dry_run()
    assert len(placement_rows(analysis)) == 3
    gated = context(
        "features/node-allocatable-overhead.yaml", release="1.37", gates={"DRANodeAllocatableResources": True}
    ).dry_run()
    assert placement_rows(gated) == [
        ("infer-0", "placed", "node-0", "gpu-0"),
        ("infer-1", "placed", "node-0", "gpu-1"),
        ("infer-2", "unsatisfiable", "-", ""),
    ]
    assert gated.simulation.placements[2].reason.endswith(
        "on node-0: insufficient memory: 7Gi requested, 2Gi of 16Gi allocatable free (with what its devices take)"
    )


def test_node_allocatable_mapped_claim_is_not_shared_by_pods() -> None:
    # validateNodeAllocatableDRAClaimSharing: a mapped device's claim, reserved by one pod, refuses others
    assert _run("node-allocatable-shared.yaml", DRANodeAllocatableResources=True) == [
        ("web-0", "placed", "node-0", "cpudevnuma000"),
        ("web-1", "claim-consumers", "-", ""),
    ]
    assert _run("node-allocatable-shared.yaml") == [
        ("web-0", "placed", "node-0", "cpudevnuma000"),
        ("web-1", "placed", "node-0", "cpudevnuma000"),
    ]
