"""kube-apiserver validation of every DRA object and of every pod template's claims.

Each object is validated the way the target release's API server validates it on create:
after defaulting and conversion to v1 (``ctx.normalised``) and after dropping the fields whose
feature gates are off (:func:`dralint.validate.skew.strip`). Objects of a version the target
does not serve are left to the served-versions check. ``DynamicResourceAllocation`` is assumed on: without it nothing of
DRA is served, which the skew checks report. Workload and PodGroup claims are validated when
their gates (GenericWorkload, DRAWorkloadResourceClaims) are on; otherwise they are dropped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from dralint.api.convert import PathMap
from dralint.api.objects import KubeObject
from dralint.api.versions import SERVED, Target
from dralint.apimachinery.fieldpath import render, value_at
from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext
from dralint.validate import apiserver, skew
from dralint.validate.apiserver import pod_groups
from dralint.validate.apiserver.errors import FieldError, Kind

RULE_OF_KIND: dict[Kind, RuleId] = {
    Kind.METADATA: RuleId.INVALID_METADATA,
    Kind.REQUIRED: RuleId.MISSING_REQUIRED_FIELD,
    Kind.MALFORMED: RuleId.MALFORMED_NAME,
    Kind.TOO_MANY: RuleId.TOO_MANY_ITEMS,
    Kind.DUPLICATE: RuleId.DUPLICATE_ENTRY,
    Kind.ONE_OF: RuleId.ONE_OF_VIOLATION,
    Kind.UNSUPPORTED: RuleId.UNSUPPORTED_VALUE,
    Kind.INVALID: RuleId.INVALID_VALUE,
    Kind.CEL_TOO_LONG: RuleId.CEL_EXPRESSION_TOO_LONG,
    Kind.FORBIDDEN: RuleId.FORBIDDEN_FIELD,
    Kind.STATUS: RuleId.INVALID_STATUS,
    Kind.REQUEST_REFERENCE: RuleId.UNKNOWN_REQUEST_REFERENCE,
    Kind.POD_CLAIM_REFERENCE: RuleId.UNKNOWN_POD_CLAIM,
}


def validation_target(target: Target) -> Target:
    """The target with the DRA base gate on (validation is only meaningful where DRA is served)."""
    return replace(target, gates={**target.gates, "DynamicResourceAllocation": True})


def check(ctx: CheckContext) -> Iterator[Violation]:
    target = validation_target(ctx.target)
    b = apiserver.behaviour(target)
    gated = gated_field_names(target)
    for normalised in ctx.normalised.values():
        obj = normalised.obj
        if target.release not in SERVED.get((obj.kind, obj.version), ()):
            continue
        errors = apiserver.dra_object(obj.kind, normalised.data, b, raw=obj.raw)
        # Objects without any field the target drops (most) are validated as they are, uncopied.
        if _has_key(normalised.data, gated) and skew.strip(target, obj.kind, kept := json_copy(normalised.data)):
            # Validate what the server keeps, but leave the errors that only exist because a field
            # was dropped to the skew check (DRA212 names the field, the gate and the consequence).
            stripped = apiserver.dra_object(obj.kind, kept, b, raw=obj.raw)
            errors = common_errors(stripped, errors)
        for error in errors:
            yield violation(error, obj, normalised.paths)
    if target.enabled("GenericWorkload") and target.enabled("DRAWorkloadResourceClaims"):
        for obj in ctx.objects:
            if obj.group == "scheduling.k8s.io" and obj.kind in pod_groups.KINDS:
                for error in pod_groups.pod_group_object(obj.kind, obj.raw, b):
                    yield violation(error, obj, PathMap())
    for template in ctx.pod_templates:
        spec = value_at(template.owner.raw, template.path)
        if isinstance(spec, Mapping):
            for error in apiserver.pod_spec(spec, template.path, b):
                yield violation(error, template.owner, PathMap())


def common_errors(stripped: list[FieldError], unstripped: list[FieldError]) -> list[FieldError]:
    """The errors of the stripped object that the object as written has too.

    Errors only the stripped object has are caused by the drop (reported by the skew check);
    errors only the written object has sit in dropped fields, which the server never sees.
    """
    written = {(e.path, e.body()) for e in unstripped}
    return [e for e in stripped if (e.path, e.body()) in written]


def gated_field_names(target: Target) -> frozenset[str]:
    """Names of the fields the target drops (a quick test of whether stripping can change an object)."""
    tables = (skew.CLAIM_SPEC, skew.CLAIM_STATUS, skew.DEVICE_CLASS, skew.RESOURCE_SLICE)
    return frozenset(
        entry.pattern[-1]
        for table in tables
        for entry in table
        if not all(target.enabled(gate) for gate in entry.gates)
    )


def _has_key(data: Any, names: frozenset[str]) -> bool:
    if isinstance(data, dict):
        return not names.isdisjoint(data) or any(_has_key(v, names) for v in data.values())
    if isinstance(data, list):
        return any(_has_key(v, names) for v in data)
    return False


def json_copy(data: Any) -> Any:
    """A deep copy of decoded YAML/JSON (dicts, lists, scalars), several times faster than deepcopy."""
    if isinstance(data, dict):
        return {key: json_copy(value) for key, value in data.items()}
    if isinstance(data, list):
        return [json_copy(value) for value in data]
    return data


def violation(error: FieldError, obj: KubeObject, paths: PathMap) -> Violation:
    """The finding for a field error: the server's message, printed at the user's own path."""
    message = f"{render(paths.to_source(error.path))}: {error.body()}"
    return Violation(RULE_OF_KIND[error.kind], message, obj, error.location, error.hint or _default_hint(error))


def _default_hint(error: FieldError) -> str:
    field = next((step for step in reversed(error.path) if isinstance(step, str)), "the field")
    if error.type == "Required":
        return f"set `{field}`"
    return f"change `{field}` as the message says"
