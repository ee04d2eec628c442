"""The result of ``dralint simulate`` as plain values: placements, pool utilisation, unplaced pods and why.

Built from an :class:`~dralint.dryrun.analysis.Analysis`; the renderers in
``dralint/report/simulation/`` only format it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import Any, Literal

from dralint.cluster import compact
from dralint.cluster.inventory import NodeEntry, is_inventory_document
from dralint.dataclass import dataclass
from dralint.diagnose import why
from dralint.dryrun import gangs
from dralint.dryrun.analysis import Analysis
from dralint.dryrun.contention import Contention
from dralint.dryrun.placement import Placement
from dralint.dryrun.utilisation import PoolUtilisation, natural_key


@dataclass(frozen=True, slots=True)
class DeviceRow:
    request: str
    driver: str
    pool: str
    device: str
    shared: bool = False  # one share of a device that allows multiple allocations
    admin: bool = False
    holders: int = 1  # placed pods whose claims hold this device (more than one: the pods share it)

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
    device: str = ""  # the device the counter set stands for ("" when no device consumes it)
    share: float = 0.0  # consumed / total

    @property
    def label(self) -> str:
        """``gpu-3 memory``: the counter named with its device (else with its counter set)."""
        return f"{self.device or self.counter_set} {self.counter}"


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
class NodeRow:
    name: str
    pools: tuple[int, ...]  # indexes into SimulationReport.pools of the pools bound to this node
    # its most used pool, which is how the cluster autoscaler rates a node; None without devices
    utilisation: float | None


GroupKind = Literal["node pool", "labels"]


@dataclass(frozen=True, slots=True)
class NodeGroup:
    """Nodes of one node pool of a compact Inventory, or nodes with the same labels (hostname aside)."""

    kind: GroupKind
    name: str  # the node pool's name, or the labels as "key=value, ..." ("" for none)
    nodes: tuple[NodeRow, ...]

    @property
    def utilisation(self) -> float | None:
        """The mean utilisation of the group's nodes that have devices (None if none has)."""
        shares = [node.utilisation for node in self.nodes if node.utilisation is not None]
        return sum(shares) / len(shares) if shares else None


@dataclass(frozen=True, slots=True)
class SchedulingRow:
    """How the pods of a workload that makes groups of pods (or names a pod group) are scheduled."""

    workload: str
    scheduled_as: str  # "a gang: PodGroup ml/workers, minCount 4", "independent pods: ..."
    pods: int
    placed: int


@dataclass(frozen=True, slots=True)
class SimulationReport:
    target: dict[str, Any]
    strategy: str
    pods: tuple[PodRow, ...]
    pools: tuple[PoolRow, ...]
    nodes: int
    inventory: bool  # whether there was any device to dry-run against
    notes: tuple[str, ...] = field(default=())
    groups: tuple[NodeGroup, ...] = ()  # every node, in its group; groups and nodes in natural order
    scheduling: tuple[SchedulingRow, ...] = ()  # in the order of the workloads' first pod

    @property
    def network_pools(self) -> tuple[PoolRow, ...]:
        """Pools bound to no single node (node selectors, all nodes, per-device node selection)."""
        return tuple(pool for pool in self.pools if not pool.nodes)

    def workloads(self) -> list[tuple[str, list[PodRow]]]:
        """The pods of each workload, workloads in the order of their first pod."""
        grouped: dict[str, list[PodRow]] = {}
        for pod in self.pods:
            grouped.setdefault(pod.workload, []).append(pod)
        return list(grouped.items())

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


def placed_summary(report: SimulationReport) -> str:
    """``3 of 4 pods placed; 16 nodes in the cluster; strategy pack``: how many nodes the cluster has,
    not how many the pods went to (``on 16 nodes`` read as a spread)."""
    pods, nodes = len(report.pods), report.nodes
    return (
        f"{report.placed} of {pods} pod{'s' if pods != 1 else ''} placed; "
        f"{nodes} node{'s' if nodes != 1 else ''} in the cluster; strategy {report.strategy}"
    )


def unplaced_subject(pod: PodRow, count: int) -> str:
    """``ml/batch-0 (Job ml/batch)`` for one pod, ``64 pods of Job ml/train`` for a group."""
    return f"{pod.pod} ({pod.workload})" if count == 1 else f"{count} pods of {pod.workload}"


def build(analysis: Analysis) -> SimulationReport:
    contention = Contention(analysis)
    details: dict[int, tuple[str, ...]] = {}
    for failure in analysis.failures:
        reasons = analysis.reasons(failure)
        # (pools with a rejected slice or incomplete: the scheduler takes no device of them)
        skipped = [note for r in reasons for note in analysis.skipped(failure.first.candidates, r.device_class)]
        lines = (*(why.sentence(r) for r in reasons), *contention.constraints(failure), *dict.fromkeys(skipped))
        prefix: tuple[str, ...] = ()
        if failure.fits_empty:
            prefix = ("fits on the cluster without the earlier pods: devices are exhausted",)
            order = contention.orders.counter_example(failure.first.pod.template_index)
            if order is not None:
                first = " and ".join(order.first)
                prefix += (f"fits in another order: placing {first} first gives them devices",)
        details[failure.first.pod.template_index] = (*prefix, *lines)
    holders = _holders(analysis.simulation.placements)
    rows = []
    for placement in analysis.simulation.placements:
        pod = placement.pod
        claims = tuple(
            ClaimRow(
                use.entry.name,
                f"{use.key[0]}/{use.key[1]}",
                use.kind,
                tuple(
                    DeviceRow(
                        r.request,
                        r.driver,
                        r.pool,
                        r.device,
                        r.share_id is not None,
                        r.admin_access is True,
                        holders[(r.driver, r.pool, r.device)] if placement.outcome == "placed" else 1,
                    )
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
        if obj in analysis.inventory.document_errors
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
        _groups(analysis.inventory.nodes, pools),
        _scheduling(analysis),
    )


def _scheduling(analysis: Analysis) -> tuple[SchedulingRow, ...]:
    """One row per workload and way its pods are scheduled (the templates of a JobSet alike are one)."""
    texts: dict[int, str | None] = {}  # per pod template
    rows: dict[tuple[str, str], tuple[int, int, int]] = {}  # -> (first template, pods, placed)
    for placement in [*analysis.simulation.placements, *analysis.simulation.others]:
        pod = placement.pod
        if pod.template_index not in texts:
            texts[pod.template_index] = gangs.scheduled_as(pod.template, pod.gang, analysis.grouping)
        text = texts[pod.template_index]
        if text is None:
            continue
        first, count, placed = rows.get((pod.workload, text), (pod.template_index, 0, 0))
        rows[pod.workload, text] = (first, count + 1, placed + (placement.outcome == "placed"))
    ordered = sorted(rows.items(), key=lambda item: item[1][0])
    return tuple(SchedulingRow(workload, text, count, placed) for (workload, text), (_, count, placed) in ordered)


def pool_rows(pools: Iterable[PoolUtilisation]) -> tuple[PoolRow, ...]:
    return tuple(
        PoolRow(
            u.driver,
            u.pool,
            u.nodes,
            u.devices,
            u.allocated,
            u.utilisation,
            tuple(
                CounterRow(c.counter_set, c.counter, str(c.consumed), str(c.total), c.device, c.share)
                for c in u.counters
            ),
            u.incomplete,
        )
        for u in pools
    )


def target_of(analysis: Analysis) -> dict[str, Any]:
    """The target cluster as reports show it: the release and every feature gate as it is there (the
    defaults of the release with the gates given applied), as ``check``'s JSON shows them."""
    return {
        "kubernetesVersion": analysis.target.release,
        "featureGates": dict(sorted(analysis.target.gates.items())),
    }


def _holders(placements: list[Placement]) -> dict[tuple[str, str, str], int]:
    """(driver, pool, device) -> how many placed pods hold it (through one shared claim or several shares)."""
    pods: dict[tuple[str, str, str], set[int]] = {}
    for index, placement in enumerate(placements):
        if placement.outcome != "placed":
            continue
        for _, allocation in placement.allocations:
            for r in allocation.results:
                pods.setdefault((r.driver, r.pool, r.device), set()).add(index)
    return {key: len(holders) for key, holders in pods.items()}


def _groups(nodes: list[NodeEntry], pools: tuple[PoolRow, ...]) -> tuple[NodeGroup, ...]:
    on_node: dict[str, list[int]] = {}
    for index, pool in enumerate(pools):
        for name in pool.nodes:
            on_node.setdefault(name, []).append(index)
    members: dict[tuple[GroupKind, str], list[NodeRow]] = {}
    for entry in nodes:
        indexes = tuple(on_node.get(entry.node.name, ()))
        share = max((pools[i].utilisation for i in indexes), default=None)
        members.setdefault(_group_key(entry), []).append(NodeRow(entry.node.name, indexes, share))
    order = sorted(members, key=lambda key: (key[0] != "node pool", natural_key(key[1])))
    return tuple(
        NodeGroup(kind, name, tuple(sorted(members[kind, name], key=lambda row: natural_key(row.name))))
        for kind, name in order
    )


def _group_key(entry: NodeEntry) -> tuple[GroupKind, str]:
    """The node pool of the compact Inventory a node was expanded from, else its labels but the hostname."""
    origin = entry.origin
    if origin is not None and is_inventory_document(origin.obj) and origin.path[:2] == ("spec", "nodePools"):
        return "node pool", str(origin.obj.raw["spec"]["nodePools"][origin.path[2]]["name"])
    labels = sorted((k, v) for k, v in entry.node.meta.labels.items() if k != compact.HOSTNAME_LABEL)
    return "labels", ", ".join(f"{k}={v}" for k, v in labels)
