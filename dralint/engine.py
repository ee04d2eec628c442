"""Runs the checks and turns their violations into findings.

Checks say *what* is wrong and *where in an object*; the engine adds everything else: the
rule's name and configured severity, the file position (mapping canonical v1 paths back to
the user's shape), filtering to the files being checked, and a deterministic order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from dralint import checks
from dralint.context import CheckContext
from dralint.findings import SEVERITY_RANK, Finding, Location, Severity, Violation
from dralint.paths import Path
from dralint.rules import Rule


@dataclass(frozen=True, slots=True)
class Selection:
    """Which rules run and at which severity (from the command line and configuration)."""

    enabled: frozenset[str]
    severities: Mapping[str, Severity] = field(default_factory=dict)


def run(ctx: CheckContext, rules: Mapping[str, Rule], selection: Selection) -> list[Finding]:
    """All findings for the enabled rules, resolved and sorted."""
    wanted: dict[str, set[str]] = {}
    for rule_id in selection.enabled:
        rule = rules[rule_id]
        wanted.setdefault(rule.check, set()).add(rule_id)
    findings: list[Finding] = []
    for check_name in sorted(wanted):
        for violation in checks.load(check_name)(ctx):
            if violation.rule not in wanted[check_name]:
                continue
            finding = resolve(ctx, violation, rules[violation.rule], selection)
            if finding is not None:
                findings.append(finding)
    return sort_unique(findings)


def resolve(ctx: CheckContext, violation: Violation, rule: Rule, selection: Selection) -> Finding | None:
    """The finding for one violation, or ``None`` when it lies in a file that is only context."""
    severity = selection.severities.get(rule.id, rule.severity)
    obj = violation.obj
    path: Path = violation.path
    if violation.location is not None:
        location = violation.location
    elif obj is not None:
        if not violation.source_path:
            normalised = ctx.normalised.get(obj)
            if normalised is not None:
                path = normalised.paths.to_source(path)
        if violation.offset is not None:
            line, column = obj.document.scalar_position(obj.prefix + path, violation.offset)
        else:
            line, column = obj.position(path)
        location = Location(obj.file, line, column)
    else:
        location = Location("-", 1, 1)
    if ctx.workspace.checked_files and location.file not in ctx.workspace.checked_files:
        return None
    return Finding(
        rule=rule.id,
        name=rule.name,
        severity=severity,
        message=violation.message,
        location=location,
        object=obj.ref() if obj is not None else None,
        path=path,
        hint=violation.hint,
    )


def sort_unique(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in file/line/column/rule order, identical duplicates dropped."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for finding in sorted(findings, key=Finding.sort_key):
        key = (*finding.sort_key(), finding.object)
        if key not in seen:
            seen.add(key)
            out.append(finding)
    return out


def exit_code(findings: Iterable[Finding], fail_on: str) -> int:
    """1 when an unsuppressed finding is at or above ``fail_on`` (``never`` never fails), else 0."""
    if fail_on == "never":
        return 0
    threshold = SEVERITY_RANK[fail_on]
    return int(any(f.suppressed is None and SEVERITY_RANK[f.severity] >= threshold for f in findings))
