"""``dralint simulate`` as one self-contained HTML page that stays small on a 10,000-node cluster.

Nodes come in their groups (node pools of the compact Inventory, else nodes with the same labels),
each with one utilisation bar and its nodes folded inside, one short table row per node; pools not
bound to a node follow. Placements are folded per workload, and a device more than one pod holds is
marked with how many do. Unplaced pods that fail alike are one entry. Every value is escaped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TextIO

from dralint.dryrun.utilisation import natural_key
from dralint.report.htmlpage import COLOURS, ERROR, bar, document, level, text
from dralint.report.simulation.model import (
    CounterRow,
    DeviceRow,
    NodeGroup,
    NodeRow,
    PodRow,
    PoolRow,
    SimulationReport,
    placed_summary,
    unplaced_subject,
)

_STYLE = f"""
b.name {{ display: inline-block; min-width: 12rem; }}
span.full {{ color: {COLOURS["full"]}; font-weight: 600; }}
span.high {{ color: {COLOURS["high"]}; font-weight: 600; }}
tr.unplaced td {{ color: {ERROR}; }}
mark {{ background: #fff8c5; padding: 0 .15rem; }}
"""


def render(report: SimulationReport, stream: TextIO) -> None:
    stream.write(document("dralint simulate", _body(report), style=_STYLE))


def _body(report: SimulationReport) -> Iterator[str]:
    if not report.inventory:
        yield '<p class="summary">No inventory: nothing to dry-run against.</p>'
        yield from _notes(report)
        return
    release = text(report.target.get("kubernetesVersion", ""))
    opened = _open(report)
    yield f'<p class="summary" id="summary">{text(placed_summary(report))} (Kubernetes {release}).</p>'
    yield '<h2>Nodes</h2><div id="nodes">'
    yield (
        '<p class="legend">Utilisation as the cluster autoscaler computes it: a node counts its most used pool, '
        "a group the mean of its nodes (with how many of them are full, or at 80% or more); green under 80%, "
        "amber from 80%, blue when full.</p>"
    )
    for group in report.groups:
        yield from _group(report, group, opened)
    yield "</div>"
    network = report.network_pools
    if network:
        yield '<h2>Pools not bound to one node</h2><table id="network-pools">'
        yield "<thead><tr><th>Pool</th><th>Utilisation</th><th>Allocated</th><th>Counters</th></tr></thead><tbody>"
        for pool in network:
            counters = _counters(pool.counters)
            yield (
                f'<tr data-pool="{text(pool.driver)}/{text(pool.pool)}"><td>{text(pool.driver)}/{text(pool.pool)}</td>'
                f"<td>{bar(pool.utilisation)}</td><td>{_allocated([pool])}</td><td>{counters}</td></tr>"
            )
        yield "</tbody></table>"
    yield from _placements(report, opened)
    yield from _unplaced(report)
    yield from _notes(report)


# A page this small opens unfolded: its rows fit on a screen or two. Larger ones open folded, one line per
# node group and per workload (10,000 nodes unfolded are 10,000 rows to scroll past).
UNFOLDED_NODES = 50
UNFOLDED_PODS = 100


def _open(report: SimulationReport) -> str:
    small = sum(len(group.nodes) for group in report.groups) <= UNFOLDED_NODES and len(report.pods) <= UNFOLDED_PODS
    return " open" if small else ""


def _busy(group: NodeGroup) -> str:
    """`` · 1 node full · 2 nodes at 80% or more``: the mean of a group hides its busiest nodes."""
    shares = [node.utilisation for node in group.nodes if node.utilisation is not None]
    full = sum(1 for share in shares if level(share) == "full")
    high = sum(1 for share in shares if level(share) == "high")
    out = ""
    if full:
        out += f' · <span class="full">{full} node{"s" * (full != 1)} full</span>'
    if high:
        out += f' · <span class="high">{high} node{"s" * (high != 1)} at 80% or more</span>'
    return out


def _group(report: SimulationReport, group: NodeGroup, opened: str) -> Iterator[str]:
    pools = [report.pools[i] for node in group.nodes for i in node.pools]
    drivers = sorted({pool.driver for pool in pools}, key=natural_key)
    counters = any(pool.counters for pool in pools)
    share = group.utilisation
    name = text(group.name) if group.name else "no labels"
    nodes = f"{len(group.nodes)} node{'s' * (len(group.nodes) != 1)}"
    utilisation = f"{bar(share)} mean utilisation · " if share is not None else "no devices · "
    allocated = f" · {_allocated(pools)} devices allocated" if pools else ""
    yield (
        f'<details class="group" data-group="{text(group.name)}"{opened}><summary><b class="name">{name}</b> '
        f"{utilisation}{nodes} ({group.kind}){_busy(group)}{allocated}</summary>"
    )
    head = "".join(f"<th>{text(driver)}</th>" for driver in drivers) + ("<th>Counters in use</th>" if counters else "")
    yield f"<table><thead><tr><th>Node</th><th>Utilisation</th>{head}</tr></thead><tbody>"
    # One line per node, nothing repeated from the header: the size of the page is set by these rows.
    yield "\n".join(_node(report, node, drivers, counters=counters) for node in group.nodes)
    yield "</tbody></table></details>"


def _node(report: SimulationReport, node: NodeRow, drivers: list[str], *, counters: bool) -> str:
    pools = [report.pools[i] for i in node.pools]
    cells = [f"<tr><td>{text(node.name)}</td><td>{bar(node.utilisation) if node.utilisation is not None else '-'}</td>"]
    for driver in drivers:
        mine = [pool for pool in pools if pool.driver == driver]
        cells.append(f"<td>{_allocated(mine) if mine else '-'}</td>")
    if counters:
        cells.append("<td>" + _counters([c for pool in pools for c in pool.counters if c.share > 0]) + "</td>")
    return "".join(cells) + "</tr>"


def _counters(counters: Sequence[CounterRow]) -> str:
    """``mig-0 memory 80Gi/80Gi, slices 7/7; mig-1 ...``: each device named once, then its counters."""
    by_device: dict[str, list[str]] = {}
    for c in counters:
        by_device.setdefault(c.device or c.counter_set, []).append(
            f"{text(c.counter)} {text(c.consumed)}/{text(c.total)}"
        )
    return "; ".join(f"{text(device)} " + ", ".join(values) for device, values in by_device.items())


def _allocated(pools: list[PoolRow]) -> str:
    """``12/16``, with ``(incomplete)`` when a pool lacks slices (the autoscaler then ignores it)."""
    allocated = sum(pool.allocated for pool in pools)
    devices = sum(pool.devices for pool in pools)
    return f"{allocated}/{devices}" + (" (incomplete)" if any(pool.incomplete for pool in pools) else "")


def _placements(report: SimulationReport, opened: str) -> Iterator[str]:
    workloads = report.workloads()
    yield f'<h2>Placements</h2><div id="placements"><p class="legend">{len(workloads)} workloads. '
    yield "<mark>×N</mark>: N pods hold the device (one shared claim, or shares of a device).</p>"
    for workload, pods in workloads:
        placed = [pod for pod in pods if pod.outcome == "placed"]
        on = len({pod.node for pod in placed})
        outcome = f"{len(placed)} placed on {on} node{'s' * (on != 1)}" if placed else "none placed"
        if len(placed) != len(pods):
            outcome += f' · <span class="bad">{len(pods) - len(placed)} not placed</span>'
        yield (
            f'<details class="workload" data-workload="{text(workload)}"{opened}><summary>'
            f"<b>{text(workload)}</b> · "
            f"{len(pods)} pod{'s' * (len(pods) != 1)} · {outcome}</summary>"
        )
        yield "<table><thead><tr><th>Pod</th><th>Node</th><th>Devices</th></tr></thead><tbody>"
        yield "\n".join(_pod(pod) for pod in pods)
        yield "</tbody></table></details>"
    yield "</div>"


def _pod(pod: PodRow) -> str:
    name = text(pod.pod.partition("/")[2])  # the workload's line names the namespace
    if pod.outcome != "placed":
        return f'<tr class="unplaced"><td>{name}</td><td>-</td><td>{text(pod.outcome)}</td></tr>'
    node = pod.node or ""
    claims = "; ".join(
        f"{text(claim.name)}: " + ", ".join(_device(device, node) for device in claim.devices) for claim in pod.claims
    )
    return f"<tr><td>{name}</td><td>{text(node)}</td><td>{claims}</td></tr>"


def _device(device: DeviceRow, node: str) -> str:
    """``gpu-3`` on its node's own pool, ``fabric/vf-0`` elsewhere; marked when several pods hold it."""
    where = device.device if device.pool == node else f"{device.pool}/{device.device}"
    out = text(where) + (" (admin)" if device.admin else "")
    return out + (f" <mark>×{device.holders}</mark>" if device.holders > 1 else "")


def _unplaced(report: SimulationReport) -> Iterator[str]:
    unplaced = report.unplaced
    if not unplaced:
        return
    yield f'<h2>Unplaced pods ({len(unplaced)})</h2><ul id="unplaced">'
    for pod, count in report.unplaced_groups():
        details = "".join(f"<li>{text(line)}</li>" for line in pod.details)
        yield (
            f'<li><span class="bad">{text(unplaced_subject(pod, count))}</span>: {text(pod.reason)}'
            + (f'<ul class="details">{details}</ul>' if details else "")
            + "</li>"
        )
    yield "</ul>"


def _notes(report: SimulationReport) -> Iterator[str]:
    for note in report.notes:
        yield f'<p class="summary note">Note: {text(note)}</p>'
