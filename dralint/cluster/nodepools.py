"""The node pools of compact Inventory documents as the cluster autoscaler sees node groups.

A node pool is a node group: its current members (the nodes expanded from its description and
the Nodes of the inputs its ``nodeSelector`` picks), the bounds the autoscaler keeps it within
(``minCount``, ``maxCount``), what one more node costs or how much it is preferred, and a way to
make a fresh template node. Template nodes are built from the pool's description, or, for a pool
that only selects real Nodes and describes no devices, copied from its first member with its
node-local slices renamed, as the autoscaler sanitises a template NodeInfo
(``SanitizedNodeInfo`` / ``sanitizeNodeResourceSlices``): a fresh node name, and every node-local
pool and slice suffixed so that no two nodes share a pool. Network-attached pools are never
copied: they stay the one pool every node reaches.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dralint.apimachinery.fieldpath import Path
from dralint.cluster import compact
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.api import model
    from dralint.api.objects import KubeObject


@dataclass(frozen=True, slots=True)
class NodePool:
    name: str
    spec: Mapping[str, Any]  # the pool as written in its (valid) Inventory document
    document: KubeObject
    path: Path  # ("spec", "nodePools", p)
    count: int  # nodes made from the description
    min_count: int
    max_count: int
    priority: int
    cost: float | None
    node_selector: Mapping[str, str]
    members: tuple[str, ...] = ()  # node names, expanded ones first, then the selected Nodes in input order

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def describes_devices(self) -> bool:
        return bool(self.spec.get("devices"))


def from_document(document: KubeObject) -> list[NodePool]:
    """The node pools of a valid Inventory document (members filled in later by :func:`with_members`)."""
    out = []
    for p, pool in enumerate((document.raw.get("spec") or {}).get("nodePools") or []):
        count = pool["count"]
        out.append(
            NodePool(
                name=pool["name"],
                spec=pool,
                document=document,
                path=("spec", "nodePools", p),
                count=count,
                min_count=pool.get("minCount", count),
                max_count=pool.get("maxCount", count),
                priority=pool.get("priority", 0),
                cost=pool.get("cost"),
                node_selector=dict(pool.get("nodeSelector") or {}),
            )
        )
    return out


def with_members(
    pools: Sequence[NodePool], nodes: Sequence[tuple[model.Node, KubeObject | None, Path]]
) -> list[NodePool]:
    """``pools`` with their members: each node (with the object and path it came from) joins the first pool
    that expanded it or whose ``nodeSelector`` its labels satisfy."""
    members: dict[int, list[str]] = {i: [] for i in range(len(pools))}
    for node, obj, path in nodes:
        for i, pool in enumerate(pools):
            expanded = obj is pool.document and path == pool.path
            selected = (
                obj is not None
                and obj.kind == "Node"
                and bool(pool.node_selector)
                and all(node.labels.get(k) == v for k, v in pool.node_selector.items())
            )
            if expanded or selected:
                members[i].append(node.name)
                break
    return [dataclasses.replace(pool, members=tuple(members[i])) for i, pool in enumerate(pools)]


def template_names(pool: NodePool, taken: set[str], count: int) -> list[tuple[int, str]]:
    """``count`` fresh (index, node name) pairs continuing the pool's numbering (``a100-16`` after
    ``a100-15``), skipping names already in use."""
    names: list[tuple[int, str]] = []
    index = pool.count
    while len(names) < count:
        name = compact.node_name(pool.spec, index)
        if name not in taken:
            names.append((index, name))
        index += 1
    return names


def template_node(pool: NodePool, index: int) -> compact.Expansion:
    """Node ``index`` of ``pool`` (from :func:`template_names`) with its node-local slices.

    Its labels include the pool's ``nodeSelector``, so workloads that select the pool's nodes by
    those labels select it too.
    """
    node, slices = compact.expand_node(pool.spec, pool.path, index, pool.node_selector)
    return compact.Expansion((node,), tuple(slices))


def sanitise_node(node: model.Node, name: str) -> model.Node:
    """A member Node copied as the template node ``name``: its labels and allocatable, a fresh name and hostname."""
    labels = {**node.labels, compact.HOSTNAME_LABEL: name}
    meta = dataclasses.replace(node.meta, name=name, labels=labels)
    return dataclasses.replace(node, meta=meta, unschedulable=False)


def sanitise_slice(resource_slice: model.ResourceSlice, node: str) -> model.ResourceSlice:
    """A node-local ResourceSlice as the autoscaler copies it onto template node ``node``: bound to that
    node, its pool and its own name suffixed with the node's name (so no two nodes share a pool)."""
    meta = dataclasses.replace(resource_slice.meta, name=f"{resource_slice.name}-{node}")
    pool = dataclasses.replace(resource_slice.pool, name=f"{resource_slice.pool.name}-{node}")
    return dataclasses.replace(resource_slice, meta=meta, pool=pool, node_name=node)
