"""The simulated cluster the planner changes: nodes, slices, and where every pod runs with which devices.

The planner starts from the dry-run (:class:`~dralint.dryrun.analysis.Analysis`) and adds template
nodes or takes nodes away. Each change is tried with the dry-run's own placement
(:func:`dralint.dryrun.placement.simulate`) and the full allocator over a :class:`Cluster` rebuilt
from what stays allocated; allocations are derived from the placements, so removing a pod releases
its claims, and a claim several pods share stays allocated while one of them keeps it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import field

from dralint.allocator.prepare import apply_taint_rules, taint_rules_apply
from dralint.api import model
from dralint.cluster.inventory import NodeEntry, SliceEntry
from dralint.cluster.nodepools import NodePool
from dralint.cluster.pods import Pod
from dralint.dataclass import dataclass
from dralint.dryrun import resources
from dralint.dryrun.analysis import Analysis
from dralint.dryrun.filters import PlacedPods
from dralint.dryrun.placement import Placement, Simulation, simulate
from dralint.dryrun.state import Cluster

ClaimKey = tuple[str, str]


@dataclass(slots=True)
class World:
    """The cluster as the planner has changed it so far (mutable)."""

    analysis: Analysis
    nodes: list[NodeEntry]
    slices: list[SliceEntry]  # as written or expanded (taint rules not applied)
    placed: dict[str, Placement]  # pod (namespace/name) -> its placement, for every placed pod
    order: list[Pod]  # every pod the planner knows, in placement order (dry-run order, then new ones)
    # claims allocated in the inventory that no simulated pod uses: they hold their devices for good
    held: dict[ClaimKey, model.AllocationResult]
    # template nodes made so far, by name: the estimates of one pool ask for the same ones again
    templates: dict[str, tuple[NodeEntry, list[SliceEntry]]] = field(default_factory=dict)

    @classmethod
    def start(cls, analysis: Analysis) -> World:
        simulation = analysis.simulation
        every = [*simulation.placements, *simulation.others]
        placed = {p.pod.display: p for p in every if p.outcome == "placed"}
        used = {use.key for p in every for use in p.pod.claims if use.claim is not None}
        held = {
            (entry.claim.namespace, entry.claim.name): entry.claim.allocation
            for entry in analysis.inventory.allocated
            if entry.claim.allocation is not None and (entry.claim.namespace, entry.claim.name) not in used
        }
        return cls(analysis, list(analysis.inventory.nodes), list(analysis.inventory.slices), placed, [], held)

    def allocations(self, without: Iterable[str] = ()) -> dict[ClaimKey, model.AllocationResult]:
        """Every claim allocated now (inventory allocations first), except the claims only pods ``without`` use."""
        skip = set(without)
        out = dict(self.held)
        keep: set[ClaimKey] = set()
        for name, placement in self.placed.items():
            if name not in skip:
                keep.update(use.key for use, _ in placement.allocations)
        for placement in self.placed.values():
            for use, allocation in placement.allocations:
                if use.key in keep:
                    out.setdefault(use.key, allocation)
        return out

    def consumers(self, without: Iterable[str] = ()) -> dict[ClaimKey, int]:
        skip = set(without)
        out: dict[ClaimKey, int] = {}
        for name, placement in self.placed.items():
            if name in skip:
                continue
            for use, _ in placement.allocations:
                if use.shared:
                    out[use.key] = out.get(use.key, 0) + 1
        return out

    def cluster(self, slices: Sequence[SliceEntry], allocations: Iterable[model.AllocationResult]) -> Cluster:
        """An allocator's view of ``slices`` with ``allocations`` taken (the dry-run's features and budget)."""
        analysis = self.analysis
        typed = [entry.slice for entry in slices]
        if taint_rules_apply(analysis.target):
            rules = [entry.rule for entry in analysis.inventory.taint_rules]
            typed = apply_taint_rules(typed, rules, analysis.cluster.classes)
        cluster = Cluster(
            typed,
            analysis.cluster.classes,
            analysis.features,
            budget=analysis.cluster.budget,
            release=analysis.cluster.release,
        )
        cluster.add(allocations)
        return cluster

    def place(
        self,
        pods: Sequence[Pod],
        nodes: Sequence[NodeEntry],
        slices: Sequence[SliceEntry],
        *,
        without: Iterable[str] = (),
        neighbours: bool = True,
        explain: bool = True,
    ) -> Simulation:
        """Place ``pods`` in order on ``nodes`` (nothing of the world changes).

        ``slices`` are every slice of the cluster tried against; the pods ``without`` are taken out
        first (their claims released unless another pod keeps them). ``neighbours`` counts the
        pods already on ``nodes`` for the resource, affinity and spread filters; without
        ``explain`` the pods that do not fit get no reason.
        """
        skip = set(without)
        allocations = self.allocations(skip)
        cluster = self.cluster(slices, allocations.values())
        analysis = self.analysis
        placed = PlacedPods(
            nodes,
            namespaces=analysis.namespaces,
            dra_backed=analysis.extended.keys(),
            inter_pod=analysis.inter_pod,
            zero_is_listed=resources.listed_at_zero_is_device_plugins(analysis.target.release),
        )
        if neighbours:
            index = {entry.node.name: i for i, entry in enumerate(nodes)}
            for name, placement in self.placed.items():
                at = index.get(placement.node or "")
                if at is not None and name not in skip:
                    placed.add(placement.pod, at)
        fresh = [_fresh(pod, allocations) for pod in pods]
        return simulate(
            fresh,
            nodes,
            cluster.attempt,
            cluster.add,
            cluster.remove,
            preallocated=allocations,
            preconsumers=self.consumers(skip),
            reserved_for=analysis.reserved_for,
            placed=placed,
            explain=explain,
            skip=cluster.screen([entry.node for entry in nodes]).skip,
        )

    def commit(self, simulation: Simulation, *, without: Iterable[str] = ()) -> None:
        """Take pods ``without`` out and record the placements of ``simulation``."""
        for name in without:
            self.placed.pop(name, None)
        for placement in [*simulation.placements, *simulation.others]:
            if placement.outcome == "placed":
                self.placed[placement.pod.display] = placement

    def pool_names(self) -> set[tuple[str, str]]:
        """(driver, pool) of every slice in the world."""
        return {(entry.slice.driver, entry.slice.pool.name) for entry in self.slices}

    def members(self) -> dict[str, NodePool]:
        """Node name -> its node pool, for the nodes of the world that belong to one (added ones too)."""
        pools = self.analysis.inventory.pools
        out = {name: pool for pool in pools for name in pool.members}
        for entry in self.nodes:
            if entry.origin is not None and entry.node.name not in out:
                for pool in pools:
                    if entry.origin.obj is pool.document and entry.origin.path == pool.path:
                        out[entry.node.name] = pool
        return {entry.node.name: out[entry.node.name] for entry in self.nodes if entry.node.name in out}

    def sizes(self) -> dict[str, int]:
        """Node pool name -> how many nodes it has now."""
        out = {pool.name: 0 for pool in self.analysis.inventory.pools}
        for pool in self.members().values():
            out[pool.name] += 1
        return out

    def pods_on(self, node: str) -> list[Placement]:
        """The placements on ``node``, in the order the pods were placed."""
        return [p for p in self.placed.values() if p.node == node]


def _fresh(pod: Pod, allocations: dict[ClaimKey, model.AllocationResult]) -> Pod:
    """``pod`` with the claims it allocated itself released: a pod made from a template gets a new
    claim on its new node (an allocation written in the inventory stays with its claim)."""
    claims = tuple(
        dataclasses.replace(use, claim=dataclasses.replace(use.claim, allocation=None))
        if use.claim is not None and use.claim.allocation is not None and use.key not in allocations and not use.shared
        else use
        for use in pod.claims
    )
    return dataclasses.replace(pod, claims=claims)
