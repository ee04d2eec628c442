"""Text with the source: each finding's line, a caret under the reported token, and the hint (ruff's ``full``).

```
apps/claim.yaml:12:22: error DRA300 DeviceClass "gpu.exmaple.com" is not defined in the inputs (ResourceClaim/ml/a)
   |
12 |       deviceClassName: gpu.exmaple.com
   |                        ^^^^^^^^^^^^^^^ DRA300
   |
   = hint: did you mean `gpu.example.com`?
```

Findings are separated by a blank line and followed by the summary line of the concise format.
The source line comes from :attr:`Report.excerpts`; a finding without one (a file that could not
be decoded) prints its first line only.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TextIO

from dralint.findings import Finding
from dralint.report import Report, escape
from dralint.report.text import finding_line, summary_line

_BLUE, _RED, _RESET = "\033[34m", "\033[31m", "\033[0m"
# A quoted scalar, a key (up to its colon), or any other run of non-blank characters.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\']|\'\')*\'|[^\s:]+(?:(?::(?!\s|$))[^\s:]*)*|\S')


def render(report: Report, stream: TextIO) -> None:
    for finding in report.shown:
        stream.write(finding_line(report, finding, hint=False) + "\n")
        source = report.excerpts.get((finding.location.file, finding.location.line))
        if source is not None:
            stream.write(_excerpt(report, finding, source))
        if finding.hint:
            stream.write(f"{_gutter(finding)}= hint: {finding.hint}\n")
        stream.write("\n")
    if not report.quiet:
        stream.write(summary_line(report) + "\n")


def _gutter(finding: Finding) -> str:
    return " " * len(str(finding.location.line)) + " "


def _excerpt(report: Report, finding: Finding, source: str) -> str:
    number = str(finding.location.line)
    blank = " " * len(number)
    column = max(1, finding.location.column) - 1
    shown = display(source)
    start = width(display(source[:column]))
    match = _TOKEN.match(source, column) if column < len(source) else None
    length = max(1, width(display(match.group()))) if match else 1
    bar = f"{_BLUE}|{_RESET}" if report.color else "|"
    caret = "^" * length + f" {finding.rule}"
    if report.color:
        caret = f"{_RED}{caret}{_RESET}"
    return (
        f"{blank} {bar}\n"
        f"{number} {bar}{' ' + shown if shown else ''}\n"
        f"{blank} {bar} {' ' * start}{caret}\n"
        f"{blank} {bar}\n"
    )


def display(text: str) -> str:
    """``text`` safe for a terminal: tabs as one space, other control characters escaped (``\\x1b``)."""
    return escape.for_terminal(text.replace("\t", " "))


def width(text: str) -> int:
    """Terminal columns of ``text``: wide (East Asian) characters take two, combining marks none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text
    )
