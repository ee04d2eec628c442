"""Defects of the input itself: syntax, encoding, templates, duplicate keys, size limits, half objects."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.context import CheckContext
from dralint.findings import Location, Violation

# DecodeIssue.kind → rule id
RULE_OF_ISSUE = {
    "syntax": "DRA001",
    "encoding": "DRA002",
    "template": "DRA003",
    "duplicate-key": "DRA004",
    "too-large": "DRA005",
    "too-deep": "DRA005",
}


def check(ctx: CheckContext) -> Iterator[Violation]:
    for file, issue in ctx.workspace.issues:
        yield Violation(
            RULE_OF_ISSUE[issue.kind],
            issue.message,
            hint=issue.hint,
            location=Location(file, issue.line, issue.column),
        )
    for broken in ctx.workspace.broken:
        line, column = broken.document.position(broken.prefix)
        other = "kind" if broken.missing == "apiVersion" else "apiVersion"
        yield Violation(
            "DRA006",
            f"object has {other} but no {broken.missing}",
            hint=f"add {broken.missing}",
            location=Location(broken.document.file, line, column),
        )
