"""``dralint simulate`` as one self-contained HTML page: an inline SVG chart per pool, the placement
table and the unplaced pods. No scripts, no external resources; every value is escaped."""

from __future__ import annotations

from html import escape
from typing import TextIO

from dralint.apimachinery.quantity import QuantityError, parse_quantity
from dralint.report.simulation import percent
from dralint.report.simulation.model import PoolRow, SimulationReport

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem; color: #1f2328; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
.summary { color: #57606a; }
.pools { display: flex; flex-wrap: wrap; gap: 1rem; }
figure.pool { margin: 0; padding: .5rem; border: 1px solid #d0d7de; border-radius: 6px; }
figure.pool figcaption { font-size: .85rem; margin-bottom: .25rem; }
table { border-collapse: collapse; margin-top: .5rem; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: left; vertical-align: top; font-size: .9rem; }
th { background: #f6f8fa; }
tr[data-outcome="placed"] td.outcome { color: #1a7f37; }
tr:not([data-outcome="placed"]) td.outcome { color: #cf222e; font-weight: 600; }
code { font-size: .85rem; }
ul.details { margin: .25rem 0 0 1rem; padding: 0; }
"""

_WIDTH = 240
_BAR = 18


def _bar(y: int, label: str, share: float, text: str) -> str:
    filled = max(0.0, min(1.0, share)) * _WIDTH
    colour = "#cf222e" if share >= 1 else "#bf8700" if share >= 0.8 else "#2da44e"
    return (
        f'<text x="0" y="{y + 13}" font-size="11">{escape(label)}</text>'
        f'<rect x="90" y="{y}" width="{_WIDTH}" height="{_BAR}" fill="#eaeef2"/>'
        f'<rect class="used" x="90" y="{y}" width="{filled:.1f}" height="{_BAR}" fill="{colour}"/>'
        f'<text x="{94 + _WIDTH}" y="{y + 13}" font-size="11">{escape(text)}</text>'
    )


def chart(pool: PoolRow) -> str:
    bars = [_bar(0, "devices", pool.utilisation, f"{pool.allocated}/{pool.devices} · {percent(pool.utilisation)}")]
    for i, counter in enumerate(pool.counters, start=1):
        label = counter.counter if len(counter.counter) <= 14 else counter.counter[:13] + "…"
        share = _ratio(counter.consumed, counter.total)
        bars.append(_bar(i * (_BAR + 6), label, share, f"{counter.consumed}/{counter.total}"))
    height = len(bars) * (_BAR + 6)
    name = f"{pool.driver}/{pool.pool}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH + 170}" height="{height}" role="img" '
        f'aria-label="{escape(name)}: {percent(pool.utilisation)} utilised">' + "".join(bars) + "</svg>"
    )


def _ratio(consumed: str, total: str) -> float:
    try:
        whole = parse_quantity(total)
        return float(parse_quantity(consumed).value / whole.value) if whole.value else 0.0
    except QuantityError:
        return 0.0


def render(report: SimulationReport, stream: TextIO) -> None:
    out: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>dralint simulate</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>dralint simulate</h1>",
    ]
    release = escape(str(report.target.get("kubernetesVersion", "")))
    if not report.inventory:
        out.append('<p class="summary">No inventory: nothing to dry-run against.</p>')
        out.extend(f'<p class="summary note">Note: {escape(note)}</p>' for note in report.notes)
        out.append("</body></html>")
        stream.write("\n".join(out) + "\n")
        return
    out.append(
        f'<p class="summary" id="summary">{report.placed} of {len(report.pods)} pods placed on {report.nodes} nodes '
        f"(Kubernetes {release}, {escape(report.strategy)}).</p>"
    )
    out.append('<h2>Utilisation</h2><div class="pools" id="utilisation">')
    for pool in report.pools:
        nodes = ", ".join(pool.nodes) if pool.nodes else "network-attached"
        incomplete = " · incomplete" if pool.incomplete else ""
        out.append(
            f'<figure class="pool" data-pool="{escape(pool.driver)}/{escape(pool.pool)}">'
            f"<figcaption><strong>{escape(pool.driver)}/{escape(pool.pool)}</strong> "
            f"({escape(nodes)}{incomplete})</figcaption>{chart(pool)}</figure>"
        )
    out.append("</div>")
    out.append('<h2>Placements</h2><table id="placements"><thead><tr>')
    out.append("<th>Pod</th><th>Workload</th><th>Outcome</th><th>Node</th><th>Devices</th></tr></thead><tbody>")
    for pod in report.pods:
        devices = "<br>".join(
            f"<code>{escape(claim.name)}</code>: " + ", ".join(escape(d.text) for d in claim.devices)
            for claim in pod.claims
        )
        out.append(
            f'<tr data-outcome="{escape(pod.outcome)}"><td>{escape(pod.pod)}</td><td>{escape(pod.workload)}</td>'
            f'<td class="outcome">{escape(pod.outcome)}</td><td>{escape(pod.node or "")}</td><td>{devices}</td></tr>'
        )
    out.append("</tbody></table>")
    unplaced = report.unplaced
    if unplaced:
        out.append(f'<h2>Unplaced pods ({len(unplaced)})</h2><ul id="unplaced">')
        for pod, count in report.unplaced_groups():
            details = "".join(f"<li>{escape(line)}</li>" for line in pod.details)
            subject = (
                f"<strong>{escape(pod.pod)}</strong> ({escape(pod.workload)})"
                if count == 1
                else f"<strong>{count} pods</strong> of {escape(pod.workload)}"
            )
            out.append(
                f"<li>{subject}: {escape(pod.reason)}"
                + (f'<ul class="details">{details}</ul>' if details else "")
                + "</li>"
            )
        out.append("</ul>")
    for note in report.notes:
        out.append(f'<p class="summary note">Note: {escape(note)}</p>')
    out.append("</body></html>")
    stream.write("\n".join(out) + "\n")
