"""``dralint plan`` as one self-contained HTML page: the decisions, then per pool the utilisation
before and after as the simulation page draws it (its styles and charts). No scripts, no external
resources; every value is escaped."""

from __future__ import annotations

from html import escape
from typing import TextIO

from dralint.report.plan.model import PlanReport, plural
from dralint.report.simulation import percent
from dralint.report.simulation.html import STYLE, chart
from dralint.report.simulation.model import PoolRow

_PLAN_STYLE = """
ul.decisions li { margin: .25rem 0; }
.add { color: #1a7f37; } .remove { color: #cf222e; } .kept { color: #57606a; }
.pair { display: flex; gap: .5rem; align-items: flex-start; }
.pair figure { margin: 0; } .pair figcaption { font-size: .8rem; color: #57606a; }
"""


def _pool(key: tuple[str, str], before: PoolRow | None, after: PoolRow | None) -> str:
    name = f"{key[0]}/{key[1]}"
    parts = []
    for label, pool in (("before", before), ("after", after)):
        body = chart(pool) if pool is not None else '<p class="summary">not in the cluster</p>'
        parts.append(f'<figure data-when="{label}"><figcaption>{label}</figcaption>{body}</figure>')
    return (
        f'<figure class="pool" data-pool="{escape(name)}"><figcaption><strong>{escape(name)}</strong></figcaption>'
        f'<div class="pair">{"".join(parts)}</div></figure>'
    )


def render(report: PlanReport, stream: TextIO) -> None:
    added = sum(len(up.new_nodes) for up in report.scale_up)
    out: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>dralint plan</title>",
        f"<style>{STYLE}{_PLAN_STYLE}</style></head><body>",
        "<h1>dralint plan</h1>",
        f'<p class="summary" id="summary">Add {plural(added, "node")}, remove {len(report.scale_down)}, '
        f"{len(report.unplaceable)} unplaceable (Kubernetes "
        f"{escape(str(report.target.get('kubernetesVersion', '')))}, expander {escape(report.expander)}).</p>",
        '<h2>Scale-up</h2><ul class="decisions" id="scale-up">',
    ]
    for up in report.scale_up:
        out.append(
            f'<li class="add">+ {plural(len(up.new_nodes), "node")} of pool <strong>{escape(up.node_pool)}</strong> '
            f"({escape(', '.join(up.new_nodes))}) for {plural(len(up.pods), 'pod')}: {escape(', '.join(up.pods))}</li>"
        )
    out.append("</ul>")
    if report.unplaceable:
        out.append(f'<h2>Unplaceable pods ({len(report.unplaceable)})</h2><ul id="unplaceable">')
        out.extend(
            f"<li><strong>{escape(p.pod)}</strong> ({escape(p.workload)}): {escape(p.reason)}</li>"
            for p in report.unplaceable
        )
        out.append("</ul>")
    out.append(f'<h2>Scale-down (below {percent(report.threshold)})</h2><ul class="decisions" id="scale-down">')
    for down in report.scale_down:
        moves = ", ".join(f"{pod} → {to}" for pod, to in down.moved) or "no pods to move"
        out.append(
            f'<li class="remove">− <strong>{escape(down.node)}</strong> (pool {escape(down.node_pool)}, '
            f"{percent(down.utilisation)}): {escape(moves)}</li>"
        )
    for kept in report.kept:
        out.append(
            f'<li class="kept">kept <strong>{escape(kept.node)}</strong> (pool {escape(kept.node_pool)}, '
            f"{percent(kept.utilisation)}): {escape(kept.reason)}</li>"
        )
    out.append('</ul><h2>Utilisation</h2><div class="pools" id="utilisation">')
    before = {(p.driver, p.pool): p for p in report.before}
    after = {(p.driver, p.pool): p for p in report.after}
    for key in [*before, *(k for k in after if k not in before)]:
        out.append(_pool(key, before.get(key), after.get(key)))
    out.append("</div></body></html>")
    stream.write("\n".join(out) + "\n")
