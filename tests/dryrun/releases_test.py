"""The dry-run behaves as the target release's scheduler did (tests/fixtures/simulate/releases).

Expected placements are written from the release branches of k8s.io/dynamic-resource-allocation
(allocator and resourceslice tracker of 1.31-1.34) and the API server's gated fields.
"""

from __future__ import annotations

from dralint.dryrun.analysis import Analysis
from testing.simulate import context
from testing.simulate import placement_rows as _placements


def _dry_run(name: str, release: str, **gates: bool) -> Analysis:
    return context(f"releases/{name}", release=release, gates=gates).dry_run()


def test_partitionable_devices_with_counters_in_their_slice_allocate_on_1_33_and_1_34() -> None:
    for release in ("1.33", "1.34"):
        analysis = _dry_run(
            "partitionable-1.34.yaml", release, DynamicResourceAllocation=True, DRAPartitionableDevices=True
        )
        assert _placements(analysis) == [
            ("small-0", "placed", "node-0", "gpu-0-part-0"),
            ("small-1", "placed", "node-0", "gpu-0-part-1"),
            ("small-2", "unsatisfiable", "-", ""),  # 40Gi of counters, 20Gi per partition
        ], release


def test_device_taint_rules_apply_under_device_taints_alone_on_1_33_and_1_34() -> None:
    for release in ("1.33", "1.34"):
        analysis = _dry_run("taint-rules-1.34.yaml", release, DynamicResourceAllocation=True, DRADeviceTaints=True)
        # gpu-0 is tainted by the rule selecting the class and memory == "80GB"; the rule naming a
        # class that does not exist taints nothing
        assert _placements(analysis) == [
            ("train-0", "placed", "node-0", "gpu-1"),
            ("train-1", "unsatisfiable", "-", ""),
        ], release


def test_device_taint_rules_do_nothing_without_device_taints() -> None:
    analysis = _dry_run("taint-rules-1.34.yaml", "1.34", DynamicResourceAllocation=True)
    assert _placements(analysis) == [
        ("train-0", "placed", "node-0", "gpu-0"),
        ("train-1", "placed", "node-0", "gpu-1"),
    ]


def test_admin_access_on_1_31_takes_a_held_device() -> None:
    analysis = _dry_run("admin-1.31.yaml", "1.31", DynamicResourceAllocation=True)
    assert _placements(analysis) == [("monitor", "placed", "node-0", "gpu-0")]
    (placement,) = analysis.simulation.placements
    assert [r.admin_access for _, a in placement.allocations for r in a.results] == [True]


def test_all_matching_no_device_is_allocated_with_none_on_1_32_only() -> None:
    analysis = _dry_run("all-zero-1.32.yaml", "1.32", DynamicResourceAllocation=True)
    assert _placements(analysis) == [("bench", "placed", "node-0", "")]
    analysis = _dry_run("all-zero-1.32.yaml", "1.33", DynamicResourceAllocation=True)
    assert _placements(analysis) == [("bench", "unsatisfiable", "-", "")]


def test_admin_access_dropped_on_1_35_makes_all_an_exclusive_request() -> None:
    analysis = _dry_run("admin-off-1.35.yaml", "1.35", DRAAdminAccess=False)
    assert _placements(analysis) == [("monitor", "unsatisfiable", "-", "")]  # gpu-0 is held by claim busy
    analysis = _dry_run("admin-off-1.35.yaml", "1.35")
    assert _placements(analysis) == [("monitor", "placed", "node-0", "gpu-0,gpu-1")]


def test_compact_inventory_partitions_keep_their_counters_on_1_34() -> None:
    analysis = _dry_run("partitions-compact-1.34.yaml", "1.34", DRAPartitionableDevices=True)
    assert [row[:3] for row in _placements(analysis)] == [
        ("small-0", "placed", "node-0"),
        ("small-1", "placed", "node-0"),
        ("small-2", "placed", "node-0"),
        ("small-3", "placed", "node-0"),
        ("small-4", "unsatisfiable", "-"),  # 4 x 10Gi of the GPU's 40Gi
        ("big", "placed", "node-0"),
    ]
