"""Scale-down as the cluster autoscaler decides it: which under-used nodes can go, one at a time.

A node's utilisation is the highest of its node-local pools' (allocated over total devices, the
most used counter for partitionable devices, admin access not counted: see
:mod:`dralint.dryrun.utilisation`); a node without DRA devices uses the larger of its CPU and
memory requests over allocatable. A node of a node pool below the threshold is a candidate, the
least used first (then by name). It is removable when none of its pools is incomplete (slices
missing), its node pool stays at or above ``minCount``,
none of its pods must stay (a bare Pod without a controller, ``safe-to-evict: "false"``), no
allocation of a pod outside the inputs sits on its devices, and the dry-run places every one of
its pods on the other nodes, with their claims allocated again (a shared claim moves with all
its pods). DaemonSet pods go with the node. Each removal is committed before the next candidate.
"""

from __future__ import annotations

from collections.abc import Collection

from dralint.cluster.nodepools import NodePool
from dralint.dataclass import dataclass
from dralint.dryrun import resources
from dralint.dryrun.placement import Placement, Simulation
from dralint.dryrun.utilisation import PoolUtilisation, natural_key, utilisation
from dralint.plan.world import World

SAFE_TO_EVICT = "cluster-autoscaler.kubernetes.io/safe-to-evict"


@dataclass(frozen=True, slots=True)
class NodeUse:
    node: str
    utilisation: float
    incomplete: str | None  # a pool of the node that lacks slices ("driver/pool"): the autoscaler leaves the node alone
    dra: bool  # measured by its devices (else by CPU and memory)


@dataclass(frozen=True, slots=True)
class Removal:
    node: str
    pool: str
    utilisation: float
    moved: tuple[tuple[str, str], ...]  # (pod, new node), in placement order


@dataclass(frozen=True, slots=True)
class Kept:
    """A candidate that stays, and why."""

    node: str
    pool: str
    utilisation: float
    reason: str


def pool_utilisation(world: World) -> list[PoolUtilisation]:
    return utilisation(world.slices, world.allocations().values())


def node_utilisation(world: World, names: Collection[str] | None = None) -> dict[str, NodeUse]:
    """The utilisation of every node (or of the nodes ``names``) as the autoscaler computes it, by node name."""
    slices = world.slices if names is None else [e for e in world.slices if e.slice.node_name in names]
    local: dict[str, list[PoolUtilisation]] = {}
    for pool in utilisation(slices, world.allocations().values()):
        if len(pool.nodes) == 1:
            local.setdefault(pool.nodes[0], []).append(pool)
    requested: dict[str, resources.Amounts] = {}
    for placement in world.placed.values():
        if placement.node is not None and (names is None or placement.node in names):
            amounts = requested.setdefault(placement.node, {})
            resources.add(amounts, resources.pod_requests(placement.pod.template.spec))
    out: dict[str, NodeUse] = {}
    for entry in world.nodes:
        name = entry.node.name
        if names is not None and name not in names:
            continue
        pools = local.get(name, [])
        if pools:
            incomplete = next((f"{p.driver}/{p.pool}" for p in pools if p.incomplete), None)
            out[name] = NodeUse(name, max(p.utilisation for p in pools), incomplete, True)
            continue
        allocatable = resources.amounts(entry.node.allocatable or {})
        used = requested.get(name, {})
        shares = [used.get(r, 0) / allocatable[r] for r in ("cpu", "memory") if allocatable.get(r)]
        out[name] = NodeUse(name, max(shares, default=0.0), None, False)
    return out


def scale_down(world: World, threshold: float) -> tuple[list[Removal], list[Kept]]:
    """The nodes removed in order and the candidates kept (``world`` is changed)."""
    member = world.members()
    sizes = world.sizes()
    uses = node_utilisation(world)
    candidates = sorted(
        (use for name, use in uses.items() if name in member and use.utilisation < threshold),
        key=lambda use: (use.utilisation, natural_key(use.node)),
    )
    removed: list[Removal] = []
    kept: list[Kept] = []
    for candidate in candidates:
        use = uses[candidate.node]
        if use.utilisation >= threshold:
            continue  # pods moved onto it by an earlier removal: no longer under-used
        pool = member[use.node]
        reason = _blocked(world, pool, sizes[pool.name], use)
        moved: tuple[tuple[str, str], ...] = ()
        if reason is None:
            reason, moved = _move(world, use.node)
        if reason is not None:
            kept.append(Kept(use.node, pool.name, use.utilisation, reason))
            continue
        sizes[pool.name] -= 1
        removed.append(Removal(use.node, pool.name, use.utilisation, moved))
        if moved:  # only the nodes that took its pods are used more now
            uses.update(node_utilisation(world, {to for _, to in moved}))
    return removed, kept


def _blocked(world: World, pool: NodePool, size: int, use: NodeUse) -> str | None:
    node = use.node
    if use.incomplete is not None:
        return f"its pool {use.incomplete} is incomplete (slices missing): the autoscaler leaves such a node alone"
    if size <= pool.min_count:
        return f"node pool {pool.name} is at its minCount {pool.min_count}"
    for placement in world.pods_on(node):
        pod = placement.pod
        if pod.template.per_node:
            continue
        if pod.template.annotations.get(SAFE_TO_EVICT) == "false":
            return f'pod {pod.display} is annotated {SAFE_TO_EVICT}: "false"'
        if pod.template.owner.kind == "Pod" and not _controlled(placement):
            return f"pod {pod.display} has no controller: it would not be recreated elsewhere"
    local = {(e.slice.driver, e.slice.pool.name) for e in world.slices if e.slice.node_name == node}
    for (namespace, name), allocation in sorted(world.held.items()):
        if any((r.driver, r.pool) in local for r in allocation.results):
            return f"ResourceClaim {namespace}/{name}, allocated to a pod not in the inputs, holds its devices"
    return None


def _controlled(placement: Placement) -> bool:
    references = placement.pod.template.owner.raw.get("metadata", {}).get("ownerReferences") or []
    return any(isinstance(r, dict) and r.get("controller") is True for r in references)


def _move(world: World, node: str) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """Try the node's pods elsewhere; commit and return the moves when all fit, else why not."""
    on_node = world.pods_on(node)
    leaving = [p.pod.display for p in on_node]
    movers = [p.pod for p in on_node if not p.pod.template.per_node]
    nodes = [entry for entry in world.nodes if entry.node.name != node]
    slices = [entry for entry in world.slices if entry.slice.node_name != node]
    # (an empty node, or one with DaemonSet pods only, needs no simulation: nothing moves)
    simulation = world.place(movers, nodes, slices, without=leaving) if movers else Simulation()
    for placement in [*simulation.placements, *simulation.others]:
        if placement.outcome != "placed":
            return f"pod {placement.pod.display} fits on no other node: {placement.reason}", ()
    world.commit(simulation, without=leaving)
    world.nodes = nodes
    world.slices = slices
    placements = [*simulation.placements, *simulation.others]
    rank = {pod.display: i for i, pod in enumerate(movers)}
    placements.sort(key=lambda p: rank[p.pod.display])
    return None, tuple((p.pod.display, p.node or "") for p in placements)
