"""Scale-up as the cluster autoscaler decides it: per node pool, how many template nodes place the pending pods.

For each pool that may grow, the binpacking estimate is the dry-run itself on template nodes:
the pool's remaining room (``maxCount`` minus its size) as fresh nodes, each starting with the
DaemonSet pods that would run on it, then the pending pods placed first-fit with the full
allocator (claims already allocated and shared claims as they are). The nodes up to the last
one a pending pod went to are the option; a second run on exactly those nodes gives its
placements. An expander picks one option, the pods it places are committed, and the next round
starts from there, until every pod fits or no pool helps.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from dralint.api import meta, model
from dralint.cluster import compact, nodepools
from dralint.cluster.inventory import NodeEntry, Origin, SliceEntry, expansion_entries
from dralint.cluster.nodepools import NodePool
from dralint.cluster.pods import Pod, daemon_pods
from dralint.dataclass import dataclass
from dralint.dryrun import eligibility, resources
from dralint.dryrun.placement import Simulation
from dralint.plan.world import World

Expander = Literal["least-waste", "most-pods", "priority", "price"]
EXPANDERS: tuple[Expander, ...] = ("least-waste", "most-pods", "priority", "price")
# Pods the dry-run left unplaced that more nodes may help: the rest (rejected, missing claims,
# allocator errors, a claim with too many consumers) fail the same way on any node.
HELPABLE = frozenset({"no-node", "unsatisfiable", "claim-elsewhere", "no-resource"})


@dataclass(frozen=True, slots=True)
class Option:
    """Adding ``nodes`` to ``pool``: the pending pods they place, and what they leave unused."""

    pool: NodePool
    position: int  # of the pool among all pools (the last tie-break)
    nodes: tuple[NodeEntry, ...]
    slices: tuple[SliceEntry, ...]
    widened: tuple[tuple[int, SliceEntry], ...]  # network slices (by index in the world) that reach the new nodes
    simulation: Simulation
    pods: tuple[str, ...]  # pending pods placed, in placement order
    unused_devices: float  # share of the new nodes' devices left unallocated
    unused_resources: float  # share of their CPU plus share of their memory left unrequested


@dataclass(frozen=True, slots=True)
class Decision:
    pool: NodePool
    nodes: tuple[str, ...]
    pods: tuple[str, ...]


def pending(world: World) -> list[Pod]:
    """The pods the dry-run left unplaced that more nodes might place, in dry-run order."""
    simulation = world.analysis.simulation
    return [p.pod for p in [*simulation.placements, *simulation.others] if p.outcome in HELPABLE]


def scale_up(world: World, expander: Expander) -> tuple[list[Decision], list[Pod]]:
    """The decisions in order, and the pods still pending after them (``world`` is changed)."""
    waiting = pending(world)
    decisions: list[Decision] = []
    pools = world.analysis.inventory.pools
    sizes = world.sizes()
    while waiting:
        options = []
        for position, pool in enumerate(pools):
            room = pool.max_count - sizes[pool.name]
            if room > 0:
                option = _estimate(world, pool, position, room, waiting)
                if option is not None:
                    options.append(option)
        if not options:
            break
        best = min(options, key=lambda o: _rank(o, expander))
        _commit(world, best)
        sizes[best.pool.name] += len(best.nodes)
        done = set(best.pods)
        waiting = [pod for pod in waiting if pod.display not in done]
        decisions.append(Decision(best.pool, tuple(n.node.name for n in best.nodes), best.pods))
    return decisions, waiting


def _rank(option: Option, expander: Expander) -> tuple[float, ...]:
    """Smaller is better; every expander ends with the pool's position, so the choice is deterministic."""
    waste = (option.unused_devices, option.unused_resources)
    pods = len(option.pods)
    if expander == "most-pods":
        return (-pods, *waste, option.position)
    if expander == "priority":
        return (-option.pool.priority, *waste, option.position)
    if expander == "price":
        cost = option.pool.cost
        per_pod = cost * len(option.nodes) / pods if cost is not None else float("inf")
        return (per_pod, *waste, option.position)
    return (*waste, -pods, option.position)


def _estimate(world: World, pool: NodePool, position: int, room: int, waiting: Sequence[Pod]) -> Option | None:
    taken = {entry.node.name for entry in world.nodes}
    names = nodepools.template_names(pool, taken, room)
    first, _ = _templates(world, pool, names[:1])
    # Pods the template node's labels and taints turn away are turned away by every new node of the
    # pool: leave them out rather than have each one explain why no node admits it.
    admitted = [pod for pod in waiting if _admits(first[0], pod)]
    if not admitted:
        return None
    trial = _run(world, pool, position, names, admitted)
    if not trial.pods:
        return None
    placed = set(trial.pods)
    every = [*trial.simulation.placements, *trial.simulation.others]
    used = {p.node for p in every if p.pod.display in placed}
    count = max(i for i, (_, name) in enumerate(names) if name in used) + 1
    if count == len(names):
        return trial
    # Nodes past the last one a pending pod needs are not added. When nothing landed on them (no
    # DaemonSet pod), placing on fewer nodes decides the same: first fit never looked past them.
    spare = {name for _, name in names[count:]}
    if not any(p.node in spare for p in every if p.outcome == "placed"):
        return _trimmed(trial, count)
    return _run(world, pool, position, names[:count], admitted)


def _trimmed(option: Option, count: int) -> Option:
    """``option`` with only its first ``count`` nodes, none of the others holding a pod."""
    nodes = option.nodes[:count]
    kept = {entry.node.name for entry in nodes}
    slices = tuple(entry for entry in option.slices if entry.slice.node_name in kept)
    devices, resource_waste = _waste(nodes, slices, option.simulation)
    return dataclasses.replace(
        option, nodes=nodes, slices=slices, unused_devices=devices, unused_resources=resource_waste
    )


def _admits(node: NodeEntry, pod: Pod) -> bool:
    if pod.node_name:
        return pod.node_name == node.node.name
    return eligibility.exclusion(node.node, pod.template.spec, pod.tolerations) is None


def _run(
    world: World, pool: NodePool, position: int, names: Sequence[tuple[int, str]], waiting: Sequence[Pod]
) -> Option:
    nodes, slices = _templates(world, pool, names)
    widened = tuple(_widened(world, pool, [name for _, name in names]))
    every_slice = list(world.slices)
    for index, entry in widened:
        every_slice[index] = entry
    every_slice.extend(slices)
    analysis = world.analysis
    assert analysis.claim_index is not None
    daemons = daemon_pods(analysis.templates, analysis.claim_index, nodes, analysis.extended)
    simulation = world.place([*daemons, *waiting], nodes, every_slice, neighbours=False, explain=False)
    rank = {pod.display: i for i, pod in enumerate(waiting)}
    placed = sorted(
        (p.pod.display for p in [*simulation.placements, *simulation.others] if p.outcome == "placed"),
        key=lambda name: rank.get(name, -1),
    )
    placed = [name for name in placed if name in rank]
    devices, resource_waste = _waste(nodes, slices, simulation)
    return Option(
        pool, position, tuple(nodes), tuple(slices), widened, simulation, tuple(placed), devices, resource_waste
    )


def _templates(
    world: World, pool: NodePool, names: Sequence[tuple[int, str]]
) -> tuple[list[NodeEntry], list[SliceEntry]]:
    """Template nodes named ``names`` with their node-local slices; a pool name another node already
    uses is suffixed with the new node's name, as the autoscaler sanitises template slices. Each
    template is made once per run (every estimate of the pool asks for the same names)."""
    nodes: list[NodeEntry] = []
    slices: list[SliceEntry] = []
    taken: set[tuple[str, str]] | None = None
    for index, name in names:
        made = world.templates.get(name)
        if made is None:
            taken = world.pool_names() if taken is None else taken
            made = world.templates[name] = _template(world, pool, index, name, taken)
        nodes.append(made[0])
        slices.extend(made[1])
    return nodes, slices


def _template(
    world: World, pool: NodePool, index: int, name: str, taken: set[tuple[str, str]]
) -> tuple[NodeEntry, list[SliceEntry]]:
    if pool.describes_devices or not pool.members:
        node_entries, slice_entries = expansion_entries(pool.document, nodepools.template_node(pool, index))
    else:
        node_entries, slice_entries = _copied(world, pool, name)
    slices = [
        dataclasses.replace(entry, slice=nodepools.sanitise_slice(entry.slice, name))
        if entry.slice.node_name and (entry.slice.driver, entry.slice.pool.name) in taken
        else entry
        for entry in slice_entries
    ]
    return node_entries[0], slices


def _copied(world: World, pool: NodePool, name: str) -> tuple[list[NodeEntry], list[SliceEntry]]:
    """The template of a pool without a device description: its first member, sanitised."""
    first = pool.members[0]
    member = next(entry for entry in world.analysis.inventory.nodes if entry.node.name == first)
    node = NodeEntry(nodepools.sanitise_node(member.node, name), member.origin or Origin(pool.document, pool.path))
    slices = [
        dataclasses.replace(entry, slice=nodepools.sanitise_slice(entry.slice, name))
        for entry in world.analysis.inventory.slices
        if entry.slice.node_name == first
    ]
    return [node], slices


def _widened(world: World, pool: NodePool, names: Sequence[str]) -> list[tuple[int, SliceEntry]]:
    """Network slices that reach every node of ``pool`` (``nodePools: [pool]``), with the new nodes added."""
    out = []
    for index, entry in enumerate(world.slices):
        path = entry.origin.path
        if entry.origin.obj is not pool.document or len(path) != 3 or path[1] != "networkPools":
            continue
        network = pool.document.raw["spec"]["networkPools"][path[2]]
        selector = entry.slice.node_selector
        if pool.name not in (network.get("nodePools") or ()) or selector is None:
            continue
        requirement = meta.NodeSelectorRequirement(compact.HOSTNAME_LABEL, "In", tuple(names))
        wider = model.NodeSelector((*selector.terms, meta.NodeSelectorTerm((requirement,))))
        out.append((index, dataclasses.replace(entry, slice=dataclasses.replace(entry.slice, node_selector=wider))))
    return out


def _waste(nodes: Sequence[NodeEntry], slices: Sequence[SliceEntry], simulation: Simulation) -> tuple[float, float]:
    """The share of the new nodes' devices left unallocated, and of their CPU plus their memory left free."""
    names = {entry.node.name for entry in nodes}
    total = sum(len(entry.slice.devices) for entry in slices)
    taken: set[tuple[str, str, str]] = set()
    requested: dict[str, resources.Amounts] = {name: {} for name in names}
    for placement in [*simulation.placements, *simulation.others]:
        if placement.outcome != "placed" or placement.node not in names:
            continue
        for _, allocation in placement.allocations:
            for result in allocation.results:
                if not result.admin_access:
                    taken.add((result.driver, result.pool, result.device))
        resources.add(requested[placement.node], resources.pod_requests(placement.pod.template.spec))
    local = {(e.slice.driver, e.slice.pool.name) for e in slices}
    used = sum(1 for driver, pool, _ in taken if (driver, pool) in local)
    devices = (total - used) / total if total else 0.0
    free = 0.0
    for entry in nodes:
        allocatable = resources.amounts(entry.node.allocatable or {})
        for resource in ("cpu", "memory"):
            if allocatable.get(resource):
                free += 1 - requested[entry.node.name].get(resource, 0) / allocatable[resource]
    return devices, free / len(nodes) if nodes else 0.0


def _commit(world: World, option: Option) -> None:
    for index, entry in option.widened:
        world.slices[index] = entry
    world.slices.extend(option.slices)
    world.nodes.extend(option.nodes)
    world.commit(option.simulation)
