"""Claims of scheduling.k8s.io Workloads and PodGroups (spec/api.md §5.6, declarative validation).

A PodGroup (or a Workload's pod group template) can hold up to four claims shared by all of
its pods; each names a claim or a template, like a pod's ``spec.resourceClaims`` entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.api import read
from dralint.apimachinery.fieldpath import Path
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.errors import ONE_OF, FieldError, duplicate, invalid, required
from dralint.validate.apiserver.formats import dns_label, dns_subdomain
from dralint.validate.apiserver.lists import check_list

MAX_POD_GROUP_CLAIMS = 4
KINDS = ("Workload", "PodGroup")


def pod_group_object(kind: str, data: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    """The claims of a Workload's pod group templates or of a PodGroup."""
    spec = read.mapping_or_empty(data, "spec")
    if kind == "PodGroup":
        return pod_group_claims(read.items(spec, "resourceClaims"), ("spec", "resourceClaims"), b)
    out: list[FieldError] = []
    for index, template in enumerate(read.items(spec, "podGroupTemplates")):
        path = ("spec", "podGroupTemplates", index, "resourceClaims")
        out += pod_group_claims(read.items(template, "resourceClaims"), path, b)
    return out


def pod_group_claims(claims: list[Any], path: Path, b: Behaviour) -> list[FieldError]:
    """WL-01…WL-04: at most four claims, unique DNS-label names, exactly one claim or template name."""
    out = check_list(
        claims,
        MAX_POD_GROUP_CLAIMS,
        _claim,
        path,
        b,
        too_many_hint="a pod group can share at most 4 claims; give pods their own claims for the rest",
    )
    if len(claims) > MAX_POD_GROUP_CLAIMS and b.short_circuit_lists:
        return out
    seen: set[str] = set()
    for index, claim in enumerate(claims):
        name = read.text(claim, "name")
        if name and name in seen:
            out.append(duplicate((*path, index), name, hint="give every pod group claim a unique name"))
        seen.add(name)
    return out


def _claim(claim: Any, path: Path) -> list[FieldError]:
    out: list[FieldError] = []
    name = read.text(claim, "name")
    if not name:
        out.append(required((*path, "name"), hint="name the claim; pods refer to it by this name"))
    else:
        out += dns_label(name, (*path, "name"))
    claim_name = read.opt_text(claim, "resourceClaimName")
    template_name = read.opt_text(claim, "resourceClaimTemplateName")
    shown = {k: v for k, v in claim.items() if v is not None} if isinstance(claim, dict) else {}
    if (claim_name is None) == (template_name is None):
        detail = (
            "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"
            if claim_name is None
            else "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"
        )
        out.append(
            invalid(path, shown, detail, kind=ONE_OF, hint="set either resourceClaimName or resourceClaimTemplateName")
        )
    if claim_name is not None:
        out += dns_subdomain(claim_name, (*path, "resourceClaimName"))
    if template_name is not None:
        out += dns_subdomain(template_name, (*path, "resourceClaimTemplateName"))
    return out
