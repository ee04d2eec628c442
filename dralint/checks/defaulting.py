"""What the API server's defaulting changes in a device request that the user did not mean (DRA140, DRA141).

A request's ``count`` is an integer without "unset": ``count: 0`` is the same as no count, and
defaulting (``SetDefaults_ExactDeviceRequest`` / ``SetDefaults_DeviceSubRequest``, every release
and version; flat v1alpha3/v1beta1 requests when they name a class) makes it 1 under ExactCount,
so the request asks for a device. And two ``firstAvailable`` alternatives the same once defaulted
mean the later one is tried only after an identical one failed: it can never be chosen.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dralint.api import read
from dralint.api.convert import to_v1
from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext


def check(ctx: CheckContext) -> Iterator[Violation]:
    for normalised in ctx.normalised.values():
        obj = normalised.obj
        if obj.kind not in ("ResourceClaim", "ResourceClaimTemplate"):
            continue
        base: Path = ("spec", "spec") if obj.kind == "ResourceClaimTemplate" else ("spec",)
        written = _requests(to_v1(obj.kind, obj.version, obj.raw).data, base)
        defaulted = _requests(normalised.data, base)
        constraints = _constrained(normalised.data, base)
        for index, request in enumerate(defaulted):
            at = (*base, "devices", "requests", index)
            before = written[index] if index < len(written) else {}
            for path, part in read.request_parts(request):
                was = _part(before, path)
                if was.get("count") == 0 and type(was.get("count")) is int and part.get("count") == 1:
                    yield _count_zero(obj, (*at, *path, "count"), path, part)
            yield from _same_alternatives(obj, at, request, constraints)


def _requests(data: Any, base: Path) -> list[Any]:
    spec = data
    for key in base:
        spec = spec.get(key) if isinstance(spec, dict) else None
    devices = spec.get("devices") if isinstance(spec, dict) else None
    requests = devices.get("requests") if isinstance(devices, dict) else None
    return requests if isinstance(requests, list) else []


def _part(request: Any, path: tuple[str | int, ...]) -> dict[str, Any]:
    value = request
    for key in path:
        if isinstance(key, int):
            value = value[key] if isinstance(value, list) and key < len(value) else None
        else:
            value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def _count_zero(obj: KubeObject, path: Path, part_path: tuple[str | int, ...], part: dict[str, Any]) -> Violation:
    if part_path[0] == "firstAvailable":
        what = f'firstAvailable alternative "{part.get("name", "")}" asks for one device, not none'
        hint = (
            "a request always gets at least one device, so an alternative cannot stand for 'no device': "
            "remove it, and leave the claim out of the pod where it may go without"
        )
    else:
        what = "the request asks for one device, not none"
        hint = "write count: 1 (or leave count out) for one device; a request always gets at least one"
    return Violation(
        RuleId.EXACT_COUNT_ZERO,
        f"count: 0 with allocationMode ExactCount is the same as no count, which the API server sets to 1: {what}",
        obj,
        path,
        hint,
    )


def _constrained(data: Any, base: Path) -> set[str]:
    """The request/subrequest names the claim's constraints name."""
    spec = data
    for key in base:
        spec = spec.get(key) if isinstance(spec, dict) else None
    devices = spec.get("devices") if isinstance(spec, dict) else None
    names: set[str] = set()
    for constraint in read.items(devices, "constraints") if isinstance(devices, dict) else []:
        names.update(name for name in read.items(constraint, "requests") if isinstance(name, str))
    return names


def _same_alternatives(obj: KubeObject, at: Path, request: Any, constrained: set[str]) -> Iterator[Violation]:
    """Alternatives equal to an earlier one once defaulted (their names aside)."""
    alternatives = read.items(request, "firstAvailable") if isinstance(request, dict) else []
    name = request.get("name") if isinstance(request, dict) else None
    seen: list[tuple[int, dict[str, Any]]] = []
    for index, alternative in enumerate(alternatives):
        if not isinstance(alternative, dict):
            continue
        content = {key: value for key, value in alternative.items() if key != "name"}
        sub = alternative.get("name")
        if f"{name}/{sub}" in constrained:
            continue  # a constraint on this alternative alone makes it differ
        earlier = next((i for i, other in seen if other == content), None)
        if earlier is None:
            seen.append((index, content))
            continue
        first = alternatives[earlier].get("name")
        yield Violation(
            RuleId.SAME_ALTERNATIVE_AS_EARLIER,
            f'firstAvailable alternative "{sub}" asks for exactly what alternative "{first}" asks for once the API '
            f'server\'s defaults are applied: it is tried only after "{first}" found no devices, so it never gets any',
            obj,
            (*at, "firstAvailable", index),
            f'make it differ from "{first}" (another class, selectors or count), or remove it',
        )
