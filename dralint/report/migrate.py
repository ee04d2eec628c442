"""Render ``dralint migrate --check``: each workload's pods placed on each road, and why not (text, JSON, HTML)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from dralint.migrate.classes import GATE
from dralint.migrate.roads import ROADS, Workload
from dralint.report.htmlpage import document, text

__all__ = ["FORMATS", "render"]

TITLES = {"today": "today (device plugin)", "switch": "after the switch", "rewrite": "after the rewrite"}


def render(fmt: str, found: Sequence[Workload], release: str, gate: bool, stream: TextIO) -> None:
    FORMATS[fmt](found, release, gate, stream)


def _text(found: Sequence[Workload], release: str, gate: bool, out: TextIO) -> None:
    out.write(f"Kubernetes {release}, {GATE} {'on' if gate else 'off'}: pods placed\n")
    header = ("WORKLOAD", "RESOURCES", "PODS", "TODAY", "SWITCH", "REWRITE")
    rows = [(w.name, ",".join(w.resources), str(w.pods), *(_placed(w, r) for r in ROADS)) for w in found]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    for row in (header, *rows):
        out.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() + "\n")
    for workload in found:
        for road in ROADS:
            for reason in workload.roads[road].reasons:
                out.write(f"{workload.name}: {TITLES[road]}: {reason}\n")
    if not found:
        out.write("no workload asks for a device-plugin resource\n")


def _json(found: Sequence[Workload], release: str, gate: bool, out: TextIO) -> None:
    document_: dict[str, Any] = {
        "target": {"kubernetesVersion": release, "featureGates": {GATE: gate}},
        "workloads": [
            {
                "workload": w.name,
                "resources": list(w.resources),
                "pods": w.pods,
                **{r: _road(w, r) for r in ROADS},
            }
            for w in found
        ],
    }
    out.write(json.dumps(document_, indent=2) + "\n")


def _placed(workload: Workload, road: str) -> str:
    """``4``, or ``4 (1 device plugin)`` when nodes that kept their device plugin serve some of them."""
    found = workload.roads[road]
    return f"{found.placed} ({found.device_plugin} device plugin)" if found.device_plugin else str(found.placed)


def _road(workload: Workload, road: str) -> dict[str, Any]:
    found = workload.roads[road]
    counts = {"placed": found.placed, **({"devicePlugin": found.device_plugin} if road == "switch" else {})}
    return {**counts, "reasons": list(found.reasons)}


def _html(found: Sequence[Workload], release: str, gate: bool, out: TextIO) -> None:
    out.write(document("dralint migrate --check", _body(found, release, gate), style=_STYLE))


_STYLE = "td.fewer{color:#b3261e;font-weight:600}"


def _body(found: Sequence[Workload], release: str, gate: bool) -> Iterator[str]:
    state = "on" if gate else "off"
    yield f'<p class="summary">Kubernetes {text(release)}, {GATE} {state}: pods placed on each road.</p>'
    if not found:
        yield "<p>No workload asks for a device-plugin resource.</p>"
        return
    yield '<table id="roads"><thead><tr><th>Workload</th><th>Resources</th><th>Pods</th>'
    yield "".join(f"<th>{text(TITLES[r])}</th>" for r in ROADS) + "</tr></thead><tbody>"
    for w in found:
        today = w.roads["today"].placed
        cells = "".join(
            f'<td class="{"fewer" if w.roads[r].placed < today else "same"}">{text(_placed(w, r))}</td>' for r in ROADS
        )
        yield (
            f'<tr data-workload="{text(w.name)}"><td>{text(w.name)}</td><td>{text(", ".join(w.resources))}</td>'
            f"<td>{w.pods}</td>{cells}</tr>"
        )
    yield "</tbody></table>"
    reasons = [(w, r, reason) for w in found for r in ROADS for reason in w.roads[r].reasons]
    if reasons:
        yield '<h2>Why not</h2><ul id="reasons">'
        for w, road, reason in reasons:
            yield f"<li><strong>{text(w.name)}</strong>, {text(TITLES[road])}: {text(reason)}</li>"
        yield "</ul>"


FORMATS = {"html": _html, "json": _json, "text": _text}
