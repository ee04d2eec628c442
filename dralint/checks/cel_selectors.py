"""CEL selectors as the target's API server validates them: compile errors, result type, cost.

Every ``cel.expression`` of DeviceClass selectors and of ResourceClaim / ResourceClaimTemplate
request and sub-request selectors is compiled in the target release's NewExpressions
environment (feature gates included). An expression that only the newest (stored) environment
accepts uses a feature the target lacks: it is reported as such, with the API server's message
and what would make it compile.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dralint.api import read
from dralint.api.versions import RELEASES, Target, make_target
from dralint.apimachinery.fieldpath import Path
from dralint.cel import CelCompileError
from dralint.checks.rule_ids import RuleId
from dralint.errors import UsageError
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

MAX_LENGTH = 10240  # resourceapi.CELSelectorExpressionMaxLength (bytes)
_GATES = ("DRAConsumableCapacity", "DRAListTypeAttributes")


def check(ctx: CheckContext) -> Iterator[Violation]:
    env = None
    for normalised in ctx.normalised.values():
        for path, expression in selector_expressions(normalised.obj.kind, normalised.data):
            if env is None:  # the CEL engine is imported only when there is a selector to compile
                from dralint.cel.dra import selector_environment

                env = selector_environment(target=ctx.target)
            yield from _check_expression(ctx.target, env, normalised.obj, path, expression)


def selector_expressions(kind: str, data: Any) -> Iterator[tuple[Path, str]]:
    """(canonical v1 path, expression) of every CEL selector of a v1-shaped object."""
    spec = data.get("spec") if isinstance(data, dict) else None
    if kind == "DeviceClass":
        yield from _selectors(spec, ("spec",))
        return
    if kind == "ResourceClaimTemplate":
        spec = spec.get("spec") if isinstance(spec, dict) else None
        prefix: Path = ("spec", "spec")
    elif kind == "ResourceClaim":
        prefix = ("spec",)
    else:
        return
    devices = spec.get("devices") if isinstance(spec, dict) else None
    requests = devices.get("requests") if isinstance(devices, dict) else None
    for index, request in enumerate(requests if isinstance(requests, list) else []):
        if not isinstance(request, dict):
            continue
        base = (*prefix, "devices", "requests", index)
        for path, part in read.request_parts(request):
            yield from _selectors(part, (*base, *path))


def _selectors(holder: Any, path: Path) -> Iterator[tuple[Path, str]]:
    selectors = holder.get("selectors") if isinstance(holder, dict) else None
    for index, selector in enumerate(selectors if isinstance(selectors, list) else []):
        cel = selector.get("cel") if isinstance(selector, dict) else None
        expression = cel.get("expression") if isinstance(cel, dict) else None
        if isinstance(expression, str):
            yield (*path, "selectors", index, "cel", "expression"), expression


def _check_expression(target: Target, env: Any, obj: Any, path: Path, expression: str) -> Iterator[Violation]:
    from dralint.cel.dra import COST_LIMIT, compile_selector, cost_limit_enforced

    if len(expression.encode("utf-8")) > MAX_LENGTH:
        return  # the API server does not compile it; its length is an API validation finding
    try:
        selector = compile_selector(expression, env)
    except CelCompileError as error:
        yield from _compile_error(target, obj, path, expression, error)
        return
    if selector.program.max_cost > COST_LIMIT and cost_limit_enforced(target):
        yield Violation(
            RuleId.SELECTOR_COST_EXCEEDS_LIMIT,
            f"too complex, exceeds cost limit: estimated worst-case cost {selector.program.max_cost} "
            f"is above {COST_LIMIT}",
            obj,
            path,
            hint="bound the work: iterate fixed lists, avoid regular expressions on list items and nested loops",
            offset=0,
        )


def _compile_error(
    target: Target, obj: Any, path: Path, expression: str, error: CelCompileError
) -> Iterator[Violation]:
    remedy = _what_would_compile(target, expression)
    if remedy is not None:
        for offset, message in error.issues:
            yield Violation(
                RuleId.SELECTOR_FEATURE_UNAVAILABLE,
                f"{_plain(message)} (not available on Kubernetes {target.release} with its feature gates)",
                obj,
                path,
                hint=remedy,
                offset=offset if offset is not None else 0,
            )
        return
    if error.stage == "result-type":
        yield Violation(RuleId.SELECTOR_NOT_BOOLEAN, error.message, obj, path, hint=_RESULT_HINT, offset=0)
        return
    for offset, message in error.issues:
        prefix = "program instantiation failed: " if error.stage == "instantiate" else "compilation failed: "
        yield Violation(
            RuleId.SELECTOR_COMPILE_ERROR,
            prefix + _plain(message) if not message.startswith(prefix) else message,
            obj,
            path,
            hint=_QUANTITY_HINT if _QUANTITY in message and "no matching overload" in message else None,
            offset=offset if offset is not None else 0,
        )


# cel-go names the Kubernetes quantity type this way in its overload errors: a capacity (always a
# quantity) compared with a number or a string.
_QUANTITY = "kubernetes.Quantity"
_QUANTITY_HINT = (
    'capacities are quantities: compare them with compareTo and quantity(), e.g. device.capacity["example.com"]'
    '.memory.compareTo(quantity("40Gi")) >= 0'
)
_RESULT_HINT = 'compare the value, e.g. device.attributes["example.com"].model == "a100"'


def _plain(message: str) -> str:
    return message.split("\n", 1)[0]


def _what_would_compile(target: Target, expression: str) -> str | None:
    """A hint naming the feature gate or release that makes ``expression`` compile, if any does."""
    from dralint.cel.dra import compile_selector, selector_environment

    try:
        compile_selector(expression, selector_environment())
    except CelCompileError:
        return None
    for gate in _GATES:
        if target.gates.get(gate) is False:
            try:
                enabled = make_target(target.release, {**target.overrides, gate: True})
            except UsageError:  # a gate that cannot be enabled on this release
                continue
            try:
                compile_selector(expression, selector_environment(target=enabled))
            except CelCompileError:
                continue
            return f"the API server accepts it with the {gate} feature gate enabled"
    for release in RELEASES[RELEASES.index(target.release) + 1 :]:
        available = [g for g in _GATES if g in _gates_of(release)]
        for gates in ((), tuple(available)):
            try:
                later = make_target(release, {g: True for g in gates})
                compile_selector(expression, selector_environment(target=later))
            except (CelCompileError, UsageError):
                continue
            needed = [g for g in gates if not make_target(release).enabled(g)]
            suffix = f" with {' and '.join(needed)} enabled" if needed else ""
            return f"new selectors may use this from Kubernetes {release} on{suffix}"
    return (
        "only the scheduler's stored-expression environment accepts it; the API server rejects new selectors using it"
    )


def _gates_of(release: str) -> set[str]:
    return set(make_target(release).gates)
