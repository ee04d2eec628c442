"""kube-apiserver validation of every DRA object and of every pod template's claims.

Each object is validated the way the target release's API server validates it on create:
after defaulting and conversion to v1 (``ctx.normalised``) and after dropping the fields whose
feature gates are off (:func:`dralint.validate.skew.strip`). Objects of a version the target
does not serve are left to the served-versions check. ``DynamicResourceAllocation`` is assumed on: without it nothing of
DRA is served, which the skew checks report. Workload and PodGroup claims are validated when
their gates (GenericWorkload, DRAWorkloadResourceClaims) are on; otherwise they are dropped.
"""

from __future__ import annotations

from collections.abc import Iterator

from dralint.admission.validation import validation_target
from dralint.api.convert import PathMap
from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import render
from dralint.checks.api_problems import RULE_OF_KIND
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext
from dralint.validate import apiserver
from dralint.validate.apiserver import pod_groups
from dralint.validate.apiserver.errors import FieldError


def check(ctx: CheckContext) -> Iterator[Violation]:
    target = validation_target(ctx.target)
    b = apiserver.behaviour(target)
    for obj, validated in ctx.validated.items():
        # Errors that only exist because a field was dropped are left to the skew check (DRA212
        # names the field, the gate and the consequence).
        for error in validated.errors:
            yield violation(error, obj, ctx.normalised[obj].paths)
    if target.enabled("GenericWorkload") and target.enabled("DRAWorkloadResourceClaims"):
        for obj in ctx.objects:
            if obj.group == "scheduling.k8s.io" and obj.kind in pod_groups.KINDS:
                for error in pod_groups.pod_group_object(obj.kind, obj.raw, b):
                    yield violation(error, obj, PathMap())
    for obj, errors in ctx.pod_spec_errors.items():
        for error in errors:
            yield violation(error, obj, PathMap())


def violation(error: FieldError, obj: KubeObject, paths: PathMap) -> Violation:
    """The finding for a field error: the server's message, printed at the user's own path."""
    message = f"{render(paths.to_source(error.path))}: {error.body()}"
    return Violation(RULE_OF_KIND[error.kind], message, obj, error.location, error.hint or _default_hint(error))


def _default_hint(error: FieldError) -> str:
    field = next((step for step in reversed(error.path) if isinstance(step, str)), "the field")
    if error.type == "Required":
        return f"set `{field}`"
    return f"change `{field}` as the message says"
