"""Strict schema validation of DRA objects and of the workloads whose pods reference claims."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.checks.api_problems import RULE_OF_PROBLEM, reported
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext


def check(ctx: CheckContext) -> Iterator[Violation]:
    # Objects of a kind/version the release does not have get no schema (DRA200 reports them).
    for obj, errors in ctx.schema_errors.items():
        for error in errors:
            if not reported(obj, error):
                continue
            rule = RULE_OF_PROBLEM[error.problem]
            yield Violation(rule, error.message, obj, error.path, error.hint, source_path=True)
