"""The result of ``dralint plan`` as plain values, built from a :class:`~dralint.plan.planner.Plan`."""

from __future__ import annotations

from typing import Any

from dralint.dataclass import dataclass
from dralint.dryrun.analysis import Analysis
from dralint.plan.planner import Plan
from dralint.report.simulation.model import PoolRow, pool_rows, target_of


@dataclass(frozen=True, slots=True)
class ScaleUpRow:
    node_pool: str
    new_nodes: tuple[str, ...]
    pods: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnplaceableRow:
    pod: str
    workload: str
    reason: str


@dataclass(frozen=True, slots=True)
class ScaleDownRow:
    node: str
    node_pool: str
    utilisation: float
    moved: tuple[tuple[str, str], ...]  # (pod, new node)


@dataclass(frozen=True, slots=True)
class KeptRow:
    node: str
    node_pool: str
    utilisation: float
    reason: str


@dataclass(frozen=True, slots=True)
class PlanReport:
    target: dict[str, Any]
    expander: str
    threshold: float
    scale_up: tuple[ScaleUpRow, ...]
    unplaceable: tuple[UnplaceableRow, ...]
    scale_down: tuple[ScaleDownRow, ...]
    kept: tuple[KeptRow, ...]
    before: tuple[PoolRow, ...]
    after: tuple[PoolRow, ...]
    notes: tuple[str, ...] = ()


def notes_of(analysis: Analysis) -> tuple[str, ...]:
    """What the reader needs to know to read the plan: without node pools, nothing can be added or removed."""
    if analysis.inventory.pools:
        return ()
    nodes = len(analysis.inventory.nodes)
    return (
        f"no node pools: the plan adds and removes nodes of the node pools of Inventory documents (nodePools "
        f"with minCount and maxCount; a nodeSelector makes Nodes of a cluster dump members), and this "
        f"inventory's {plural(nodes, 'node')} belong{'s' * (nodes == 1)} to none",
    )


def build(plan: Plan, analysis: Analysis) -> PlanReport:
    return PlanReport(
        target_of(analysis),
        plan.expander,
        plan.threshold,
        tuple(ScaleUpRow(d.pool.name, d.nodes, d.pods) for d in plan.scale_up),
        tuple(UnplaceableRow(u.pod, u.workload, u.reason) for u in plan.unplaceable),
        tuple(ScaleDownRow(r.node, r.pool, r.utilisation, r.moved) for r in plan.scale_down),
        tuple(KeptRow(k.node, k.pool, k.utilisation, k.reason) for k in plan.kept),
        pool_rows(plan.before),
        pool_rows(plan.after),
        notes_of(analysis),
    )


def plural(count: int, word: str) -> str:
    """``1 node``, ``2 nodes``."""
    return f"{count} {word}{'s' if count != 1 else ''}"
