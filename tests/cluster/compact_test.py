"""Compact Inventory documents: schema errors, and the expansion into Nodes and ResourceSlices."""

from __future__ import annotations

from dralint.apimachinery.fieldpath import render
from dralint.cluster import compact, compact_schema
from testing.simulate import context


def _document(name: str) -> dict[str, object]:
    (obj,) = [o for o in context(name).objects if o.kind == "Inventory"]
    return dict(obj.raw)


def test_validate_accepts_the_documented_example() -> None:
    assert compact_schema.validate(_document("inventory/compact-gpu.yaml")) == []


def test_validate_reports_each_defect_at_its_path() -> None:
    errors = compact_schema.validate(_document("inventory/compact-invalid.yaml"))
    assert [(render(e.path), e.message) for e in errors] == [
        ("spec.nodePools[0].count", "-1 is less than the minimum of 0"),
        (
            "spec.nodePools[0].devices[0].capacity[memory]",
            "'40 GiB' is not a Kubernetes quantity (such as 40Gi, 500m or 8)",
        ),
        (
            "spec.nodePools[0].devices[0].name",
            "unknown placeholder {idx} in 'gpu-{idx}'; "
            "known: {pool}, {node}, {nodeIndex}, {index}, {partition}, {driver}",
        ),
    ]


def test_expand_splits_slices_at_the_api_limits() -> None:
    expansion = compact.expand(_document("inventory/compact-large.yaml"))
    assert [n.data["metadata"]["name"] for n in expansion.nodes] == ["bigbox"]
    summary = [
        (
            s.data["metadata"]["name"],
            s.data["spec"]["pool"]["name"],
            s.data["spec"]["pool"]["resourceSliceCount"],
            len(s.data["spec"].get("devices", [])),
            len(s.data["spec"].get("sharedCounters", [])),
        )
        for s in expansion.slices
    ]
    assert summary == [
        ("bigbox-cpu-example-com-0", "bigbox", 2, 128, 0),
        ("bigbox-cpu-example-com-1", "bigbox", 2, 72, 0),
        ("bigbox-accel-example-com-0", "bigbox", 3, 0, 8),
        ("bigbox-accel-example-com-1", "bigbox", 3, 0, 2),
        ("bigbox-accel-example-com-2", "bigbox", 3, 30, 0),
        ("storage-example-com-all-0", "storage.example.com-all", 1, 3, 0),
        ("fabric-0", "fabric", 1, 1, 0),
    ]
    cpu = expansion.slices[0].data["spec"]["devices"]
    assert [d["name"] for d in cpu[:3]] == ["device-0", "device-1", "device-2"]
    accel = expansion.slices[4].data["spec"]["devices"]
    assert accel[:3] == [
        {
            "name": "acc-0",
            "consumesCounters": [{"counterSet": "acc-0-counters", "counters": {"cores": {"value": "4"}}}],
        },
        {
            "name": "acc-0-half-0",
            "consumesCounters": [{"counterSet": "acc-0-counters", "counters": {"cores": {"value": "2"}}}],
        },
        {
            "name": "acc-0-half-1",
            "consumesCounters": [{"counterSet": "acc-0-counters", "counters": {"cores": {"value": "2"}}}],
        },
    ]
    assert expansion.slices[5].data["spec"]["allNodes"] is True
    assert expansion.slices[6].data["spec"]["nodeSelector"]["nodeSelectorTerms"][0]["matchExpressions"][0] == {
        "key": "kubernetes.io/hostname",
        "operator": "In",
        "values": ["bigbox"],
    }


def test_validate_names_each_missing_required_field() -> None:
    errors = compact_schema.validate(_document("inventory/compact-missing.yaml"))
    assert [(e.problem, render(e.path), e.message) for e in errors] == [
        ("missing-field", "spec.networkPools[0]", "missing required field 'driver'"),
        ("missing-field", "spec.networkPools[0]", "missing required field 'devices'"),
        ("missing-field", "spec.nodePools[0]", "missing required field 'name'"),
        ("missing-field", "spec.nodePools[0]", "missing required field 'count'"),
    ]


def test_validate_reports_pool_sizes_outside_their_bounds() -> None:
    errors = compact_schema.validate(_document("inventory/compact-bounds.yaml"))
    assert [(render(e.path), e.message) for e in errors] == [
        ("spec.nodePools[0].maxCount", "maxCount 1 of node pool inverted is below its minCount 3"),
        ("spec.nodePools[1].count", "count 5 of node pool too-many is above its maxCount 4"),
        ("spec.nodePools[2].count", "count 0 of node pool too-few is below its minCount 1"),
    ]


def test_expand_node_continues_the_pool_numbering() -> None:
    pool = {"name": "a100", "count": 16, "devices": [{"driver": "gpu.example.com", "count": 2}]}
    node, slices = compact.expand_node(pool, ("spec", "nodePools", 0), 16, {"pool": "a100"})
    assert node.data["metadata"] == {"name": "a100-16", "labels": {"pool": "a100", "kubernetes.io/hostname": "a100-16"}}
    assert [(s.data["metadata"]["name"], s.data["spec"]["pool"]["name"]) for s in slices] == [
        ("a100-16-gpu-example-com-0", "a100-16")
    ]


def test_expand_shares_only_the_device_groups_that_read_no_node_placeholder() -> None:
    document = _document("inventory/compact-gpu.yaml")
    expansion = compact.expand(document)
    # node by node, without sharing anything: the same documents
    pool = document["spec"]["nodePools"][0]  # type: ignore[index]
    alone = [compact.expand_node(pool, ("spec", "nodePools", 0), n) for n in range(2)]
    assert [n.data for n in expansion.nodes] == [node.data for node, _ in alone]
    assert [s.data for s in expansion.slices[: len(alone[0][1]) * 2]] == [s.data for _, ss in alone for s in ss]
    first, second = (
        [
            d
            for s in expansion.slices
            if s.data["spec"].get("nodeName") == name
            for d in s.data["spec"].get("devices", [])
        ]
        for name in ("gpu-0", "gpu-1")
    )
    # "gpu-{index}" reads {node} in its uuid: each node has its own; the partitionable group is shared
    assert first[0] is not second[0] and first[0]["attributes"]["uuid"] != second[0]["attributes"]["uuid"]
    assert [d["name"] for d in first[2:]] == [d["name"] for d in second[2:]]
    assert all(a is b for a, b in zip(first[2:], second[2:], strict=True))
