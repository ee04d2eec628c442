"""Gathering the inventory from loaded objects and compact Inventory documents."""

from __future__ import annotations

from dralint.apimachinery.fieldpath import render
from testing.simulate import build_inventory


def test_build_reads_kubectl_list_nodes_and_allocated_claims() -> None:
    inv = build_inventory("inventory/kubectl-list.yaml")
    assert [(e.slice.name, e.slice.node_name, [d.name for d in e.slice.devices]) for e in inv.slices] == [
        ("worker-1-gpu.example.com-x7k2p", "worker-1", ["gpu-0", "gpu-1"]),
        ("worker-2-gpu.example.com-9qk4d", "worker-2", ["gpu-0"]),
    ]
    assert list(inv.classes) == ["gpu.example.com"]
    # worker-2 is declared (with its labels and taint); worker-1 is only named by a slice.
    assert [(n.node.name, dict(n.node.labels), n.origin is None) for n in inv.nodes] == [
        ("worker-2", {"kubernetes.io/hostname": "worker-2", "pool": "l4"}, False),
        ("worker-1", {"kubernetes.io/hostname": "worker-1"}, True),
    ]
    assert inv.nodes[0].node.taints[0].key == "dedicated"
    assert [(a.claim.namespace, a.claim.name) for a in inv.allocated] == [("ml", "already-running")]
    assert inv.slices[0].origin.obj.position(inv.slices[0].device_at(1).path) == (29, 7)  # "- name: gpu-1"


def test_build_expands_compact_inventory_with_origins() -> None:
    inv = build_inventory("inventory/compact-gpu.yaml")
    assert [n.node.name for n in inv.nodes] == ["gpu-0", "gpu-1"]
    assert dict(inv.nodes[1].node.labels) == {
        "kubernetes.io/hostname": "gpu-1",
        "node.kubernetes.io/instance-type": "a2-highgpu-4g",
        "zone": "zone-1",
    }
    assert [(t.key, t.effect) for t in inv.nodes[0].node.taints] == [("nvidia.com/gpu", "NoSchedule")]
    assert [(e.slice.name, e.slice.pool.name, e.slice.pool.resource_slice_count) for e in inv.slices] == [
        ("gpu-0-gpu-example-com-0", "gpu-0", 2),
        ("gpu-0-gpu-example-com-1", "gpu-0", 2),
        ("gpu-1-gpu-example-com-0", "gpu-1", 2),
        ("gpu-1-gpu-example-com-1", "gpu-1", 2),
        ("fabric-0", "fabric", 1),
    ]
    devices = inv.slices[1].slice.devices
    assert [d.name for d in devices] == ["gpu-0", "gpu-1", "pgpu-0", "pgpu-0-1g-0", "pgpu-0-1g-1"]
    assert devices[1].attributes["index"].value == 1
    assert devices[1].attributes["uuid"].value == "GPU-gpu-0-1"
    assert devices[1].attributes["driverVersion"].kind == "version"
    assert devices[3].attributes["model"].value == "A100"  # inherited from the physical device
    assert [(c.counter_set, {k: str(v) for k, v in c.counters.items()}) for c in devices[3].consumes_counters] == [
        ("pgpu-0-counters", {"memory": "5Gi", "slices": "1"})
    ]
    assert [c.name for c in inv.slices[0].slice.shared_counters] == ["pgpu-0-counters"]
    assert [render(p) for p in inv.slices[1].device_paths] == [
        "spec.nodePools[0].devices[0]",
        "spec.nodePools[0].devices[0]",
        "spec.nodePools[0].devices[1]",
        "spec.nodePools[0].devices[1].partitions.devices[0]",
        "spec.nodePools[0].devices[1].partitions.devices[0]",
    ]
    fabric = inv.slices[4].slice
    assert fabric.node_selector is not None
    assert fabric.node_selector.terms[0].match_expressions[0].values == ("gpu-0", "gpu-1")
    assert fabric.devices[0].capacity["bandwidth"].request_policy is not None


def test_build_skips_invalid_compact_inventory() -> None:
    inv = build_inventory("inventory/compact-invalid.yaml")
    assert inv.slices == [] and inv.nodes == []
    assert [d.name for d in inv.documents] == ["broken"]
