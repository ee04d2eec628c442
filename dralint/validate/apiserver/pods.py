"""The DRA parts of pod validation (spec/api.md §5): ``spec.resourceClaims`` and container claims.

Runs on every pod spec: Pods and the pod templates of every workload, since the pods those
create are validated the same way. Container claims must name a pod claim; a whole-claim
reference may not be combined with another reference to the same claim.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.api import read
from dralint.apimachinery.fieldpath import Path
from dralint.suggest import did_you_mean
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.errors import (
    ONE_OF,
    POD_CLAIM_REFERENCE,
    FieldError,
    duplicate,
    forbidden,
    invalid,
    not_found,
    required,
)
from dralint.validate.apiserver.formats import dns_label, dns_subdomain

CONTAINER_KINDS = ("initContainers", "containers", "ephemeralContainers")


def pod_spec(
    spec: Mapping[str, Any], path: Path, b: Behaviour, *, claims_at: tuple[Any, Path] | None = None
) -> list[FieldError]:
    """Pod claims, container claims, and the claims that pod-level resources may not have.

    ``claims_at`` is the pod's ``resourceClaims`` and where they are written when a producer (an
    operator of the configuration's ``producers:``) keeps them outside the template and puts them
    in the pods it creates.
    """
    out: list[FieldError] = []
    seen: set[str] = set()
    written, claims_path = claims_at or (spec.get("resourceClaims"), (*path, "resourceClaims"))
    claims = written if isinstance(written, list) else []
    for index, claim in enumerate(claims):
        out += _pod_claim(claim, (*claims_path, index), seen)
    pod_claim_names = {read.text(c, "name") for c in claims} - {""}
    for kind in CONTAINER_KINDS:
        for index, container in enumerate(read.items(spec, kind)):
            at = (*path, kind, index)
            resources = read.mapping(container, "resources")
            if kind == "ephemeralContainers" and resources:
                out.append(
                    forbidden(
                        (*at, "resources"),
                        "cannot be set for an Ephemeral Container",
                        hint="ephemeral containers cannot use resources; give devices to a regular container",
                    )
                )
            out += container_claims(read.items(resources, "claims"), (*at, "resources", "claims"), pod_claim_names)
    pod_resources = read.mapping(spec, "resources")
    if b.enabled("PodLevelResources") and read.items(pod_resources, "claims"):
        out.append(
            forbidden(
                (*path, "resources", "claims"),
                "claims cannot be set for Resources at pod-level",
                hint="list the claims under the resources of the containers that use them",
            )
        )
    return out


def _pod_claim(claim: Any, path: Path, seen: set[str]) -> list[FieldError]:
    out: list[FieldError] = []
    name = read.text(claim, "name")
    if not name:
        out.append(required((*path, "name"), hint="name the claim; containers refer to it by this name"))
    elif name in seen:
        out.append(duplicate((*path, "name"), name, hint="give every pod claim a unique name"))
    else:
        out += dns_label(name, (*path, "name"))
        seen.add(name)
    claim_name = read.opt_text(claim, "resourceClaimName")
    template_name = read.opt_text(claim, "resourceClaimTemplateName")
    shown = {k: v for k, v in (claim.items() if isinstance(claim, Mapping) else ()) if v is not None}
    if claim_name is not None and template_name is not None:
        out.append(
            invalid(
                path,
                shown,
                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
                kind=ONE_OF,
                hint="use resourceClaimName for a shared claim or resourceClaimTemplateName for one per pod",
            )
        )
    if claim_name is None and template_name is None:
        hint = "set resourceClaimName (an existing claim) or resourceClaimTemplateName (a claim per pod)"
        if read.mapping(claim, "source") is not None:
            # Kubernetes 1.31 replaced `source: {resourceClaimName: ...}` by the fields themselves.
            hint = "move resourceClaimName or resourceClaimTemplateName out of `source:` (removed in Kubernetes 1.31)"
        out.append(
            invalid(
                path,
                shown,
                "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
                kind=ONE_OF,
                hint=hint,
            )
        )
    if claim_name is not None:
        out += dns_subdomain(claim_name, (*path, "resourceClaimName"))
    if template_name is not None:
        out += dns_subdomain(template_name, (*path, "resourceClaimTemplateName"))
    return out


def container_claims(claims: list[Any], path: Path, pod_claim_names: set[str]) -> list[FieldError]:
    """``validateResourceClaimNames``: each entry names a pod claim, without overlapping references."""
    out: list[FieldError] = []
    keys: set[str] = set()
    for index, claim in enumerate(claims):
        at = (*path, index)
        name = read.text(claim, "name")
        if not name:
            out.append(required(at, hint="name one of the pod's spec.resourceClaims"))
            continue
        if name in keys:
            # The whole claim is already referenced, which includes every request in it.
            out.append(duplicate(at, name, hint="reference the claim once, or each of its requests once"))
        else:
            request = read.text(claim, "request")
            key = name
            if request:
                out += dns_label(request, (*at, "request"))
                key = f"{name}/{request}"
            if key in keys:
                out.append(duplicate(at, key, hint="reference each request of a claim once"))
            elif not request:
                overlapping = [k for k in sorted(keys) if k.partition("/")[0] == name and "/" in k]
                out += [
                    duplicate(at, name, hint="a whole-claim reference already includes the requests listed before")
                    for _ in overlapping
                ]
            keys.add(key)
        if name not in pod_claim_names:
            detail = "must be one of the names in pod.spec.resourceClaims"
            detail += ": " + ", ".join(sorted(pod_claim_names)) if pod_claim_names else " which is empty"
            hint = did_you_mean(name, pod_claim_names) or "add the claim to the pod's spec.resourceClaims"
            out.append(not_found(at, name, detail, kind=POD_CLAIM_REFERENCE, hint=hint))
    return out
