"""Whether pods the dry-run left without devices fit when the workloads are created in another order.

The scheduler takes pods in the order they are created (within a priority), and the dry-run in the order
the files are read; a workload that gets no devices in that order may fit in another one. A bounded
search tells the two apart: the dry-run is replayed with the failing workload first, then with the
workloads that can use the fewest devices first (that one first when several workloads fail, then each
of them first; at most :data:`MAX_ORDERS` replays in all), and an order
that places the workload's pods without leaving any pod placed in file order without its devices is a
counter-example. No counter-example is no proof: the arithmetic of :mod:`dralint.diagnose.demand` is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from dralint.dataclass import dataclass
from dralint.dryrun import resources
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
    cluster = Cluster(
        base.slices, base.classes, analysis.features, budget=budget, contents=base.contents, learnt=base.learnt
    )
    existing = [entry.claim for entry in analysis.inventory.allocated]
    cluster.add(c.allocation for c in existing if c.allocation is not None)
    placed = PlacedPods(
        analysis.inventory.nodes,
        namespaces=analysis.namespaces,
        dra_backed=analysis.extended.keys(),
        inter_pod=analysis.inter_pod,
        zero_is_listed=resources.listed_at_zero_is_device_plugins(analysis.target.release),
    )
    return simulate(
        pods,
        analysis.inventory.nodes,
        cluster.attempt,
        cluster.add,
        cluster.remove,
        preallocated={(c.namespace, c.name): c.allocation for c in existing if c.allocation is not None},
        preconsumers={(c.namespace, c.name): c.reserved_for for c in existing},
        strategy=analysis.strategy,
        reserved_for=analysis.reserved_for,
        placed=placed,
        explain=False,
        # (the skipper charges the budget as trying each node would: the same pods fit, at a fraction of the cost)
        skip=cluster.screen([entry.node for entry in analysis.inventory.nodes]).skip,
    )


class Orders:
    """The counter-example orders of one dry-run, searched once, on the first question."""

    def __init__(self, analysis: Analysis, scarcity: Callable[[Pod], int], failing: Sequence[int]) -> None:
        """``scarcity`` is how many devices a pod's scarcest request can use; ``failing`` the template
        indexes whose pods fit the empty cluster but got no devices, in file order."""
        self.analysis = analysis
        self.scarcity = scarcity
        self.failing = tuple(failing)
        self._done: list[tuple[Order, frozenset[str]]] = []

    def counter_example(self, template: int) -> Order | None:
        """An order in which the pods of ``template`` get devices and no pod placed in file order loses its own.

        Orders are replayed lazily, as questions need them: the first that fits every workload answers all.
        """
        wanted = {pod.display for pod in self.analysis.pods if pod.template_index == template}
        placed_now = self._placed_now
        for order, placed in self._replayed():
            if wanted <= placed and placed_now <= placed:
                return order
        return None

    @property
    def tried(self) -> int:
        """How many orders were replayed so far."""
        return len(self._done)

    @cached_property
    def _placed_now(self) -> frozenset[str]:
        return frozenset(p.pod.display for p in self.analysis.simulation.placements if p.outcome == "placed")

    def _replayed(self) -> Iterator[tuple[Order, frozenset[str]]]:
        """The orders replayed so far, then the next ones (replayed now), until one fits every workload."""
        yield from self._done
        while self._pending and (not self._done or not self._done[-1][0].everything):
            order = self._pending.pop(0)
            simulation = replay(self.analysis, [pod for t in order for pod in self._by_template[t]])
            placed = frozenset(p.pod.display for p in simulation.placements if p.outcome == "placed")
            first = tuple(self._by_template[t][0].workload for t in _moved(order, self._file_order))
            self._done.append((Order(tuple(order), first, self._fits_alone <= placed), placed))
            yield self._done[-1]

    @cached_property
    def _by_template(self) -> dict[int, list[Pod]]:
        found: dict[int, list[Pod]] = {}
        for pod in self.analysis.pods:
            found.setdefault(pod.template_index, []).append(pod)
        return found

    @cached_property
    def _file_order(self) -> list[int]:
        return list(self._by_template)

    @cached_property
    def _fits_alone(self) -> frozenset[str]:
        """The pods placed in file order and those that fit the empty cluster but got no devices."""
        competing = {p.pod.display for f in self.analysis.failures if f.fits_empty for p in f.placements}
        return self._placed_now | competing

    @cached_property
    def _pending(self) -> list[list[int]]:
        """The orders to replay: each failing workload first (file order otherwise), and the workloads that can
        use the fewest devices first (before the others when several fail); at most :data:`MAX_ORDERS`, none
        twice, none file order itself."""
        file_order = self._file_order
        scarcest = {t: min(self.scarcity(pod) for pod in pods) for t, pods in self._by_template.items()}
        candidates = [[t, *(u for u in file_order if u != t)] for t in self.failing]
        scarcest_first = sorted(file_order, key=lambda t: scarcest[t])
        # One failing workload: first itself (the simplest order to name); several: one order may fit them all.
        candidates.insert(0 if len(self.failing) > 1 else len(candidates), scarcest_first)
        unique = list({tuple(order): order for order in candidates if order != file_order}.values())
        return unique[:MAX_ORDERS]


def _moved(order: Sequence[int], file_order: Sequence[int]) -> list[int]:
    """The workloads an order places earlier than file order does, up to the last of them."""
    position = {t: i for i, t in enumerate(file_order)}
    ahead = [i for i, t in enumerate(order) if position[t] > i]
    return [order[i] for i in ahead]
