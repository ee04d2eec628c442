"""The scheduling units of scheduling.k8s.io (KEP-4671) as the dry-run reads them: which pods form a group,
whether the group is a gang (all or nothing, at least ``minCount`` pods) and which claims it shares.

From 1.36 a pod names its standalone PodGroup (``spec.schedulingGroup.podGroupName``), whose
``spec.schedulingPolicy`` is ``basic`` or ``gang`` and whose ``spec.resourceClaims`` (KEP-5729)
its pods share. On 1.35 a pod names a Workload and one of its ``spec.podGroups``
(``spec.workloadRef``: name, podGroup, podGroupReplicaKey); each replica key is a gang of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dralint.api import read
from dralint.api.objects import KubeObject
from dralint.api.workloads import PodClaim, pod_claims
from dralint.dataclass import dataclass

GROUP = "scheduling.k8s.io"


@dataclass(frozen=True, slots=True)
class PodGroup:
    """A PodGroup (1.36+), or one pod group of a Workload (1.35)."""

    obj: KubeObject
    namespace: str
    name: str  # the PodGroup's name, or the Workload's pod group name
    min_count: int | None  # the gang's minCount; None for the basic policy
    claims: tuple[PodClaim, ...] = ()  # spec.resourceClaims: shared by the group's pods


def _min_count(policy: Any) -> int | None:
    gang = read.mapping(policy, "gang")
    return read.integer(gang, "minCount") if gang is not None else None


def pod_groups(objects: Iterable[KubeObject]) -> dict[tuple[str, str], PodGroup]:
    """(namespace, name) -> the PodGroups among ``objects`` (the first definition of each)."""
    out: dict[tuple[str, str], PodGroup] = {}
    for obj in objects:
        if obj.kind != "PodGroup" or obj.group != GROUP or not obj.name:
            continue
        spec = read.mapping_or_empty(obj.raw, "spec")
        namespace = obj.namespace or "default"
        group = PodGroup(
            obj,
            namespace,
            obj.name,
            _min_count(read.mapping(spec, "schedulingPolicy")),
            pod_claims(spec.get("resourceClaims")),
        )
        out.setdefault((namespace, obj.name), group)
    return out


def workload_groups(objects: Iterable[KubeObject]) -> dict[tuple[str, str, str], PodGroup]:
    """(namespace, Workload name, pod group name) -> the pod groups of 1.35's Workloads (``spec.podGroups``)."""
    out: dict[tuple[str, str, str], PodGroup] = {}
    for obj in objects:
        if obj.kind != "Workload" or obj.group != GROUP or not obj.name:
            continue
        namespace = obj.namespace or "default"
        for entry in read.items(read.mapping_or_empty(obj.raw, "spec"), "podGroups"):
            name = read.text(entry, "name")
            if name:
                group = PodGroup(obj, namespace, name, _min_count(read.mapping(entry, "policy")))
                out.setdefault((namespace, obj.name, name), group)
    return out


def matching_claim(group: PodGroup | None, entry: PodClaim) -> bool:
    """Whether a pod's claim entry is its group's claim: name, claim name and template name all equal."""
    return group is not None and entry in group.claims
