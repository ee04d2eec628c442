"""``dralint simulate`` as JSON (stable keys, for scripts; ``version`` 1, as ``check`` and ``plan`` write)."""

from __future__ import annotations

import json
from typing import Any, TextIO

from dralint.report.simulation.model import SimulationReport


def as_dict(report: SimulationReport) -> dict[str, Any]:
    return {
        "version": 1,
        "target": report.target,
        "strategy": report.strategy,
        "inventory": report.inventory,
        "placements": [
            {
                "pod": pod.pod,
                "workload": pod.workload,
                "outcome": pod.outcome,
                "node": pod.node,
                "reason": pod.reason or None,
                "details": list(pod.details),
                "claims": [
                    {
                        "name": claim.name,
                        "claim": claim.claim,
                        "kind": claim.kind,
                        "devices": [
                            {
                                "request": d.request,
                                "driver": d.driver,
                                "pool": d.pool,
                                "device": d.device,
                                "shared": d.shared,
                                "adminAccess": d.admin,
                            }
                            for d in claim.devices
                        ],
                    }
                    for claim in pod.claims
                ],
            }
            for pod in report.pods
        ],
        "pools": [
            {
                "driver": pool.driver,
                "pool": pool.pool,
                "nodes": list(pool.nodes),
                "devices": pool.devices,
                "allocated": pool.allocated,
                "utilisation": round(pool.utilisation, 6),
                "incomplete": pool.incomplete,
                "counters": [
                    {
                        "counterSet": c.counter_set,
                        "device": c.device or None,
                        "counter": c.counter,
                        "consumed": c.consumed,
                        "total": c.total,
                    }
                    for c in pool.counters
                ],
            }
            for pool in report.pools
        ],
        "summary": {
            "pods": len(report.pods),
            "placed": report.placed,
            "unplaced": len(report.unplaced),
            "nodes": report.nodes,
        },
        "schedulingGroups": [
            {"workload": r.workload, "scheduledAs": r.scheduled_as, "pods": r.pods, "placed": r.placed}
            for r in report.scheduling
        ],
        "notes": list(report.notes),
    }


def render(report: SimulationReport, stream: TextIO) -> None:
    json.dump(as_dict(report), stream, indent=2)
    stream.write("\n")
