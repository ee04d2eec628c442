"""A suppression as the user wrote it: which rule, where it applies, why, and whether it was used."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from dralint.api.objects import KubeObject
from dralint.checks.rule_ids import RuleId
from dralint.dataclass import dataclass
from dralint.findings import Location, Suppression, SuppressionKind, Violation
from dralint.rules import Rule, by_name_or_id, did_you_mean

RULE_UNKNOWN = RuleId.UNKNOWN_RULE_IN_SUPPRESSION


@dataclass(eq=False, slots=True)
class Directive:
    """One rule (or every rule, ``rule=None``) suppressed by one annotation, comment or exception."""

    kind: SuppressionKind
    rule: str | None
    reason: str
    location: Location  # where the directive is written, for reports about the directive itself
    obj: KubeObject | None = None  # the annotated object, for annotations
    used: bool = field(default=False)

    def covers(self, rule: str) -> bool:
        return self.rule is None or self.rule == rule

    def suppression(self) -> Suppression:
        return Suppression(self.kind, self.reason)

    def identity(self) -> tuple[object, ...]:
        """Directives copied into several scopes (a workload's annotation seen from its pod template) are one."""
        return (self.kind, self.location, self.rule)


def rule_list(
    text: str, rules: Mapping[str, Rule], location: Location, what: str, obj: KubeObject | None = None
) -> tuple[list[str], list[Violation]]:
    """Rule ids of a comma-separated list of ids or names; unknown entries are reported (DRA803)."""
    ids: list[str] = []
    problems: list[Violation] = []
    for token in (part.strip() for part in text.split(",")):
        if not token:
            continue
        rule = by_name_or_id(rules, token)
        if rule is not None:
            ids.append(rule.id)
            continue
        hint = did_you_mean(token, rules).removeprefix("; ") or None
        problems.append(
            Violation(RULE_UNKNOWN, f"{what} names unknown rule {token!r}", obj, hint=hint, location=location)
        )
    return ids, problems
