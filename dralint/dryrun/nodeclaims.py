"""The claims a pod allocates on one node: its extended-resource claim without the resources a device plugin
serves there (KEP-5004: DRA allocates an extended resource only on a node that advertises none of it)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from dralint.cluster.pods import ClaimUse
from dralint.dryrun import resources


class NodeClaims:
    """Per node: the pod's claims to allocate there (each variant of a claim made once)."""

    def __init__(self, allocatable: Sequence[resources.Amounts | None]) -> None:
        self.allocatable = allocatable  # per node index; None where unknown (no device plugin assumed)
        # (claim, resources device plugins serve on a node) -> the claim's use there; the original use
        # is kept so that the id of its claim is not reused
        self.variants: dict[tuple[int, frozenset[str]], tuple[ClaimUse, ClaimUse | None]] = {}

    def __call__(self, index: int, uses: list[ClaimUse]) -> list[ClaimUse]:
        """The claims to allocate on node ``index``: the extended-resource claim keeps only the requests of
        resources no device plugin serves there, and is left out when it has none."""
        allocatable = self.allocatable[index]
        extended = next((use for use in uses if use.kind == "extended"), None)
        if allocatable is None or extended is None or extended.claim is None:
            return uses
        served = frozenset(resource for _, _, resource in extended.extended if allocatable.get(resource))
        if not served:
            return uses
        key = (id(extended.claim), served)
        variant = self.variants.get(key)
        if variant is None:
            variant = self.variants[key] = (extended, _without(extended, served))
        replacement = variant[1]
        return (
            [use for use in uses if use is not extended]
            if replacement is None
            else [replacement if use is extended else use for use in uses]
        )


def _without(use: ClaimUse, served: frozenset[str]) -> ClaimUse | None:
    """The extended-resource claim without the requests of the ``served`` resources (None if none is left)."""
    assert use.claim is not None
    keep = {request for request, _, resource in use.extended if resource not in served}
    if not keep:
        return None
    spec = use.claim.spec
    requests = tuple(r for r in spec.requests if r.name in keep)
    claim = dataclasses.replace(use.claim, spec=dataclasses.replace(spec, requests=requests))
    return dataclasses.replace(use, claim=claim, extended=tuple(e for e in use.extended if e[0] in keep))
