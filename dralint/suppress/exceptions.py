"""Exceptions from the configuration: rules waived for objects selected by path, kind, namespace and name globs.

Every exception gives a reason; one past its ``expires`` date no longer applies and is itself
reported (DRA800), so that waivers are revisited instead of living forever.
"""

from __future__ import annotations

import datetime
import fnmatch
import re
from collections.abc import Iterable, Mapping
from dataclasses import field
from functools import lru_cache

from dralint.api.objects import KubeObject
from dralint.checks.rule_ids import RuleId
from dralint.config import globs
from dralint.config.resolve import ExceptionSpec
from dralint.config.select import resolve_all
from dralint.dataclass import dataclass
from dralint.errors import ConfigError
from dralint.findings import Finding, Location, ObjectRef, Violation
from dralint.rules import Rule
from dralint.suppress.directive import Directive

EXPIRED = RuleId.EXPIRED_EXCEPTION


@dataclass(frozen=True, slots=True)
class ConfigException:
    """One configured exception, its rule references resolved."""

    rules: frozenset[str]
    reason: str
    location: Location
    paths: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    namespaces: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    expires: datetime.date | None = None

    @property
    def selects_objects(self) -> bool:
        return bool(self.kinds or self.namespaces or self.names)

    def selects_file(self, file: str, root: str) -> bool:
        return not self.paths or globs.matches_any(self.paths, globs.relative_to(file, root))

    def selects_object(self, ref: ObjectRef | None) -> bool:
        if not self.selects_objects:
            return True
        if ref is None:
            return False
        return (
            _glob(self.kinds, ref.kind)
            and _glob(self.namespaces, ref.namespace or "")
            and _glob(self.names, ref.name or "")
        )

    def applies(self, finding: Finding, root: str) -> bool:
        return (
            finding.rule in self.rules
            and self.selects_object(finding.object)
            and self.selects_file(finding.location.file, root)
        )

    def expired(self, today: datetime.date) -> bool:
        return self.expires is not None and self.expires < today


def _glob(patterns: tuple[str, ...], value: str) -> bool:
    return not patterns or _compiled(patterns).match(value) is not None


@lru_cache(maxsize=4096)
def _compiled(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One regex for a list of fnmatch globs (case-sensitive, like Kubernetes names)."""
    return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in patterns))


def build(specs: Iterable[ExceptionSpec], rules: Mapping[str, Rule]) -> list[ConfigException]:
    """Resolve rule references and dates; errors point at the configuration entry."""
    out = []
    for spec in specs:
        expires = None
        if spec.expires is not None:
            try:
                expires = datetime.date.fromisoformat(spec.expires)
            except ValueError:
                raise ConfigError(f"{spec.origin}: expires: {spec.expires!r} is not a valid date") from None
        out.append(
            ConfigException(
                rules=resolve_all(rules, spec.rules),
                reason=spec.reason,
                location=Location(spec.file, spec.line, spec.column),
                paths=spec.paths,
                kinds=spec.kinds,
                namespaces=spec.namespaces,
                names=spec.names,
                expires=expires,
            )
        )
    return out


@dataclass(slots=True)
class Exceptions:
    """The active exceptions of a run, as directives (one per rule), and the expired ones."""

    active: list[tuple[ConfigException, list[Directive]]]
    expired: list[ConfigException]
    root: str
    by_rule: dict[str, list[tuple[ConfigException, list[Directive]]]] = field(default_factory=dict)  # of active

    def __post_init__(self) -> None:
        for exception, directives in self.active:  # in order: the first match wins
            for rule in exception.rules:
                self.by_rule.setdefault(rule, []).append((exception, directives))

    @classmethod
    def of(cls, exceptions: Iterable[ConfigException], today: datetime.date, root: str) -> Exceptions:
        active, expired = [], []
        for exception in exceptions:
            if exception.expired(today):
                expired.append(exception)
            else:
                directives = [
                    Directive("config", rule, exception.reason, exception.location) for rule in sorted(exception.rules)
                ]
                active.append((exception, directives))
        return cls(active, expired, root)

    def covering(self, finding: Finding) -> list[Directive]:
        return [
            directive
            for exception, directives in self.by_rule.get(finding.rule, ())
            if exception.applies(finding, self.root)
            for directive in directives
            if directive.covers(finding.rule)
        ]

    def expired_violations(self) -> list[Violation]:
        return [
            Violation(
                EXPIRED,
                f"exception for {', '.join(sorted(e.rules))} expired on {e.expires}: {e.reason}",
                hint="fix the findings and remove the exception, or renew its expires date",
                location=e.location,
            )
            for e in self.expired
        ]

    def in_scope(self, checked_files: Iterable[str], objects: Iterable[KubeObject]) -> list[Directive]:
        """Directives of exceptions that select something this run checked (only those can be unused)."""
        files = list(checked_files)
        by_kind: dict[str, list[tuple[str, ObjectRef]]] = {}  # objects by kind: most exceptions name a kind
        for obj in objects:
            by_kind.setdefault(obj.kind, []).append((obj.file, obj.ref()))
        out = []
        for exception, directives in self.active:
            if exception.selects_objects:
                candidates = (pair for kind, pairs in by_kind.items() if _glob(exception.kinds, kind) for pair in pairs)
                root = self.root
                selected = any(exception.selects_object(r) and exception.selects_file(f, root) for f, r in candidates)
            else:
                selected = any(exception.selects_file(f, self.root) for f in files)
            if selected:
                out.extend(directives)
        return out
