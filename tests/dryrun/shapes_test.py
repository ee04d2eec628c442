"""Node shapes: nodes the allocator cannot tell apart, and a dry-run that asks about one of each."""

from __future__ import annotations

from pathlib import Path

import pytest

from dralint.api import model
from dralint.api.versions import make_target
from dralint.apimachinery.quantity import parse_quantity
from dralint.dryrun import shapes
from dralint.dryrun.analysis import Analysis
from dralint.dryrun.placement import Strategy
from dralint.dryrun.state import Cluster
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from testing.manifests import gpu_cluster


def _cluster_context(tmp_path: Path, fraction: float) -> CheckContext:
    inventory, workloads = gpu_cluster(fraction)
    (tmp_path / "inventory.yaml").write_text(inventory, encoding="utf-8")
    (tmp_path / "workloads.yaml").write_text(workloads, encoding="utf-8")
    workspace = load([str(tmp_path / "workloads.yaml"), str(tmp_path / "inventory.yaml")])
    return CheckContext(workspace, make_target("1.37", None))


def _outcomes(analysis: Analysis) -> list[tuple[str, str, str | None, tuple[model.AllocationResult, ...]]]:
    """Each pod's fate with its allocations in full (devices with their pools and share IDs, node selectors)."""
    return [
        (p.pod.name, p.outcome, p.node, tuple(a for _, a in p.allocations)) for p in analysis.simulation.placements
    ]


def _slice(name: str, pool: str, memory: str) -> model.ResourceSlice:
    device = model.Device("gpu-0", capacity={"memory": model.DeviceCapacity(parse_quantity(memory))})
    return model.ResourceSlice(
        model.ObjectMeta(name=name),
        "gpu.example.com",
        model.ResourcePool(pool, 1, 1),
        node_name=pool,
        devices=(device,),
    )


def test_slice_contents_ignore_names_but_not_how_quantities_are_written() -> None:
    contents = shapes.SliceContents()
    first = contents(_slice("a-gpu", "a", "1"))
    assert contents(_slice("b-gpu", "b", "1")) == first
    assert contents(_slice("c-gpu", "c", "1000m")) != first  # equal values; CEL's isInteger() tells them apart
    assert contents(_slice("d-gpu", "d", "2")) != first


def test_static_shape_is_one_per_node_pool(tmp_path: Path) -> None:
    ctx = _cluster_context(tmp_path, 0.002)  # 18 plain nodes, 2 partitionable ones
    analysis = ctx.analysis
    cluster = Cluster(analysis.cluster.slices, analysis.cluster.classes, analysis.features)
    found = {cluster._node_shape(entry.node) for entry in ctx.inventory.nodes}
    assert len(found) == 2


@pytest.mark.parametrize("strategy", ["pack", "spread"])
def test_dry_run_is_the_same_without_node_shapes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strategy: Strategy
) -> None:
    def dry_run() -> tuple[object, ...]:
        analysis = _cluster_context(tmp_path, 0.02).dry_run(strategy)  # 200 nodes, 100 workloads, 2 oversized
        failures = [(f.fits_empty, [p.pod.name for p in f.placements]) for f in analysis.failures]
        return _outcomes(analysis), failures, analysis.cluster.budget.used

    shared = dry_run()
    monkeypatch.setattr(Cluster, "_node_shape", lambda self, node: object())  # no two nodes alike
    assert shared == dry_run()
