"""``dralint plan`` as text: the scale-up decisions, the pods nothing places, the scale-down, utilisation."""

from __future__ import annotations

from typing import TextIO

from dralint.report.plan.model import PlanReport, plural
from dralint.report.simulation import percent
from dralint.report.simulation.model import PoolRow
from dralint.report.simulation.text import table


def render(report: PlanReport, stream: TextIO) -> None:
    stream.write(f"Scale-up ({report.expander})\n")
    without = ": the inventory has no node pools" if report.notes else ""
    if not report.scale_up:
        stream.write(f"  nothing to add{without}\n")
    for up in report.scale_up:
        stream.write(
            f"  + {plural(len(up.new_nodes), 'node')} of pool {up.node_pool} ({', '.join(up.new_nodes)}) "
            f"for {plural(len(up.pods), 'pod')}: {', '.join(up.pods)}\n"
        )
    if report.unplaceable:
        stream.write(f"\nUnplaceable pods ({len(report.unplaceable)})\n")
        for pod in report.unplaceable:
            stream.write(f"  {pod.pod} ({pod.workload}): {pod.reason}\n")
    stream.write(f"\nScale-down (below {percent(report.threshold)} utilisation)\n")
    if not report.scale_down and not report.kept:
        stream.write(f"  no candidate{without}\n")
    for down in report.scale_down:
        moves = ", ".join(f"{pod} -> {to}" for pod, to in down.moved) or "no pods to move"
        stream.write(f"  - {down.node} (pool {down.node_pool}, {percent(down.utilisation)}): {moves}\n")
    for kept in report.kept:
        stream.write(f"  kept {kept.node} (pool {kept.node_pool}, {percent(kept.utilisation)}): {kept.reason}\n")
    stream.write("\nUtilisation (before -> after)\n")
    rows = [("DRIVER", "POOL", "NODE", "BEFORE", "AFTER")]
    before = {(p.driver, p.pool): p for p in report.before}
    after = {(p.driver, p.pool): p for p in report.after}
    keys = list(before) + [key for key in after if key not in before]
    for key in keys:
        pool = after.get(key) or before[key]
        node = pool.nodes[0] if len(pool.nodes) == 1 else "-" if not pool.nodes else f"{len(pool.nodes)} nodes"
        rows.append((key[0], key[1], node, _share(before.get(key)), _share(after.get(key))))
    table(rows, stream)
    for note in report.notes:
        stream.write(f"\nnote: {note}\n")


def _share(pool: PoolRow | None) -> str:
    if pool is None:
        return "-"
    return f"{pool.allocated}/{pool.devices} {percent(pool.utilisation)}"
