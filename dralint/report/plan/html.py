"""``dralint plan`` as one self-contained HTML page: the decisions, then per pool its utilisation
before and after, drawn with the pieces of the simulation page (:mod:`dralint.report.htmlpage`).
No scripts, no external resources; every value is escaped."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

from dralint.report.htmlpage import bar, document, text
from dralint.report.plan.model import PlanReport, plural
from dralint.report.simulation import percent
from dralint.report.simulation.model import PoolRow

_STYLE = """
ul.decisions li { margin: .25rem 0; }
.add { color: #1a7f37; } .kept { color: #57606a; }
"""


def render(report: PlanReport, stream: TextIO) -> None:
    stream.write(document("dralint plan", _body(report), style=_STYLE))


def _body(report: PlanReport) -> Iterator[str]:
    added = sum(len(up.new_nodes) for up in report.scale_up)
    release = text(report.target.get("kubernetesVersion", ""))
    yield (
        f'<p class="summary" id="summary">Add {plural(added, "node")}, remove {len(report.scale_down)}, '
        f"{len(report.unplaceable)} unplaceable (Kubernetes {release}, expander {text(report.expander)}).</p>"
    )
    for note in report.notes:
        yield f'<p class="summary note">Note: {text(note)}</p>'
    yield '<h2>Scale-up</h2><ul class="decisions" id="scale-up">'
    for up in report.scale_up:
        yield (
            f'<li class="add">+ {plural(len(up.new_nodes), "node")} of pool <b>{text(up.node_pool)}</b> '
            f"({text(', '.join(up.new_nodes))}) for {plural(len(up.pods), 'pod')}: {text(', '.join(up.pods))}</li>"
        )
    yield "</ul>"
    if report.unplaceable:
        yield f'<h2>Unplaceable pods ({len(report.unplaceable)})</h2><ul id="unplaceable">'
        for pod in report.unplaceable:
            yield f'<li><b class="bad">{text(pod.pod)}</b> ({text(pod.workload)}): {text(pod.reason)}</li>'
        yield "</ul>"
    yield f'<h2>Scale-down (below {percent(report.threshold)})</h2><ul class="decisions" id="scale-down">'
    for down in report.scale_down:
        moves = ", ".join(f"{pod} → {to}" for pod, to in down.moved) or "no pods to move"
        yield (
            f"<li>− <b>{text(down.node)}</b> (pool {text(down.node_pool)}, {percent(down.utilisation)}): "
            f"{text(moves)}</li>"
        )
    for kept in report.kept:
        yield (
            f'<li class="kept">kept <b>{text(kept.node)}</b> (pool {text(kept.node_pool)}, '
            f"{percent(kept.utilisation)}): {text(kept.reason)}</li>"
        )
    yield "</ul>"
    yield '<h2>Utilisation</h2><table id="utilisation"><thead><tr>'
    yield "<th>Pool</th><th>Node</th><th>Before</th><th>After</th></tr></thead><tbody>"
    before = {(p.driver, p.pool): p for p in report.before}
    after = {(p.driver, p.pool): p for p in report.after}
    for key in [*before, *(k for k in after if k not in before)]:
        pool = after.get(key) or before[key]
        node = pool.nodes[0] if len(pool.nodes) == 1 else "network-attached" if not pool.nodes else ""
        yield (
            f'<tr data-pool="{text(key[0])}/{text(key[1])}"><td>{text(key[0])}/{text(key[1])}</td>'
            f"<td>{text(node)}</td><td>{_cell(before.get(key))}</td><td>{_cell(after.get(key))}</td></tr>"
        )
    yield "</tbody></table>"


def _cell(pool: PoolRow | None) -> str:
    if pool is None:
        return "-"
    return f"{bar(pool.utilisation)} · {pool.allocated}/{pool.devices}"
