"""kube-apiserver validation of every DRA object and of every pod template's claims.

Each object is validated the way the target release's API server validates it on create:
after defaulting and conversion to v1 (``ctx.normalised``) and after dropping the fields whose
feature gates are off. Objects of a version the target does not serve are left to the
served-versions check. ``DynamicResourceAllocation`` is assumed on: without it nothing of
DRA is served, which the skew checks report. Workload and PodGroup claims are validated when
their gates (GenericWorkload, DRAWorkloadResourceClaims) are on; otherwise they are dropped.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from dralint.api.convert import PathMap
from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.api.strategy import Dropped, disabled_fields, drop_disabled_fields, drop_disabled_pod_fields
from dralint.api.versions import SERVED, Target
from dralint.context import CheckContext
from dralint.findings import Violation
from dralint.paths import render
from dralint.validate import apiserver
from dralint.validate.apiserver import pod_groups
from dralint.validate.apiserver.errors import FieldError


def validation_target(target: Target) -> Target:
    """The target with the DRA base gate on (validation is only meaningful where DRA is served)."""
    return replace(target, gates={**target.gates, "DynamicResourceAllocation": True})


def check(ctx: CheckContext) -> Iterator[Violation]:
    target = validation_target(ctx.target)
    b = apiserver.behaviour(target)
    for normalised in ctx.normalised.values():
        obj = normalised.obj
        if target.release not in SERVED.get((obj.kind, obj.version), ()):
            continue
        data = normalised.data
        dropped = disabled_fields(obj.kind, data, target)
        if dropped:  # validate what the server keeps: a copy without the dropped fields
            data = copy.deepcopy(data)
            drop_disabled_fields(obj.kind, data, target)
        errors = apiserver.dra_object(obj.kind, data, b, raw=obj.raw)
        if dropped:
            errors = explain_dropped(
                errors, apiserver.dra_object(obj.kind, normalised.data, b, raw=obj.raw), dropped, normalised
            )
        for error in errors:
            yield violation(error, obj, normalised.paths)
    if target.enabled("GenericWorkload") and target.enabled("DRAWorkloadResourceClaims"):
        for obj in ctx.objects:
            if obj.group == "scheduling.k8s.io" and obj.kind in pod_groups.KINDS:
                for error in pod_groups.pod_group_object(obj.kind, obj.raw, b):
                    yield violation(error, obj, PathMap())
    for template in ctx.pod_templates:
        spec = _at(template.owner.raw, template.path)
        if not isinstance(spec, dict):
            continue
        spec = copy.deepcopy(spec)
        drop_disabled_pod_fields(spec, target)
        for error in apiserver.pod_spec(spec, template.path, b):
            yield violation(error, template.owner, PathMap())


def explain_dropped(
    errors: list[FieldError], unstripped: list[FieldError], dropped: list[Dropped], normalised: Normalised
) -> list[FieldError]:
    """Say which dropped field caused an error that only exists because the server dropped it.

    E.g. a list-only attribute on a cluster without ``DRAListTypeAttributes`` is left without
    a value and rejected; the user needs to know the ``strings`` field was dropped, and why.
    """
    baseline = {(e.path, e.body()) for e in unstripped}
    out = []
    for error in errors:
        if (error.path, error.body()) in baseline:
            out.append(error)
            continue
        cause = max(dropped, key=lambda d: _common_prefix(d.path, error.path))
        gates = " and ".join(cause.gates)
        where = render(normalised.paths.to_source(cause.path))
        hint = f"the server drops `{where}` because feature gate {gates} is off; enable it or do without the field"
        out.append(replace(error, hint=hint))
    return out


def _common_prefix(a: tuple[object, ...], b: tuple[object, ...]) -> int:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return length


def violation(error: FieldError, obj: KubeObject, paths: PathMap) -> Violation:
    """The finding for a field error: the server's message, printed at the user's own path."""
    message = f"{render(paths.to_source(error.path))}: {error.body()}"
    return Violation(error.rule, message, obj, error.location, error.hint or _default_hint(error))


def _default_hint(error: FieldError) -> str:
    field = next((step for step in reversed(error.path) if isinstance(step, str)), "the field")
    if error.type == "Required":
        return f"set `{field}`"
    return f"change `{field}` as the message says"


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        if isinstance(data, Mapping):
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return None
    return data
