"""Rule ids of the problems that make the API server reject an object: schema errors, field errors, gated drops.

Their checks (``schema``, ``apiserver``, ``gated-fields``) report them, and admission names the
finding a rejected object refers to, so both read these tables. The module imports no check
and no context, so that admission can import it.
"""

from __future__ import annotations

from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.checks.rule_ids import RuleId
from dralint.validate.apiserver.errors import Kind
from dralint.validate.schema import Problem, SchemaError
from dralint.validate.skew import Outcome

__all__ = ["RULE_OF_KIND", "RULE_OF_OUTCOME", "RULE_OF_PROBLEM", "reported"]

RULE_OF_PROBLEM: dict[Problem, RuleId] = {
    "unknown-field": RuleId.UNKNOWN_FIELD,
    "wrong-type": RuleId.WRONG_FIELD_TYPE,
    "missing-field": RuleId.MISSING_WORKLOAD_FIELD,
    "invalid-quantity": RuleId.INVALID_QUANTITY,
    "invalid-format": RuleId.INVALID_VALUE_FORMAT,
}

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
    Kind.OWNER_REFERENCE: RuleId.INVALID_OWNER_REFERENCE,
}

RULE_OF_OUTCOME: dict[Outcome, RuleId] = {
    "changed": RuleId.GATED_FIELD_DROPPED,
    "ignored": RuleId.GATED_FIELD_IGNORED,
    "rejected": RuleId.GATED_FIELD_DROP_REJECTED,
}


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
