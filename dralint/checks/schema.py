"""Strict schema validation of DRA objects and of the workloads whose pods reference claims."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.api.objects import KubeObject
from dralint.api.workloads import PodSpec
from dralint.context import CheckContext
from dralint.findings import Violation
from dralint.paths import Path
from dralint.validate.schema import Problem, SchemaError, validate

RULE_OF_PROBLEM: dict[Problem, str] = {
    "unknown-field": "DRA100",
    "wrong-type": "DRA101",
    "missing-field": "DRA102",
    "invalid-quantity": "DRA103",
    "invalid-format": "DRA104",
}


def check(ctx: CheckContext) -> Iterator[Violation]:
    release = ctx.target.release
    claiming = {
        t.owner for t in ctx.pod_templates if t.spec.resource_claims or any(c.claims for c in t.spec.containers)
    }
    for obj in ctx.objects:
        if not obj.is_dra and obj not in claiming:
            continue
        # Objects of a kind/version the release does not have get no schema (DRA200 reports them).
        for error in validate(release, obj.api_version, obj.kind, obj.raw):
            if error.problem == "missing-field" and _required_by_apiserver_rules(obj, error):
                continue
            yield Violation(
                RULE_OF_PROBLEM[error.problem], error.message, obj, error.path, error.hint, source_path=True
            )


def _references_claims(spec: PodSpec) -> bool:
    return bool(spec.resource_claims) or any(container.claims for container in spec.containers)


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
