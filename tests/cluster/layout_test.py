"""Compact Inventory slices in the 1.33-1.34 layout: counter sets beside the devices consuming them."""

from __future__ import annotations

from dralint.api import model
from dralint.cluster.layout import counters_beside_devices


def _slice(name: str, pool: str, count: int, **spec: object) -> model.ResourceSlice:
    body = {"driver": "gpu.example.com", "nodeName": "node-0", "pool": {"name": pool, "resourceSliceCount": count}}
    return model.resource_slice({"metadata": {"name": name}, "spec": {**body, **spec}})


def _consumer(name: str, counter_set: str) -> dict[str, object]:
    return {"name": name, "consumesCounters": [{"counterSet": counter_set, "counters": {"mem": {"value": "1"}}}]}


def test_counter_slices_dissolve_into_the_device_slices_that_consume_them() -> None:
    counters = {"sharedCounters": [{"name": f"gpu-{i}", "counters": {"mem": {"value": "4"}}} for i in range(3)]}
    slices = [
        _slice("a-0", "a", 3, **counters),
        _slice("a-1", "a", 3, devices=[_consumer("p0", "gpu-0"), _consumer("p1", "gpu-1")]),
        _slice("a-2", "a", 3, devices=[_consumer("p2", "gpu-2"), {"name": "whole"}]),
        _slice("b-0", "b", 1, devices=[{"name": "other"}]),
    ]
    out = counters_beside_devices(slices)
    assert [(s.name, s.pool.resource_slice_count, [c.name for c in s.shared_counters]) for s in out] == [
        ("a-1", 2, ["gpu-0", "gpu-1"]),
        ("a-2", 2, ["gpu-2"]),
        ("b-0", 1, []),
    ]
