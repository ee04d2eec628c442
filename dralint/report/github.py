"""GitHub Actions workflow commands: one annotation per finding, grouped by file, then the summary.

``::error file=<path>,line=<n>,col=<c>,title=<RULE-ID>::<message>``; ``line=`` is always
given, since annotations without it do not show in a pull request's "Files changed".

GitHub shows at most 10 error, 10 warning and 10 notice annotations per step (and 50 per job)
and drops the rest without a word. So each kind is annotated up to its limit; the findings
beyond it are printed as plain log lines, and one notice says how many were not annotated and
where to find them. :func:`summary_markdown` is the job summary (``$GITHUB_STEP_SUMMARY``):
counts per rule and the first findings, which the check command writes when the variable is set.
"""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from typing import TextIO

from dralint.findings import Finding
from dralint.report import Report
from dralint.report.text import finding_line, statistics_lines, summary_line

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
# Annotations of each kind GitHub shows per step (docs: "problem matchers", Limitations).
ANNOTATIONS_PER_KIND = 10
SUMMARY_FINDINGS = 20  # findings listed in the job summary


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(finding: Finding) -> str:
    return "notice" if finding.suppressed is not None else _COMMAND[finding.severity]


def _message(finding: Finding) -> str:
    """The message with the object it is about and the hint: ``message (object); hint``."""
    message = finding.message
    if finding.object is not None:
        message += f" ({finding.object.display()})"
    if finding.hint:
        message += f"; {finding.hint}"
    return message


def annotated(report: Report) -> set[int]:
    """Indexes (into ``report.shown``) of the findings that get an annotation, within GitHub's limits.

    When some findings go without, one notice slot is kept for the note that says so.
    """
    shown = report.shown
    kinds = Counter(_command(f) for f in shown)
    overflow = any(count > ANNOTATIONS_PER_KIND for count in kinds.values())
    budget = {kind: ANNOTATIONS_PER_KIND for kind in ("error", "warning", "notice")}
    if overflow:
        budget["notice"] -= 1
    chosen: set[int] = set()
    for index, finding in enumerate(shown):
        kind = _command(finding)
        if budget[kind] > 0:
            budget[kind] -= 1
            chosen.add(index)
    return chosen


def render(report: Report, stream: TextIO) -> None:
    _render(report, stream, statistics=False)


def statistics(report: Report, stream: TextIO) -> None:
    """``--statistics``: the annotations as usual (they are what a pull request shows), then, instead of a
    log line per finding left without one, the counts per rule and the summary line."""
    _render(report, stream, statistics=True)


def _render(report: Report, stream: TextIO, *, statistics: bool) -> None:
    chosen = annotated(report)
    numbered = list(enumerate(report.shown))
    for file, group in groupby(numbered, key=lambda pair: pair[1].location.file):
        stream.write(f"::group::{_escape_data(file)}\n")
        for index, finding in group:
            if index not in chosen:
                if not statistics:
                    stream.write(_escape_data(finding_line(report, finding)) + "\n")
                continue
            properties = ",".join(
                f"{key}={_escape_property(value)}"
                for key, value in (
                    ("file", finding.location.file),
                    ("line", str(finding.location.line)),
                    ("col", str(finding.location.column)),
                    ("title", f"{finding.rule} {finding.name}"),
                )
            )
            message = _message(finding)
            if finding.suppressed is not None:
                message += f" [suppressed by {finding.suppressed.kind}: {finding.suppressed.reason}]"
            stream.write(f"::{_command(finding)} {properties}::{_escape_data(message)}\n")
        stream.write("::endgroup::\n")
    left = len(numbered) - len(chosen)
    if left:
        where = "counted per rule in this step's log" if statistics else "in this step's log"
        note = (
            f"{left} more finding{'s' * (left != 1)} not annotated: GitHub shows {ANNOTATIONS_PER_KIND} error, "
            f"{ANNOTATIONS_PER_KIND} warning and {ANNOTATIONS_PER_KIND} notice annotations per step; "
            f"all findings are {where} and the job summary"
        )
        stream.write(f"::notice title=dralint::{_escape_data(note)}\n")
    if statistics:
        stream.writelines(_escape_data(line) + "\n" for line in statistics_lines(report))
    stream.write(summary_line(report) + "\n")


def summary_markdown(report: Report) -> str:
    """The job summary: the totals, a table of counts per rule, and the first findings."""
    active = report.active
    lines = ["## dralint", "", summary_line(report), ""]
    if active:
        counts = Counter(f.rule for f in active)
        first = {f.rule: f for f in reversed(active)}
        order = sorted(counts, key=lambda rule: (_rank(first[rule]), -counts[rule], rule))
        lines += ["| Rule | Name | Severity | Findings |", "| --- | --- | --- | ---: |"]
        lines += [f"| {rule} | {_cell(first[rule].name)} | {first[rule].severity} | {counts[rule]} |" for rule in order]
        top = sorted(active, key=_rank)[:SUMMARY_FINDINGS]
        heading = "Findings" if len(top) == len(active) else f"First {len(top)} of {len(active)} findings"
        lines += ["", f"### {heading}", "", "| Location | Rule | Message |", "| --- | --- | --- |"]
        for finding in top:
            where = f"{finding.location.file}:{finding.location.line}:{finding.location.column}"
            lines.append(f"| `{_code(where)}` | {finding.severity} {finding.rule} | {_cell(_message(finding))} |")
    return "\n".join(lines) + "\n"


_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}


def _rank(finding: Finding) -> int:
    return _SEVERITY_RANK[finding.severity]


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell: no line breaks, pipes, or HTML."""
    text = " ".join(text.split())
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def _code(text: str) -> str:
    return " ".join(text.split()).replace("`", "'").replace("|", "\\|")
