"""GitHub Actions workflow commands: one annotation per finding, grouped by file, then the summary.

``::error file=<path>,line=<n>,col=<c>,title=<RULE-ID>::<message>``; ``line=`` is always
given, since annotations without it do not show in a pull request's "Files changed".
"""

from __future__ import annotations

from itertools import groupby
from typing import TextIO

from dralint.report import Report
from dralint.report.text import summary_line

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, stream: TextIO) -> None:
    for file, findings in groupby(report.shown, key=lambda f: f.location.file):
        stream.write(f"::group::{_escape_data(file)}\n")
        for finding in findings:
            properties = ",".join(
                f"{key}={_escape_property(value)}"
                for key, value in (
                    ("file", finding.location.file),
                    ("line", str(finding.location.line)),
                    ("col", str(finding.location.column)),
                    ("title", f"{finding.rule} {finding.name}"),
                )
            )
            message = finding.message
            if finding.object is not None:
                message += f" ({finding.object.display()})"
            if finding.hint:
                message += f"; {finding.hint}"
            if finding.suppressed is not None:
                message += f" [suppressed by {finding.suppressed.kind}: {finding.suppressed.reason}]"
                command = "notice"
            else:
                command = _COMMAND[finding.severity]
            stream.write(f"::{command} {properties}::{_escape_data(message)}\n")
        stream.write("::endgroup::\n")
    stream.write(summary_line(report) + "\n")
