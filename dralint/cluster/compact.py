"""Expansion of a (valid) compact ``Inventory`` document into v1 Nodes and ResourceSlices.

Node pools become ``count`` nodes, each with one pool per driver holding the pool's devices;
network pools become slices selecting their nodes; partitionable devices get a counter set
(in a separate counter slice, as the API requires since 1.35) that the whole device and each
partition consume. Every generated object remembers the path in the Inventory document it
came from, so findings about generated devices point at the line the user wrote.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass

HOSTNAME_LABEL = "kubernetes.io/hostname"
MAX_DEVICES_PER_SLICE = 128
MAX_DEVICES_PER_SLICE_WITH_EXTRAS = 64  # devices with taints, counters or binding conditions
MAX_COUNTER_SETS_PER_SLICE = 8
_PLACEHOLDER = re.compile(r"\{(pool|node|nodeIndex|index|partition|driver)\}")


@dataclass(frozen=True, slots=True)
class ExpandedNode:
    data: dict[str, Any]
    path: Path  # the node pool in the Inventory document


@dataclass(frozen=True, slots=True)
class ExpandedSlice:
    data: dict[str, Any]
    path: Path  # the node pool or network pool in the Inventory document
    device_paths: tuple[Path, ...]  # per device of the slice: its device group (or partition group)


@dataclass(frozen=True, slots=True)
class Expansion:
    nodes: tuple[ExpandedNode, ...]
    slices: tuple[ExpandedSlice, ...]


def expand(document: Mapping[str, Any]) -> Expansion:
    """The Nodes and ResourceSlices an Inventory document stands for, in document order."""
    spec = document.get("spec") or {}
    nodes: list[ExpandedNode] = []
    slices: list[ExpandedSlice] = []
    pool_nodes: dict[str, list[str]] = {}
    groups = _Groups({}, {})  # (the document, and so every group, lives as long as the expansion)
    for p, pool in enumerate(spec.get("nodePools") or []):
        pool_path: Path = ("spec", "nodePools", p)
        names = pool_nodes.setdefault(pool["name"], [])
        for n in range(pool["count"]):
            node, node_slices = expand_node(pool, pool_path, n, groups=groups)
            names.append(node.data["metadata"]["name"])
            nodes.append(node)
            slices.extend(node_slices)
    for w, network in enumerate(spec.get("networkPools") or []):
        slices.extend(_network_slices(network, ("spec", "networkPools", w), pool_nodes))
    return Expansion(tuple(nodes), tuple(slices))


def node_name(pool: Mapping[str, Any], index: int) -> str:
    """The name of node ``index`` of a node pool (its ``nodeName`` pattern, default ``{pool}-{index}``)."""
    return _fill(
        pool.get("nodeName", "{pool}-{index}"), {"pool": pool["name"], "nodeIndex": str(index), "index": str(index)}
    )


def expand_node(
    pool: Mapping[str, Any],
    pool_path: Path,
    index: int,
    extra_labels: Mapping[str, str] | None = None,
    *,
    groups: _Groups | None = None,
) -> tuple[ExpandedNode, list[ExpandedSlice]]:
    """Node ``index`` of a node pool and its slices (also the autoscaler's template node for a new index).

    ``extra_labels`` are added under the pool's own (a planner's template node carries the labels
    that make it a member of its pool). ``groups`` memoises device groups across the nodes of a
    pool (see :func:`_add_group`).
    """
    values = {"pool": pool["name"], "nodeIndex": str(index), "index": str(index)}
    name = node_name(pool, index)
    values["node"] = name
    data = _node(pool, name, values)
    if extra_labels:
        data["metadata"]["labels"] = {**extra_labels, **data["metadata"]["labels"]}
    return ExpandedNode(data, pool_path), list(_node_slices(pool, pool_path, name, values, groups))


def _fill(text: str, values: Mapping[str, str]) -> str:
    if "{" not in text:
        return text  # most names and values have no placeholder: no regular expression to run
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def _node(pool: Mapping[str, Any], name: str, values: Mapping[str, str]) -> dict[str, Any]:
    labels = {HOSTNAME_LABEL: name}
    labels.update({k: _fill(v, values) for k, v in (pool.get("labels") or {}).items()})
    data: dict[str, Any] = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels}}
    if pool.get("taints"):
        data["spec"] = {"taints": [dict(t) for t in pool["taints"]]}
    if pool.get("allocatable"):
        data["status"] = {"allocatable": {k: _quantity(v) for k, v in pool["allocatable"].items()}}
    return data


@dataclass(slots=True)
class _Pool:
    """Devices and counter sets gathered for one (driver, pool name) before slicing."""

    driver: str
    name: str
    devices: list[tuple[dict[str, Any], Path]]
    counter_sets: list[dict[str, Any]]


def _node_slices(
    pool: Mapping[str, Any], pool_path: Path, node_name: str, values: dict[str, str], groups: _Groups | None = None
) -> Iterator[ExpandedSlice]:
    pools: dict[tuple[str, str], _Pool] = {}
    for g, group in enumerate(pool.get("devices") or []):
        group_path: Path = (*pool_path, "devices", g)
        group_values = {**values, "driver": group["driver"]}
        pool_name = _fill(group.get("pool", "{node}"), group_values)
        target = pools.setdefault(
            (group["driver"], pool_name), _Pool(group["driver"], pool_name, devices=[], counter_sets=[])
        )
        _add_group(target, group, group_path, group_values, groups)
    for target in pools.values():
        yield from _slices(target, pool_path, {"nodeName": node_name}, f"{node_name}-{_dns(target.driver)}")


def _network_slices(
    network: Mapping[str, Any], path: Path, pool_nodes: Mapping[str, list[str]]
) -> Iterator[ExpandedSlice]:
    values = {"driver": network["driver"], "pool": network["name"]}
    pool_name = _fill(network["name"], values)
    target = _Pool(network["driver"], pool_name, devices=[], counter_sets=[])
    for g, group in enumerate(network["devices"]):
        _add_group(target, group, (*path, "devices", g), values)
    placement: dict[str, Any]
    if network.get("allNodes"):
        placement = {"allNodes": True}
    elif "nodePools" in network:
        hosts = sorted({name for pool in network["nodePools"] for name in pool_nodes.get(pool, [])})
        requirement = {"key": HOSTNAME_LABEL, "operator": "In", "values": hosts}
        placement = {"nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [requirement]}]}}
    else:
        placement = {"nodeSelector": _plain(network["nodeSelector"])}
    yield from _slices(target, path, placement, _dns(pool_name))


@dataclass(slots=True)
class _Groups:
    """Device groups expanded so far: by group and the values its placeholders read; and what they read."""

    expanded: dict[tuple[object, ...], tuple[list[tuple[dict[str, Any], Path]], list[dict[str, Any]]]]
    reads: dict[int, frozenset[str]]


# Placeholders whose value is the same for every device of a group on every node of its pool
# ("index" and "partition" are the device's and the partition's own): a group that reads no
# other is expanded once per pool, and its devices are shared by the pool's nodes.
_POOL_WIDE = frozenset({"pool", "driver", "index", "partition"})


def _add_group(
    target: _Pool, group: Mapping[str, Any], path: Path, values: Mapping[str, str], groups: _Groups | None = None
) -> None:
    """The devices (and counter sets) of one device group on one node, into ``target``.

    With ``groups``, a group whose text reads no node placeholder ({node}, {nodeIndex}) is
    expanded on the first node of its pool only; the other nodes share those device objects
    (expanding 10,000 nodes device by device dominated the inventory). Sharing across nodes
    is safe: an expansion is never modified, and each generated object is printed on its own.
    """
    if groups is None:
        _expand_group(target, group, path, values)
        return
    read = groups.reads.get(id(group))
    if read is None:
        read = groups.reads[id(group)] = _placeholders(group) - _POOL_WIDE
    key = (id(group), path, values.get("pool"), *(values.get(name) for name in sorted(read)))
    known = groups.expanded.get(key)
    if known is None:
        expanded = _Pool(target.driver, target.name, devices=[], counter_sets=[])
        _expand_group(expanded, group, path, values)
        known = groups.expanded[key] = (expanded.devices, expanded.counter_sets)
    target.devices.extend(known[0])
    target.counter_sets.extend(known[1])


def _placeholders(data: Any) -> frozenset[str]:
    """The placeholders any text in ``data`` uses."""
    if isinstance(data, str):
        return frozenset(_PLACEHOLDER.findall(data)) if "{" in data else frozenset()
    if isinstance(data, Mapping):
        return frozenset().union(*(_placeholders(v) for v in data.values()))
    if isinstance(data, list):
        return frozenset().union(*(_placeholders(v) for v in data))
    return frozenset()


def _expand_group(target: _Pool, group: Mapping[str, Any], path: Path, values: Mapping[str, str]) -> None:
    partitions = group.get("partitions")
    for i in range(group.get("count", 1)):
        device_values = {**values, "index": str(i)}
        device = _device(group, _fill(group.get("name", "device-{index}"), device_values), device_values)
        if partitions is None:
            target.devices.append((device, path))
            continue
        set_name = f"{device['name']}-counters"
        counters = {name: {"value": _quantity(q)} for name, q in partitions["counters"].items()}
        target.counter_sets.append({"name": set_name, "counters": counters})
        device["consumesCounters"] = [{"counterSet": set_name, "counters": _plain(counters)}]
        target.devices.append((device, path))
        for k, part in enumerate(partitions["devices"]):
            part_path: Path = (*path, "partitions", "devices", k)
            for j in range(part.get("count", 1)):
                part_values = {**device_values, "partition": str(j)}
                merged = {**part, "attributes": {**(group.get("attributes") or {}), **(part.get("attributes") or {})}}
                child = _device(merged, _fill(part["name"], part_values), part_values)
                consumed = {name: {"value": _quantity(q)} for name, q in part["consumes"].items()}
                child["consumesCounters"] = [{"counterSet": set_name, "counters": consumed}]
                target.devices.append((child, part_path))


def _device(group: Mapping[str, Any], name: str, values: Mapping[str, str]) -> dict[str, Any]:
    device: dict[str, Any] = {"name": name}
    attributes = {key: _attribute(value, values) for key, value in (group.get("attributes") or {}).items()}
    if attributes:
        device["attributes"] = attributes
    capacity = {key: _capacity(value) for key, value in (group.get("capacity") or {}).items()}
    if capacity:
        device["capacity"] = capacity
    for field in ("allowMultipleAllocations", "bindsToNode"):
        if field in group:
            device[field] = group[field]
    for field in ("taints", "bindingConditions", "bindingFailureConditions"):
        if group.get(field):
            device[field] = _plain(group[field])
    return device


def _attribute(value: Any, values: Mapping[str, str]) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, str):
        return {"string": _fill(value, values)}
    (kind, raw), *_ = value.items()
    if kind == "int":
        return {"int": _int(raw, values)}
    if kind == "ints":
        return {"ints": [_int(v, values) for v in raw]}
    if kind in ("string", "version"):
        return {kind: _fill(raw, values)}
    if kind in ("strings", "versions"):
        return {kind: [_fill(v, values) for v in raw]}
    return {kind: _plain(raw)}


def _int(raw: Any, values: Mapping[str, str]) -> Any:
    if isinstance(raw, str):
        filled = _fill(raw, values)
        try:
            return int(filled)
        except ValueError:
            return filled  # left for API validation to report, as the server would
    return raw


def _capacity(value: Any) -> dict[str, Any]:
    if isinstance(value, Mapping):
        out: dict[str, Any] = {"value": _quantity(value["value"])}
        if "requestPolicy" in value:
            out["requestPolicy"] = _quantities(value["requestPolicy"])
        return out
    return {"value": _quantity(value)}


def _quantities(data: Any) -> Any:
    if isinstance(data, Mapping):
        return {k: _quantities(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_quantities(v) for v in data]
    return _quantity(data)


def _quantity(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _plain(data: Any) -> Any:
    """A deep copy made of plain dicts and lists (the generated YAML must not share nodes)."""
    if isinstance(data, Mapping):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


def _dns(text: str) -> str:
    """``gpu.example.com`` → ``gpu-example-com``: usable inside an object name."""
    return re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-") or "x"


def _slices(target: _Pool, path: Path, placement: Mapping[str, Any], base: str) -> Iterator[ExpandedSlice]:
    """Cut a pool into slices within the API's per-slice limits, counter slices first."""
    chunks: list[tuple[list[dict[str, Any]], list[Path], list[dict[str, Any]]]] = []
    for start in range(0, len(target.counter_sets), MAX_COUNTER_SETS_PER_SLICE):
        chunks.append(([], [], target.counter_sets[start : start + MAX_COUNTER_SETS_PER_SLICE]))
    devices: list[dict[str, Any]] = []
    paths: list[Path] = []
    extras = False
    for device, device_path in target.devices:
        extras = extras or _has_extras(device)
        if len(devices) >= (MAX_DEVICES_PER_SLICE_WITH_EXTRAS if extras else MAX_DEVICES_PER_SLICE):
            chunks.append((devices, paths, []))
            devices, paths = [], []
            extras = _has_extras(device)
        devices.append(device)
        paths.append(device_path)
    if devices or not chunks:
        chunks.append((devices, paths, []))
    for k, (chunk_devices, chunk_paths, counter_sets) in enumerate(chunks):
        spec: dict[str, Any] = {
            "driver": target.driver,
            "pool": {"name": target.name, "generation": 1, "resourceSliceCount": len(chunks)},
            **_plain(placement),
        }
        if counter_sets:
            spec["sharedCounters"] = counter_sets
        else:
            spec["devices"] = chunk_devices
        data = {
            "apiVersion": "resource.k8s.io/v1",
            "kind": "ResourceSlice",
            "metadata": {"name": f"{base}-{k}"},
            "spec": spec,
        }
        yield ExpandedSlice(data, path, tuple(chunk_paths))


def _has_extras(device: Mapping[str, Any]) -> bool:
    return any(device.get(f) for f in ("taints", "consumesCounters", "bindingConditions", "bindingFailureConditions"))
