"""The full format (dralint/report/full.py): the caret sits under the reported token, whatever the line holds."""

from __future__ import annotations

import io

import pytest

from dralint.findings import Finding, Location
from dralint.report import Report, Summary
from dralint.report.full import render


def _excerpt(line: str, column: int) -> list[str]:
    finding = Finding("DRA100", "unknown-field", "error", "m", Location("a.yaml", 7, column))
    report = Report((finding,), Summary(1, 1, 1, 0), excerpts={("a.yaml", 7): line})
    stream = io.StringIO()
    render(report, stream)
    return stream.getvalue().splitlines()[2:4]


@pytest.mark.parametrize(
    ("line", "column", "expected"),
    [
        ("  deviceClassName: gpu", 3, ["7 |   deviceClassName: gpu", "  |   ^^^^^^^^^^^^^^^ DRA100"]),
        ("  name: gpu.example.com", 9, ["7 |   name: gpu.example.com", "  |         ^^^^^^^^^^^^^^^ DRA100"]),
        ('  cel: "a b"  # c', 8, ['7 |   cel: "a b"  # c', "  |        ^^^^^ DRA100"]),
        ("- name: x", 1, ["7 | - name: x", "  | ^ DRA100"]),
        ("  image: repo:5000/x:1", 10, ["7 |   image: repo:5000/x:1", "  |          ^^^^^^^^^^^^^ DRA100"]),
        # wide characters take two columns; control characters are escaped, never sent to the terminal
        ("  名前: x", 7, ["7 |   名前: x", "  |         ^ DRA100"]),
        ("  a: \x1b[2Jx", 6, ["7 |   a: \\x1b[2Jx", "  |      ^^^^^^^^ DRA100"]),
        ("", 1, ["7 |", "  | ^ DRA100"]),
    ],
)
def test_full_caret_underlines_the_token_at_the_column(line: str, column: int, expected: list[str]) -> None:
    assert _excerpt(line, column) == expected


def test_full_without_source_line_prints_the_finding_and_hint_only() -> None:
    finding = Finding("DRA001", "yaml-syntax", "error", "bad", Location("a.yaml", 3, 1), hint="fix it")
    stream = io.StringIO()
    render(Report((finding,), Summary(1, 0, 0, 0)), stream)
    assert stream.getvalue() == (
        "a.yaml:3:1: error DRA001 bad\n  = hint: fix it\n\n1 file, 0 objects: 1 error, 0 warnings, 0 info\n"
    )
