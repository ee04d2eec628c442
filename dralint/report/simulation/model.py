"""The result of ``dralint simulate`` as plain values: placements, pool utilisation, unplaced pods and why.

Built from an :class:`~dralint.dryrun.analysis.Analysis`; the renderers in
``dralint/report/simulation/`` only format it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dralint.cluster import compact_schema
from dralint.diagnose import why
from dralint.dryrun.analysis import Analysis
from dralint.dryrun.utilisation import PoolUtilisation


@dataclass(frozen=True, slots=True)
class DeviceRow:
    request: str
    driver: str
    pool: str
    device: str
    shared: bool = False  # one share of a device that allows multiple allocations
    admin: bool = False

    @property
    def text(self) -> str:
        suffix = " (shared)" if self.shared else " (admin)" if self.admin else ""
        return f"{self.driver}/{self.pool}/{self.device}{suffix}"


@dataclass(frozen=True, slots=True)
class ClaimRow:
    name: str  # the pod's name for the claim (spec.resourceClaims[].name)
    claim: str  # namespace/name of the ResourceClaim
    kind: str  # "template", "claim" or "extended"
    devices: tuple[DeviceRow, ...]


@dataclass(frozen=True, slots=True)
class PodRow:
    pod: str  # namespace/name
    workload: str  # "Deployment ml/trainer"
    outcome: str  # placement outcome
    node: str | None
    claims: tuple[ClaimRow, ...] = ()
    reason: str = ""
    details: tuple[str, ...] = ()  # per-request explanations for unsatisfiable pods


@dataclass(frozen=True, slots=True)
class CounterRow:
    counter_set: str
    counter: str
    consumed: str
    total: str


@dataclass(frozen=True, slots=True)
class PoolRow:
    driver: str
    pool: str
    nodes: tuple[str, ...]
    devices: int
    allocated: int
    utilisation: float
    counters: tuple[CounterRow, ...] = ()
    incomplete: bool = False


@dataclass(frozen=True, slots=True)
class SimulationReport:
    target: dict[str, Any]
    strategy: str
    pods: tuple[PodRow, ...]
    pools: tuple[PoolRow, ...]
    nodes: int
    inventory: bool  # whether there was any device to dry-run against
    notes: tuple[str, ...] = field(default=())

    @property
    def placed(self) -> int:
        return sum(1 for p in self.pods if p.outcome == "placed")

    @property
    def unplaced(self) -> tuple[PodRow, ...]:
        return tuple(p for p in self.pods if p.outcome != "placed")

    def unplaced_groups(self) -> list[tuple[PodRow, int]]:
        """Unplaced pods with the same workload, outcome and reasons as one entry (its first pod and
        the count), in the order of the first: 64 replicas that fail alike are told once."""
        first: dict[tuple[str, str, str, tuple[str, ...]], PodRow] = {}
        counts: dict[tuple[str, str, str, tuple[str, ...]], int] = {}
        for pod in self.unplaced:
            key = (pod.workload, pod.outcome, pod.reason, pod.details)
            first.setdefault(key, pod)
            counts[key] = counts.get(key, 0) + 1
        return [(pod, counts[key]) for key, pod in first.items()]


def unplaced_subject(pod: PodRow, count: int) -> str:
    """``ml/batch-0 (Job ml/batch)`` for one pod, ``64 pods of Job ml/train`` for a group."""
    return f"{pod.pod} ({pod.workload})" if count == 1 else f"{count} pods of {pod.workload}"


def build(analysis: Analysis) -> SimulationReport:
    details: dict[int, tuple[str, ...]] = {}
    for failure in analysis.failures:
        lines = tuple(why.sentence(reason) for reason in analysis.reasons(failure))
        prefix = (
            () if not failure.fits_empty else ("fits on the cluster without the earlier pods: devices are exhausted",)
        )
        details[failure.first.pod.template_index] = (*prefix, *lines)
    rows = []
    for placement in analysis.simulation.placements:
        pod = placement.pod
        claims = tuple(
            ClaimRow(
                use.entry.name,
                f"{use.key[0]}/{use.key[1]}",
                use.kind,
                tuple(
                    DeviceRow(r.request, r.driver, r.pool, r.device, r.share_id is not None, r.admin_access is True)
                    for r in allocation.results
                ),
            )
            for use, allocation in placement.allocations
        )
        rows.append(
            PodRow(
                pod.display,
                pod.workload,
                placement.outcome,
                placement.node,
                claims,
                placement.reason,
                details.get(pod.template_index, ()) if placement.outcome == "unsatisfiable" else (),
            )
        )
    pools = pool_rows(analysis.utilisation)
    target = target_of(analysis)
    notes = [
        f"Inventory {obj.name} ({obj.file}) is invalid and was not expanded; dralint check lists why"
        for obj in analysis.inventory.documents
        if compact_schema.validate(obj.raw)
    ]
    implicit = sum(1 for n in analysis.inventory.nodes if n.origin is None)
    if implicit:
        notes.append(
            f"{implicit} node{'s' if implicit != 1 else ''} only named by ResourceSlices: their labels and taints "
            "are unknown, so node selectors were assumed to match them"
        )
    return SimulationReport(
        target,
        analysis.strategy,
        tuple(rows),
        pools,
        len(analysis.inventory.nodes),
        analysis.active,
        tuple(notes),
    )


def pool_rows(pools: Iterable[PoolUtilisation]) -> tuple[PoolRow, ...]:
    return tuple(
        PoolRow(
            u.driver,
            u.pool,
            u.nodes,
            u.devices,
            u.allocated,
            u.utilisation,
            tuple(CounterRow(c.counter_set, c.counter, str(c.consumed), str(c.total)) for c in u.counters),
            u.incomplete,
        )
        for u in pools
    )


def target_of(analysis: Analysis) -> dict[str, Any]:
    """The target cluster as reports show it: the release and the feature gates set explicitly."""
    return {
        "kubernetesVersion": analysis.target.release,
        "featureGates": dict(sorted(analysis.target.overrides.items())),
    }
