"""Strict schema validation of DRA objects and of the workloads whose pods reference claims."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext
from dralint.validate.schema import Problem, SchemaError

RULE_OF_PROBLEM: dict[Problem, RuleId] = {
    "unknown-field": RuleId.UNKNOWN_FIELD,
    "wrong-type": RuleId.WRONG_FIELD_TYPE,
    "missing-field": RuleId.MISSING_WORKLOAD_FIELD,
    "invalid-quantity": RuleId.INVALID_QUANTITY,
    "invalid-format": RuleId.INVALID_VALUE_FORMAT,
}


def check(ctx: CheckContext) -> Iterator[Violation]:
    # Objects of a kind/version the release does not have get no schema (DRA200 reports them).
    for obj, errors in ctx.schema_errors.items():
        for error in errors:
            if not reported(obj, error):
                continue
            rule = RULE_OF_PROBLEM[error.problem]
            yield Violation(rule, error.message, obj, error.path, error.hint, source_path=True)


def reported(obj: KubeObject, error: SchemaError) -> bool:
    """Whether a schema error is reported here (missing fields are mostly left to the apiserver rules)."""
    return not (error.problem == "missing-field" and _required_by_apiserver_rules(obj, error))


def _required_by_apiserver_rules(obj: KubeObject, error: SchemaError) -> bool:
    """Whether a missing field is left to the kube-apiserver rules (DRA120-DRA199).

    OpenAPI marks fields as required that the API server does not insist on (a ResourceSlice
    without ``pool.generation`` is accepted), and the ones it does insist on are reported by the
    semantic rules with the server's own "Required value" text. So requiredness is only checked
    here outside DRA objects and outside the pod's DRA fields.
    """
    return obj.is_dra or _in_pod_claims(error.path)


def _in_pod_claims(path: Path) -> bool:
    return "resourceClaims" in path or any(path[i : i + 2] == ("resources", "claims") for i in range(len(path)))
