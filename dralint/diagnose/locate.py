"""Where the user wrote what a simulation finding is about: a claim's request, a pod's claim entry."""

from __future__ import annotations

from dralint.api.model import find_part
from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.cluster.pods import ClaimUse, Pod

__all__ = ["ClaimUse", "claim_entry", "describe", "request"]


def request(use: ClaimUse, label: str) -> tuple[KubeObject | None, Path]:
    """The object and (canonical) path of request ``label`` (``name`` or ``parent/entry``) of a claim."""
    if use.kind == "extended":
        for name, path, _ in use.extended:
            if name == label:
                return use.source, path
        return use.source, ()
    if use.claim is None:
        return use.source, ()
    base: Path = ("spec", "spec", "devices", "requests") if use.kind == "template" else ("spec", "devices", "requests")
    found = find_part(use.claim.spec.requests, label)
    if found is None:
        return use.source, base
    index, part = found
    # An entry points at itself; a request (or an entry not found) at the request.
    return use.source, (*base, index, *part.path) if part is not None and part.entry is not None else (*base, index)


def claim_entry(pod: Pod, use: ClaimUse) -> tuple[KubeObject, Path]:
    """The pod template's ``resourceClaims`` entry for ``use`` (its containers for extended resources)."""
    template = pod.template
    if use.entry_index < 0:
        return template.owner, use.extended[0][1] if use.extended else template.path
    return template.owner, template.claim_path(use.entry_index)


def describe(use: ClaimUse) -> str:
    """``"ResourceClaimTemplate ml/one-gpu"``, ``"ResourceClaim ml/shared"`` or ``"extended resources"``."""
    if use.kind == "extended":
        return "the extended-resource claim"
    source = use.source
    if source is None or use.claim is None:
        return f"claim {use.entry.name}"
    return f"{source.kind} {source.namespace}/{source.name}"
