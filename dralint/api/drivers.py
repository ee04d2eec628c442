"""Objects of drivers' own APIs that shape allocation, read into typed values: NVIDIA's ComputeDomain.

A ComputeDomain (``resource.nvidia.com``) names the ResourceClaimTemplate its controller creates
for the IMEX channel of every pod that joins the domain, and ``numNodes``, the number of nodes the
domain's IMEX daemons expect before they start (without DNS names for the daemons).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import value_at
from dralint.dataclass import dataclass

__all__ = ["ComputeDomain", "compute_domains"]

GROUP = "resource.nvidia.com"


@dataclass(frozen=True, slots=True)
class ComputeDomain:
    obj: KubeObject
    namespace: str
    name: str
    num_nodes: int  # 0: not set (the IMEX daemons then start without waiting for their peers)
    template: str | None  # spec.channel.resourceClaimTemplate.name


def compute_domains(objects: Iterable[KubeObject]) -> Iterator[ComputeDomain]:
    """The ComputeDomains among ``objects``, with the fields that shape allocation (a wrong type reads as unset)."""
    for obj in objects:
        if obj.kind != "ComputeDomain" or obj.group != GROUP:
            continue
        raw = obj.raw
        nodes = value_at(raw, ("spec", "numNodes"))
        template = value_at(raw, ("spec", "channel", "resourceClaimTemplate", "name"))
        yield ComputeDomain(
            obj,
            obj.namespace or "default",
            obj.name or "",
            nodes if isinstance(nodes, int) and not isinstance(nodes, bool) and nodes > 0 else 0,
            template if isinstance(template, str) and template else None,
        )
