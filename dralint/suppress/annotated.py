"""Suppression annotations on objects, and on the pod templates inside workloads.

- ``dralint.io/ignore: "DRA123, selector-matches-no-device"`` with the reason in
  ``dralint.io/ignore-reason``;
- ``ignore-check.dralint.io/<rule>: "<reason>"``, one annotation per rule;
- ``dralint.io/ignore-all: "<reason>"``.

For findings inside a pod template (``spec.template`` of a Deployment, Job, ...) the
template's annotations are merged over the workload's, key by key: the child overrides the
parent. A workload's ``dralint.io/ignore`` therefore applies to its pods unless the template
sets its own ``dralint.io/ignore``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dralint.api.objects import KubeObject
from dralint.api.workloads import PodTemplate
from dralint.apimachinery.fieldpath import Key, Path
from dralint.checks.rule_ids import RuleId
from dralint.dataclass import dataclass
from dralint.findings import Location, Violation
from dralint.rules import Rule
from dralint.suppress.directive import Directive, rule_list
from dralint.validate import userschema as schemacheck

INVALID = RuleId.INVALID_SUPPRESSION
NO_REASON = RuleId.SUPPRESSION_WITHOUT_REASON
DOMAIN = "dralint.io"
IGNORE = "dralint.io/ignore"
IGNORE_REASON = "dralint.io/ignore-reason"
IGNORE_ALL = "dralint.io/ignore-all"
IGNORE_CHECK = "ignore-check.dralint.io/"
KNOWN = (IGNORE, IGNORE_REASON, IGNORE_ALL, IGNORE_CHECK + "<rule>")


@dataclass(frozen=True, slots=True)
class Scope:
    """Directives that apply to findings at paths under ``prefix`` (the longest matching prefix wins)."""

    prefix: Path
    directives: tuple[Directive, ...]


def _ours(key: str) -> bool:
    domain = key.partition("/")[0]
    return domain == DOMAIN or domain.endswith("." + DOMAIN)


def _annotations(raw: Any) -> dict[str, str]:
    if not isinstance(raw, Mapping):
        return {}
    return {str(k): v if isinstance(v, str) else str(v) for k, v in raw.items()}


def has_any(obj: KubeObject, templates: Sequence[PodTemplate]) -> bool:
    """Cheap test: does the object or one of its templates carry a dralint annotation at all?"""
    if any(_ours(k) for k in _annotations(obj.metadata.get("annotations"))):
        return True
    return any(any(_ours(k) for k in t.annotations) for t in templates)


def scopes(
    obj: KubeObject, templates: Sequence[PodTemplate], rules: Mapping[str, Rule]
) -> tuple[list[Scope], list[Violation]]:
    """The annotation scopes of ``obj`` (the object itself, then each pod template) and their problems."""
    problems: dict[tuple[str, Location], Violation] = {}
    parent = {k: (v, ("metadata",)) for k, v in _annotations(obj.metadata.get("annotations")).items()}
    out = [Scope((), tuple(_directives(obj, parent, rules, problems)))]
    for template in templates:
        meta_path = template.metadata_path
        if meta_path == ("metadata",):
            continue  # a Pod is its own template
        child = {k: (v, meta_path) for k, v in template.annotations.items()}
        if not any(_ours(k) for k in child):
            continue  # the parent's scope already covers it
        merged = {**parent, **child}
        out.append(Scope(meta_path[:-1], tuple(_directives(obj, merged, rules, problems))))
    return out, list(problems.values())


def _directives(
    obj: KubeObject,
    annotations: Mapping[str, tuple[str, Path]],
    rules: Mapping[str, Rule],
    problems: dict[tuple[str, Location], Violation],
) -> list[Directive]:
    def location(key: str) -> Location:
        line, column = obj.position((*annotations[key][1], "annotations", Key(key)))
        return Location(obj.file, line, column)

    def report(rule: str, message: str, key: str, hint: str | None) -> None:
        where = location(key)
        problems.setdefault((message, where), Violation(rule, message, obj, hint=hint, location=where))

    out: list[Directive] = []
    reason = annotations.get(IGNORE_REASON, ("", ()))[0].strip()
    for key, (value, _) in annotations.items():
        if not _ours(key):
            continue
        if key == IGNORE:
            ids, unknown = rule_list(value, rules, location(key), f"annotation {IGNORE}", obj)
            for problem in unknown:
                problems.setdefault((problem.message, location(key)), problem)
            if ids and not reason:
                report(
                    NO_REASON,
                    f"suppression of {', '.join(ids)} gives no reason",
                    key,
                    f"add the annotation {IGNORE_REASON}",
                )
            out.extend(Directive("annotation", rule_id, reason, location(key), obj) for rule_id in ids)
        elif key == IGNORE_ALL:
            if not value.strip():
                report(
                    NO_REASON,
                    "suppression of every rule gives no reason",
                    key,
                    f"give the reason as the value of {IGNORE_ALL}",
                )
            out.append(Directive("annotation", None, value.strip(), location(key), obj))
        elif key.startswith(IGNORE_CHECK):
            ids, unknown = rule_list(key[len(IGNORE_CHECK) :], rules, location(key), f"annotation {key}", obj)
            for problem in unknown:
                problems.setdefault((problem.message, location(key)), problem)
            if ids and not value.strip():
                report(
                    NO_REASON,
                    f"suppression of {', '.join(ids)} gives no reason",
                    key,
                    "give the reason as the annotation's value",
                )
            out.extend(Directive("annotation", rule_id, value.strip(), location(key), obj) for rule_id in ids)
        elif key != IGNORE_REASON:
            names = {c.partition("/")[2]: c for c in (IGNORE, IGNORE_REASON, IGNORE_ALL)}
            close = schemacheck.closest(key.partition("/")[2], list(names))
            hint = f"did you mean {names[close]!r}?" if close else f"known: {', '.join(KNOWN)}"
            report(INVALID, f"unknown dralint annotation {key!r}", key, hint)
    return out


def covering(scopes_: Sequence[Scope], path: Path, rule: str) -> list[Directive]:
    """The directives of the innermost scope containing ``path`` that cover ``rule``."""
    best: Scope | None = None
    for scope in scopes_:
        if path[: len(scope.prefix)] == scope.prefix and (best is None or len(scope.prefix) > len(best.prefix)):
            best = scope
    return [] if best is None else [d for d in best.directives if d.covers(rule)]
