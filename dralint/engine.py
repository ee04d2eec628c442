"""Runs the checks and turns their violations into findings.

Checks say *what* is wrong and *where in an object*; the engine adds everything else: the
rule's name and configured severity, the file position (mapping canonical v1 paths back to
the user's shape), filtering to the files being checked and per-path ignores, suppressions,
the rules about suppressions themselves, and a deterministic order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from dralint import checks, globs
from dralint.api.objects import KubeObject
from dralint.context import CheckContext
from dralint.findings import SEVERITY_RANK, Finding, Location, Severity, Suppression, Violation
from dralint.paths import Path
from dralint.rules import Rule


@dataclass(frozen=True, slots=True)
class Selection:
    """Which rules run, at which severity and with which options (from flags and configuration)."""

    enabled: frozenset[str]
    severities: Mapping[str, Severity] = field(default_factory=dict)
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # rule id -> option -> value
    path_ignores: tuple[tuple[str, frozenset[str]], ...] = ()  # (glob, rule ids)
    root: str = "."  # directory the path globs are relative to


class Suppressor(Protocol):
    """Decides which findings are suppressed, and reports on the suppressions afterwards."""

    def suppression(self, finding: Finding, obj: KubeObject | None) -> Suppression | None: ...

    def violations(self, ran: frozenset[str]) -> Iterable[Violation]: ...


def run(
    ctx: CheckContext, rules: Mapping[str, Rule], selection: Selection, suppressor: Suppressor | None = None
) -> list[Finding]:
    """All findings for the enabled rules, resolved, suppressed where a suppression matched, and sorted."""
    findings: list[Finding] = []
    for violation in _violations(ctx, rules, selection):
        finding = resolve(ctx, violation, rules[violation.rule], selection)
        if finding is None or _path_ignored(finding, selection):
            continue
        if suppressor is not None:
            finding = dataclasses.replace(finding, suppressed=suppressor.suppression(finding, violation.obj))
        findings.append(finding)
    if suppressor is not None:
        ran = frozenset(r for r in selection.enabled if not checks.is_engine(rules[r].check))
        for violation in suppressor.violations(ran):
            if violation.rule not in selection.enabled:
                continue
            finding = resolve(ctx, violation, rules[violation.rule], selection, context_filter=False)
            if finding is not None and not _path_ignored(finding, selection):
                findings.append(dataclasses.replace(finding, suppressed=suppressor.suppression(finding, None)))
    return sort_unique(findings)


def _violations(ctx: CheckContext, rules: Mapping[str, Rule], selection: Selection) -> Iterator[Violation]:
    """Violations of the enabled rules: registered checks in name order, then CEL policies."""
    wanted: dict[str, set[str]] = {}
    policies: list[Rule] = []
    for rule_id in sorted(selection.enabled):
        rule = rules[rule_id]
        if rule.policy is not None:
            policies.append(rule)
        elif rule.check is not None and not checks.is_engine(rule.check):
            wanted.setdefault(rule.check, set()).add(rule_id)
    for check_name in sorted(wanted):
        for violation in checks.load(check_name)(ctx):
            if violation.rule in wanted[check_name]:
                yield violation
    if policies:
        from dralint.policy import run as policy_run

        yield from policy_run.check(ctx, policies)


def _path_ignored(finding: Finding, selection: Selection) -> bool:
    if not selection.path_ignores:
        return False
    relative = globs.relative_to(finding.location.file, selection.root)
    return any(finding.rule in ids and globs.matches(glob, relative) for glob, ids in selection.path_ignores)


def resolve(
    ctx: CheckContext, violation: Violation, rule: Rule, selection: Selection, *, context_filter: bool = True
) -> Finding | None:
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
    if context_filter and ctx.workspace.checked_files and location.file not in ctx.workspace.checked_files:
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
