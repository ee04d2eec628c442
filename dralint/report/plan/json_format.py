"""``dralint plan`` as JSON: the ``version`` 1 contract (scaleUp, unplaceable, scaleDown, utilisation)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TextIO

from dralint.report.plan.model import PlanReport
from dralint.report.simulation.model import PoolRow


def _pools(pools: Sequence[PoolRow]) -> list[dict[str, Any]]:
    """Per pool: the node it is local to (null for a network-attached pool), allocated and total devices."""
    return [
        {
            "node": pool.nodes[0] if len(pool.nodes) == 1 else None,
            "driver": pool.driver,
            "pool": pool.pool,
            "allocated": pool.allocated,
            "total": pool.devices,
        }
        for pool in pools
    ]


def as_dict(report: PlanReport) -> dict[str, Any]:
    return {
        "version": 1,
        "scaleUp": [
            {
                "nodePool": row.node_pool,
                "add": len(row.new_nodes),
                "newNodes": list(row.new_nodes),
                "pods": list(row.pods),
            }
            for row in report.scale_up
        ],
        "unplaceable": [{"pod": row.pod, "workload": row.workload, "reason": row.reason} for row in report.unplaceable],
        "scaleDown": [
            {
                "node": row.node,
                "nodePool": row.node_pool,
                "utilisation": round(row.utilisation, 4),
                "movedPods": [{"pod": pod, "to": to} for pod, to in row.moved],
            }
            for row in report.scale_down
        ],
        "utilisation": {"before": _pools(report.before), "after": _pools(report.after)},
        "notes": list(report.notes),
    }


def render(report: PlanReport, stream: TextIO) -> None:
    json.dump(as_dict(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
