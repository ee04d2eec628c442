"""Runs the checks and turns their violations into findings.

Checks say *what* is wrong and *where in an object*; the engine adds everything else: the
rule's name and configured severity, the file position (mapping canonical v1 paths back to
the user's shape), filtering to the files being checked and per-path ignores, suppressions,
the rules about suppressions themselves, and a deterministic order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol

from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.checks import registry
from dralint.config import globs
from dralint.config.select import Selection as Selection  # re-exported: what run() and collect() take
from dralint.errors import InternalError
from dralint.findings import Finding, Location, Suppression, Violation
from dralint.findings import exit_code as exit_code  # re-exported: the exit code of a run
from dralint.pipeline.context import CheckContext
from dralint.read.yamldoc import Lookup, look_up_all
from dralint.report.escape import bounded
from dralint.rules import Rule


class Suppressor(Protocol):
    """Decides which findings are suppressed, and reports on the suppressions afterwards."""

    def suppression(self, finding: Finding, obj: KubeObject | None) -> Suppression | None: ...

    def violations(self, ran: frozenset[str]) -> Iterable[Violation]: ...


Found = list[tuple[Finding, KubeObject | None]]  # findings and the objects they are about


def run(
    ctx: CheckContext, rules: Mapping[str, Rule], selection: Selection, suppressor: Suppressor | None = None
) -> list[Finding]:
    """All findings for the enabled rules, resolved, suppressed where a suppression matched, and sorted."""
    return finish(ctx, rules, selection, collect(ctx, rules, selection), suppressor)


def collect(ctx: CheckContext, rules: Mapping[str, Rule], selection: Selection, scope: registry.Scope = "all") -> Found:
    """The findings of the enabled rules whose checks are in ``scope``, resolved but not yet suppressed.

    ``local`` checks look at one object (or one file) at a time, so the inputs can be split
    between processes and their findings concatenated (``--jobs``); ``global`` ones need the
    whole input.
    """
    violations = list(_violations(ctx, rules, selection, scope))
    # Positions held by --jobs workers are asked for all at once rather than one by one.
    look_up_all([target for v in violations if (target := _lookup(ctx, v)) is not None])
    found: Found = []
    for violation in violations:
        finding = resolve(ctx, violation, rules[violation.rule], selection)
        if finding is not None and not _path_ignored(finding, selection):
            found.append((finding, violation.obj))
    return found


def finish(
    ctx: CheckContext,
    rules: Mapping[str, Rule],
    selection: Selection,
    found: Found,
    suppressor: Suppressor | None = None,
    *,
    late_checks: bool = True,
) -> list[Finding]:
    """Run the late checks on what the others found (unless ``late_checks`` is off: the language server runs
    them with its global checks, on the whole workspace), sort and deduplicate, then apply suppressions in
    that order (so baselines are used the same way whatever order the checks ran in), then add the findings
    about the suppressions themselves."""
    if late_checks:
        found = [*found, *late(ctx, rules, selection, found)]
    seen: set[tuple[object, ...]] = set()
    findings: list[Finding] = []
    for finding, obj in sorted(found, key=lambda pair: pair[0].sort_key()):
        key = (*finding.sort_key(), finding.object)
        if key in seen:
            continue
        seen.add(key)
        if suppressor is not None:
            finding = dataclasses.replace(finding, suppressed=suppressor.suppression(finding, obj))
        findings.append(finding)
    if suppressor is None:
        return findings
    ran = frozenset(r for r in selection.enabled if not registry.is_engine(rules[r].check))
    for violation in suppressor.violations(ran):
        if violation.rule not in selection.enabled:
            continue
        about = resolve(ctx, violation, rules[violation.rule], selection, context_filter=False)
        if about is not None and not _path_ignored(about, selection):
            findings.append(dataclasses.replace(about, suppressed=suppressor.suppression(about, None)))
    return sort_unique(findings)


def late(ctx: CheckContext, rules: Mapping[str, Rule], selection: Selection, found: Found) -> Found:
    """The findings of the enabled rules of the late checks (:data:`registry.LATE_CHECKS`), given the others'."""
    wanted: dict[str, set[str]] = {}
    for rule_id in sorted(selection.enabled):
        check = rules[rule_id].check
        if check is not None and check in registry.LATE_CHECKS:
            wanted.setdefault(check, set()).add(rule_id)
    out: Found = []
    reported = [finding for finding, _ in found]
    for check_name in sorted(wanted):
        for violation in registry.LATE_CHECKS[check_name](ctx, reported):
            if violation.rule not in wanted[check_name]:
                continue
            finding = resolve(ctx, violation, rules[violation.rule], selection)
            if finding is not None and not _path_ignored(finding, selection):
                out.append((finding, violation.obj))
    return out


def _violations(
    ctx: CheckContext, rules: Mapping[str, Rule], selection: Selection, scope: registry.Scope
) -> Iterator[Violation]:
    """Violations of the enabled rules in ``scope``: registered checks in name order, then CEL policies (local)."""
    wanted: dict[str, set[str]] = {}
    policies: list[Rule] = []
    for rule_id in sorted(selection.enabled):
        rule = rules[rule_id]
        if rule.policy is not None:
            policies.append(rule)
        elif rule.check is not None and rule.check in registry.CHECKS and registry.in_scope(rule.check, scope):
            wanted.setdefault(rule.check, set()).add(rule_id)
    for check_name in sorted(wanted):
        for violation in registry.CHECKS[check_name](ctx):
            owner = rules.get(violation.rule)
            if owner is None or owner.check != check_name:
                # A check reporting a rule it does not own is a bug: never drop its finding silently.
                raise InternalError(
                    f"check {check_name!r} reported {violation.rule}, which the catalogue "
                    + (f"assigns to check {owner.check!r}" if owner is not None else "does not have")
                )
            if violation.rule in wanted[check_name]:  # the check's other rules may be deselected
                yield violation
    if policies and scope != "global":
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
    """The finding for one violation, or ``None`` when it lies in a file that is only context and none of the
    objects it involves is in a checked file (then the message says which one is)."""
    severity = selection.severities.get(rule.id, rule.severity)
    obj = violation.obj
    path: Path = violation.path if violation.location is not None else _source_path(ctx, violation)
    target = _lookup(ctx, violation)
    if violation.location is not None:
        location = violation.location
    elif target is not None:
        document, full_path, offset = target
        if offset is not None:
            line, column = document.scalar_position(full_path, offset)
        else:
            line, column = document.position(full_path)
        location = Location(document.file, line, column)
    else:
        location = Location("-", 1, 1)
    message = violation.message
    checked = ctx.workspace.checked_files
    if context_filter and checked and location.file not in checked:
        # The first object of a checked file, in the check's order (the most involved first), names the reason.
        taking_part = list(dict.fromkeys(o for o in violation.involves if o.file in checked))
        if not taking_part:
            return None
        first = taking_part[0]
        more = f" (and {len(taking_part) - 1} more)" if len(taking_part) > 1 else ""
        name = f"{first.namespace}/{first.name}" if first.namespace else first.name
        # (in parentheses: fingerprints leave them out, so a baseline entry matches in every run)
        file = ctx.written_at(first, ()).file  # a rendered object's: the file it was rendered from
        message += f" (reported because {first.kind} {name}{more} of the checked file {file} takes part in it)"
    hint = violation.hint
    source_map = ctx.workspace.source_maps.get(location.file)
    if source_map is not None:  # a rendered stream: the finding goes where the user wrote the field
        if target is not None and violation.location is None:
            location, note = source_map.locate(*target)
            hint = note if hint is None else hint if note is None else f"{hint} ({note})"
        else:
            location = source_map.locate_line(location.line)
    return Finding(
        rule=rule.id,
        name=rule.name,
        severity=severity,
        message=bounded(message),
        location=location,
        object=obj.ref() if obj is not None else None,
        path=path,
        hint=None if hint is None else bounded(hint),
        details=violation.details,
        replacement=violation.replacement,
    )


def _source_path(ctx: CheckContext, violation: Violation) -> Path:
    """The violation's path in the user's own shape (checks report canonical v1 paths unless they say not)."""
    if violation.obj is None or violation.source_path:
        return violation.path
    normalised = ctx.normalised.get(violation.obj)
    return normalised.paths.to_source(violation.path) if normalised is not None else violation.path


def _lookup(ctx: CheckContext, violation: Violation) -> Lookup | None:
    """Where a violation's position is looked up: (document, path in it, offset in a string), if anywhere."""
    obj = violation.obj
    if violation.location is not None or obj is None:
        return None
    return (obj.document, obj.prefix + _source_path(ctx, violation), violation.offset)


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
