"""``dralint simulate`` as text: the placement table, pool utilisation, then unplaced pods and why."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from dralint.report.simulation import percent
from dralint.report.simulation.model import SimulationReport, placed_summary, unplaced_subject


def table(rows: Sequence[tuple[str, ...]], stream: TextIO) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        stream.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() + "\n")


def render(report: SimulationReport, stream: TextIO) -> None:
    if not report.inventory:
        stream.write("no inventory: give ResourceSlices or an Inventory document (--inventory) to dry-run against\n")
        for note in report.notes:
            stream.write(f"note: {note}\n")
        return
    stream.write(f"Placements ({placed_summary(report)})\n")
    rows = [("POD", "NODE", "CLAIM", "DEVICES")]
    for pod in report.pods:
        if pod.outcome != "placed":
            rows.append((pod.pod, "-", "-", f"({pod.outcome})"))
            continue
        for i, claim in enumerate(pod.claims or ()):
            devices = ", ".join(d.text for d in claim.devices) or "-"
            rows.append((pod.pod if i == 0 else "", pod.node or "-" if i == 0 else "", claim.name, devices))
        if not pod.claims:
            rows.append((pod.pod, pod.node or "-", "-", "-"))
    if len(rows) > 1:
        table(rows, stream)
    stream.write("\nUtilisation\n")
    pool_rows = [("DRIVER", "POOL", "DEVICES", "ALLOCATED", "UTILISATION", "COUNTERS")]
    for pool in report.pools:
        note = " (incomplete)" if pool.incomplete else ""
        counters = ", ".join(f"{c.label} {c.consumed}/{c.total}" for c in pool.counters) or "-"
        pool_rows.append(
            (pool.driver, pool.pool, str(pool.devices), str(pool.allocated), percent(pool.utilisation) + note, counters)
        )
    table(pool_rows, stream)
    unplaced = report.unplaced
    if unplaced:
        stream.write(f"\nUnplaced pods ({len(unplaced)})\n")
        for pod, count in report.unplaced_groups():
            stream.write(f"{unplaced_subject(pod, count)}: {pod.outcome}: {pod.reason}\n")
            for line in pod.details:
                stream.write(f"  {line}\n")
    if report.scheduling:
        stream.write("\nScheduling groups\n")
        rows = [("WORKLOAD", "PODS", "PLACED", "SCHEDULED AS")]
        rows += [(r.workload, str(r.pods), str(r.placed), r.scheduled_as) for r in report.scheduling]
        table(rows, stream)
    for note in report.notes:
        stream.write(f"\nnote: {note}\n")
