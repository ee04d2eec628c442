"""Evaluate CEL policy rules over every object they match, the way a ValidatingAdmissionPolicy would.

An object violates a policy when its ``expression`` is false. As with ``failurePolicy: Fail``,
an expression that cannot be evaluated on an object (a missing field, a type error) is a
violation too, reported with the CEL error so that the policy author can guard the field.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fnmatch import fnmatchcase
from typing import Any

from dralint.api.objects import KubeObject
from dralint.cel.runtime.semantics import type_name
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext
from dralint.policy import cel
from dralint.rules import Match, Policy, Rule

GUARD_HINT = "guard optional fields with has(...) in the policy expression"


def matches(match: Match, obj: KubeObject) -> bool:
    """Whether ``obj`` is in scope: its apiVersion and kind match one glob each (no globs: any)."""
    if match.api_versions and not any(fnmatchcase(obj.api_version, g) for g in match.api_versions):
        return False
    return not match.kinds or any(fnmatchcase(obj.kind, g) for g in match.kinds)


def check(ctx: CheckContext, rules: Sequence[Rule]) -> Iterator[Violation]:
    for obj in ctx.objects:
        for rule in rules:
            policy = rule.policy
            if policy is not None and matches(policy.match, obj):
                yield from _evaluate(rule.id, policy, obj)


def _evaluate(rule_id: str, policy: Policy, obj: KubeObject) -> Iterator[Violation]:
    try:
        for name, expression in policy.conditions:
            if _boolean(expression, obj, f"matchCondition {name}") is not True:
                return
        if _boolean(policy.expression, obj, "expression") is True:
            return
    except cel.CelError as error:
        yield Violation(
            rule_id, f"policy could not be evaluated: {error.message}", obj, policy.path, GUARD_HINT, source_path=True
        )
        return
    yield Violation(rule_id, _message(policy, obj), obj, policy.path, policy.hint, source_path=True)


def _boolean(expression: str, obj: KubeObject, what: str) -> bool:
    value = cel.evaluate(cel.compile_expression(expression), obj.raw)
    if not isinstance(value, bool):
        raise cel.CelRuntimeError(f"{what} gave {_shown(value)}, not a bool")
    return value


def _shown(value: Any) -> str:
    """A value by its CEL type, and a short scalar by itself too (``string 'gpu'``; ``map``, not the object)."""
    kind = type_name(value)
    if isinstance(value, (str, int, float)) and len(text := repr(value)) <= 60:
        return f"{kind} {text}"
    return kind


def _message(policy: Policy, obj: KubeObject) -> str:
    """``messageExpression`` when it evaluates to a non-empty string, else ``message`` (as in Kubernetes)."""
    if policy.message_expression is not None:
        try:
            value = cel.evaluate(cel.compile_expression(policy.message_expression, "string"), obj.raw)
        except cel.CelError:
            value = None
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())  # one line, as Kubernetes does with line breaks
    if policy.message is not None:
        return policy.message
    return f"failed expression: {policy.expression.strip()}"
