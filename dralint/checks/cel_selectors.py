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
from dralint.findings import Replacement, Violation
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
    yield from _invalid_constants(target, env, obj, path, expression)
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


def _invalid_constants(target: Target, env: Any, obj: Any, path: Path, expression: str) -> Iterator[Violation]:
    """DRA405: calls on constants that fail, or test false, whatever the device (found at compile time)."""
    from dralint.cel.constants import invalid_constants
    from dralint.cel.lib.strings import quote

    for found in invalid_constants(expression, env):
        if found.always_false:
            message = f"{found.call} is always false: {found.error}"
            consequence = "so the part of the selector it guards never matches"
        else:
            message = f"{found.call} raises a CEL runtime error wherever it is evaluated: {found.error}"
            consequence = "so the scheduler stops placing every pod whose claim evaluates it"
        fixes = []
        replacement = None
        if found.suggestion is not None:
            fixes.append(f"did you mean {found.corrected}?")
            replacement = _replacement(expression, found.offset, found.value, found.suggestion)
        if found.function in ("semver", "isSemver") and found.suggestion is not None and _normalises(env):
            fixes.append(f"{found.function}({quote(found.value)}, true) normalises it")
        yield Violation(
            RuleId.SELECTOR_INVALID_CONSTANT,
            message,
            obj,
            path,
            hint="; ".join([*fixes, f"the value is the same for every device, {consequence}"]),
            offset=found.offset if found.offset is not None else 0,
            replacement=replacement,
        )


def _normalises(env: Any) -> bool:
    """Whether the environment has semver(string, bool) (base.go's semver library, version 1)."""
    semver = env.functions.get("semver")
    return semver is not None and any(len(overload.args) == 2 for overload in semver.overloads)


def _replacement(expression: str, offset: int | None, value: str, suggestion: str) -> Replacement | None:
    """The literal as written at ``offset`` and its corrected text, in the same quotes."""
    from dralint.cel.lib.strings import quote

    def single(text: str) -> str:
        return "'" + quote(text)[1:-1].replace('\\"', '"').replace("'", "\\'") + "'"

    if offset is None:
        return None
    for written, corrected in ((quote(value), quote(suggestion)), (single(value), single(suggestion))):
        if expression.startswith(written, offset):
            return Replacement(written, corrected)
    return None


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
    patterns = _invalid_patterns(target, expression)
    for offset, message in error.issues:
        prefix = "program instantiation failed: " if error.stage == "instantiate" else "compilation failed: "
        hint = _QUANTITY_HINT if _QUANTITY in message and "no matching overload" in message else None
        replacement = None
        # A pattern RE2 refuses: cel-go names it ("invalid matches argument", at the pattern) or,
        # when the program is built, gives no position; both are pointed at the pattern.
        pattern = next((p for p in patterns if p.offset == offset or offset is None), None)
        if pattern is not None and ("invalid matches argument" in message or "error parsing regexp" in message):
            patterns.remove(pattern)
            offset = pattern.offset
            hint, replacement = _pattern_hint(expression, pattern, named="invalid matches argument" in message)
        yield Violation(
            RuleId.SELECTOR_COMPILE_ERROR,
            prefix + _plain(message) if not message.startswith(prefix) else message,
            obj,
            path,
            hint=hint,
            offset=offset if offset is not None else 0,
            replacement=replacement,
        )


# cel-go names the Kubernetes quantity type this way in its overload errors: a capacity (always a
# quantity) compared with a number or a string.
_QUANTITY = "kubernetes.Quantity"
_QUANTITY_HINT = (
    'capacities are quantities: compare them with compareTo and quantity(), e.g. device.capacity["example.com"]'
    '.memory.compareTo(quantity("40Gi")) >= 0'
)
_RESULT_HINT = 'compare the value, e.g. device.attributes["example.com"].model == "a100"'


def _pattern_hint(expression: str, pattern: Any, *, named: bool) -> tuple[str | None, Replacement | None]:
    """What is wrong with a constant pattern (when cel-go only named it) and the pattern probably meant."""
    from dralint.cel.lib.strings import quote

    hints = [pattern.error] if named else []
    replacement = None
    if pattern.suggestion is not None:
        hints.append(f"did you mean the pattern {quote(pattern.suggestion)}?")
        replacement = _replacement(expression, pattern.offset, pattern.value, pattern.suggestion)
    elif "Perl syntax" in pattern.error or "invalid escape sequence: `\\" in pattern.error:
        hints.append("Go's regular expressions (RE2) have no lookahead, lookbehind or backreferences")
    return "; ".join(hints) or None, replacement


def _invalid_patterns(target: Target, expression: str) -> list[Any]:
    from dralint.cel.constants import invalid_patterns
    from dralint.cel.dra import selector_environment

    return invalid_patterns(expression, selector_environment(target=target))


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
