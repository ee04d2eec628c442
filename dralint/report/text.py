"""Concise text: one finding per line, ``path:line:col: severity RULE-ID message (object)``, then a summary."""

from __future__ import annotations

from collections import Counter
from typing import TextIO

from dralint.findings import Finding
from dralint.read.manifests import HELM_ADVICE
from dralint.report import Report

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "info": "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def render(report: Report, stream: TextIO) -> None:
    for finding in report.shown:
        stream.write(finding_line(report, finding) + "\n")
    if not report.quiet:
        stream.write(summary_line(report) + "\n")


def finding_line(report: Report, finding: Finding, *, hint: bool = True) -> str:
    """``path:line:col: severity RULE-ID message (object)``, then ``; hint`` and the suppression note."""
    where = f"{finding.location.file}:{finding.location.line}:{finding.location.column}"
    severity: str = finding.severity
    if report.color:
        where = f"{_BOLD}{where}{_RESET}"
        severity = f"{_COLORS[severity]}{severity}{_RESET}"
    line = f"{where}: {severity} {finding.rule} {finding.message}"
    if finding.object is not None:
        line += f" ({finding.object.display()})"
    if hint and finding.hint:
        line += f"; {finding.hint}"
    if finding.suppressed is not None:
        note = f"[suppressed by {finding.suppressed.kind}"
        note += f": {finding.suppressed.reason}]" if finding.suppressed.reason else "]"
        line += " " + (f"{_DIM}{note}{_RESET}" if report.color else note)
    return line


def summary_line(report: Report) -> str:
    counts: Counter[str] = Counter(f.severity for f in report.active)
    suppressed = len(report.suppressed)
    s = report.summary
    parts = [
        f"{s.files} file{'s' * (s.files != 1)}",
        f"{s.objects} object{'s' * (s.objects != 1)}",
    ]
    tally = ", ".join(
        f"{counts[level]} {level}{'s' * (counts[level] != 1 and level != 'info')}"
        for level in ("error", "warning", "info")
    )
    line = f"{', '.join(parts)}: {tally}"
    if suppressed:
        line += f" ({suppressed} suppressed)"
    if s.other_documents:
        line += f"; {s.other_documents} non-Kubernetes document{'s' * (s.other_documents != 1)} skipped"
    if s.skipped_files:
        line += "; " + skipped_files(s.skipped_files)
    return line


def skipped_files(skipped: tuple[tuple[str, str], ...]) -> str:
    """The files a run skipped because they are not manifests: how many, the first three, what to do with charts."""
    names = ", ".join(name for name, _ in skipped[:3]) + (f" and {len(skipped) - 3} more" if len(skipped) > 3 else "")
    text = f"{len(skipped)} file{'s' * (len(skipped) != 1)} skipped, not Kubernetes manifests ({names})"
    charts = sum(1 for _, why in skipped if why == "helm-chart")
    if charts:
        text += f"; {'one is' if charts == 1 else f'{charts} are'} of a Helm chart: {HELM_ADVICE}"
    return text


def statistics(report: Report, stream: TextIO) -> None:
    """``--statistics``: the count of shown findings per rule, most frequent first, as ruff prints them."""
    for line in statistics_lines(report):
        stream.write(line + "\n")
    if not report.quiet:
        stream.write(summary_line(report) + "\n")


def statistics_lines(report: Report) -> list[str]:
    """``count<TAB>RULE-ID<TAB>name`` per rule of the shown findings, most frequent first."""
    counts: Counter[str] = Counter(f.rule for f in report.shown)
    names = {f.rule: f.name for f in report.shown}
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    width = max((len(str(count)) for _, count in rows), default=1)
    return [f"{count:>{width}}\t{rule}\t{names[rule]}" for rule, count in rows]
