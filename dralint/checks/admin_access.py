"""Admin access needs a labelled namespace (spec/api.md §3.8, the registry strategy's check).

From 1.33 (with ``DRAAdminAccess`` on) the API server rejects a ResourceClaim or template
whose first admin-access request sits in a namespace without the admin-access label; the
label key changed in 1.34. dralint knows a namespace's labels when the Namespace object is
among the inputs (or the configuration lists them); otherwise it can only say what to verify.
"""

from __future__ import annotations

from collections.abc import Iterator

from dralint.admission.validation import validation_target
from dralint.api import model
from dralint.api.requests import claim_specs, written_requests
from dralint.api.versions import SERVED
from dralint.apimachinery.fieldpath import render
from dralint.checks.rule_ids import RuleId
from dralint.cluster.namespaces import namespace_labels
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext
from dralint.validate.apiserver.behaviour import behaviour

UNLABELLED = RuleId.ADMIN_ACCESS_NAMESPACE_UNLABELLED
UNVERIFIED = RuleId.ADMIN_ACCESS_NAMESPACE_UNVERIFIED


def check(ctx: CheckContext) -> Iterator[Violation]:
    target = validation_target(ctx.target)
    label = behaviour(target).admin_label
    if label is None or not target.enabled("DRAAdminAccess"):
        return  # no namespace check before 1.33; with the gate off the field is dropped (a skew finding)
    namespaces = namespace_labels(ctx.objects, ctx.options.namespaces)
    for normalised in ctx.normalised.values():
        obj = normalised.obj
        if obj.kind not in ("ResourceClaim", "ResourceClaimTemplate"):
            continue
        if target.release not in SERVED.get((obj.kind, obj.version), ()):
            continue
        admin = next(
            (
                r
                for r in written_requests(claim_specs([normalised]))
                if isinstance(r.spec, model.ExactDeviceRequest) and r.spec.admin_access is True
            ),
            None,
        )
        if admin is None:
            continue
        namespace = obj.namespace or "default"
        location = (*admin.path, "adminAccess")
        index = admin.path[-2]
        # The server prints the path without `exactly` and without the template's extra `spec`.
        printed = render(("spec", "devices", "requests", index, "adminAccess"))
        fix = f"label the namespace: kubectl label namespace {namespace} {label}=true"
        labels = namespaces.get(namespace)
        if labels is None:
            yield Violation(
                UNVERIFIED,
                f'{printed}: admin access needs the label `{label}: "true"` on namespace "{namespace}", '
                "which is not among the inputs",
                obj,
                location,
                f"make sure the namespace has the label ({fix}), or add the Namespace manifest to the inputs",
            )
        elif labels.get(label) != "true":
            yield Violation(
                UNLABELLED,
                f"{printed}: Forbidden: admin access to devices requires the `{label}: true` label on the "
                "containing namespace",
                obj,
                location,
                fix if label not in labels else f'set the label to exactly "true" ({fix} --overwrite)',
            )
