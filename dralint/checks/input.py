"""Defects of the input itself: syntax, encoding, templates, duplicate keys, size limits, half objects."""

from __future__ import annotations

import json
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
        if broken.value is None:
            line, column = broken.document.position(broken.prefix)
            other = "kind" if broken.missing == "apiVersion" else "apiVersion"
            message = f"object has {other} but no {broken.missing}"
            hint = f"add {broken.missing}"
        else:
            line, column = broken.document.position((*broken.prefix, broken.missing))
            message = f"{broken.missing} must be a non-empty string, not {json.dumps(broken.value, default=str)}"
            hint = f"write {broken.missing} as a string such as {_EXAMPLE[broken.missing]}"
        yield Violation(
            "DRA006",
            message,
            hint=hint,
            location=Location(broken.document.file, line, column),
        )


_EXAMPLE = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim"}
