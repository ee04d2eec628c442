"""Whether pods the dry-run left without devices fit when the workloads are created in another order.

The scheduler takes pods in the order they are created (within a priority), and the dry-run in the order
the files are read; a workload that gets no devices in that order may fit in another one. A bounded
search tells the two apart: the dry-run is replayed with each failing workload first, then with the
workloads that can use the fewest devices first (at most :data:`MAX_ORDERS` replays in all), and an order
that places the workload's pods without leaving any pod placed in file order without its devices is a
counter-example. No counter-example is no proof: the arithmetic of :mod:`dralint.diagnose.demand` is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from dralint.dataclass import dataclass
from dralint.dryrun.filters import PlacedPods
from dralint.dryrun.placement import Simulation, simulate
from dralint.dryrun.state import Cluster, SearchBudget

if TYPE_CHECKING:
    from dralint.cluster.pods import Pod
    from dralint.dryrun.analysis import Analysis

MAX_ORDERS = 4  # replays of the whole dry-run, per run of the checks


@dataclass(frozen=True, slots=True)
class Order:
    """An order of the workloads (their template indexes, in the order their pods are created)."""

    templates: tuple[int, ...]
    first: tuple[str, ...]  # the workloads moved ahead of file order, as the message names them
    everything: bool  # whether it places every pod that fits the cluster on its own


def replay(analysis: Analysis, pods: Sequence[Pod]) -> Simulation:
    """The dry-run of ``pods`` in this order on a fresh copy of the cluster (no explanations: only who fits)."""
    base = analysis.base
    budget = SearchBudget(base.budget.per_attempt, base.budget.total)
    cluster = Cluster(base.slices, base.classes, analysis.features, budget=budget, contents=base.contents)
    existing = [entry.claim for entry in analysis.inventory.allocated]
    cluster.add(c.allocation for c in existing if c.allocation is not None)
    placed = PlacedPods(
        analysis.inventory.nodes,
        namespaces=analysis.namespaces,
        dra_backed=analysis.extended.keys(),
        inter_pod=analysis.inter_pod,
    )
    return simulate(
        pods,
        analysis.inventory.nodes,
        cluster.attempt,
        cluster.add,
        preallocated={(c.namespace, c.name): c.allocation for c in existing if c.allocation is not None},
        preconsumers={(c.namespace, c.name): c.reserved_for for c in existing},
        strategy=analysis.strategy,
        reserved_for=analysis.reserved_for,
        placed=placed,
        explain=False,
    )


class Orders:
    """The counter-example orders of one dry-run, searched once, on the first question."""

    def __init__(self, analysis: Analysis, scarcity: Callable[[Pod], int], failing: Sequence[int]) -> None:
        """``scarcity`` is how many devices a pod's scarcest request can use; ``failing`` the template
        indexes whose pods fit the empty cluster but got no devices, in file order."""
        self.analysis = analysis
        self.scarcity = scarcity
        self.failing = tuple(failing)

    def counter_example(self, template: int) -> Order | None:
        """An order in which the pods of ``template`` get devices and no pod placed in file order loses its own."""
        wanted = {pod.display for pod in self.analysis.pods if pod.template_index == template}
        placed_now = self._placed_now
        return next((order for order, placed in self.tried if wanted <= placed and placed_now <= placed), None)

    @cached_property
    def _placed_now(self) -> frozenset[str]:
        return frozenset(p.pod.display for p in self.analysis.simulation.placements if p.outcome == "placed")

    @cached_property
    def tried(self) -> list[tuple[Order, frozenset[str]]]:
        """The orders replayed, each with the pods it places: each failing workload first (file order otherwise),
        then the workloads that can use the fewest devices first; at most :data:`MAX_ORDERS`, none twice."""
        pods = self.analysis.pods
        by_template: dict[int, list[Pod]] = {}
        for pod in pods:
            by_template.setdefault(pod.template_index, []).append(pod)
        file_order = list(by_template)
        scarcest = {t: min(self.scarcity(pod) for pod in members) for t, members in by_template.items()}
        candidates = [[t, *(u for u in file_order if u != t)] for t in self.failing]
        candidates.append(sorted(file_order, key=lambda t: scarcest[t]))
        competing = {p.pod.display for f in self.analysis.failures if f.fits_empty for p in f.placements}
        fits_alone = self._placed_now | competing
        out: list[tuple[Order, frozenset[str]]] = []
        seen = {tuple(file_order)}
        for order in candidates:
            if len(out) == MAX_ORDERS or tuple(order) in seen:
                continue
            seen.add(tuple(order))
            simulation = replay(self.analysis, [pod for t in order for pod in by_template[t]])
            placed = frozenset(p.pod.display for p in simulation.placements if p.outcome == "placed")
            first = tuple(by_template[t][0].workload for t in _moved(order, file_order))
            out.append((Order(tuple(order), first, fits_alone <= placed), placed))
        return out


def _moved(order: Sequence[int], file_order: Sequence[int]) -> list[int]:
    """The workloads an order places earlier than file order does, up to the last of them."""
    position = {t: i for i, t in enumerate(file_order)}
    ahead = [i for i, t in enumerate(order) if position[t] > i]
    return [order[i] for i in ahead]
