"""Groups of pods as the target schedules them (scheduling.k8s.io, KEP-4671 and KEP-5729): the gang a pod
template's pods belong to, and the PodGroup whose claims they share."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from dralint.api import podgroups
from dralint.api.objects import KubeObject
from dralint.api.podgroups import PodGroup
from dralint.api.versions import Target
from dralint.api.workloads import PodTemplate
from dralint.dataclass import dataclass


@dataclass(frozen=True, slots=True)
class Gang:
    """A group of pods kube-scheduler places all or nothing: at least ``min_count`` of them, or none."""

    key: tuple[str, ...]  # its identity: the PodGroup, or the Workload's pod group and replica key
    name: str  # "PodGroup ml/workers", "pod group workers of Workload ml/train (replica key 0)"
    min_count: int
    obj: KubeObject | None  # the PodGroup or Workload that says so; None when it does not exist
    missing: str | None = None  # "PodGroup ml/workers does not exist": its pods wait for it


@dataclass(frozen=True, slots=True)
class Grouping:
    """What the target makes of pod groups (scheduling.k8s.io): which pods are gangs, which claims they share."""

    pod_groups: Mapping[tuple[str, str], PodGroup]  # 1.36+: (namespace, name) -> PodGroup
    workload_groups: Mapping[tuple[str, str, str], PodGroup]  # 1.35: (namespace, Workload, pod group)
    reference: Literal["workloadRef", "schedulingGroup"]  # the pod field the release has
    gangs: bool  # GenericWorkload (and, before 1.37, GangScheduling): gangs are all or nothing
    claims: bool  # GenericWorkload and DRAWorkloadResourceClaims: a group's claims are shared

    def group_of(self, template: PodTemplate) -> PodGroup | None:
        """The PodGroup the template's pods name, if it exists (1.36+)."""
        name = template.spec.scheduling_group
        if self.reference != "schedulingGroup" or name is None:
            return None
        return self.pod_groups.get((template.namespace, name))

    def gang_of(self, template: PodTemplate) -> Gang | None:
        """The gang the template's pods belong to (None: they are scheduled one by one)."""
        if not self.gangs:
            return None
        namespace = template.namespace
        if self.reference == "schedulingGroup":
            name = template.spec.scheduling_group
            if name is None:
                return None
            group = self.pod_groups.get((namespace, name))
            what = f"PodGroup {namespace}/{name}"
            if group is None:
                return Gang(("PodGroup", namespace, name), what, 0, None, f"{what} does not exist")
            if group.min_count is None:
                return None
            return Gang(("PodGroup", namespace, name), what, group.min_count, group.obj)
        ref = template.spec.workload_ref
        if ref is None:
            return None
        workload, pod_group, replica = ref
        what = f"pod group {pod_group} of Workload {namespace}/{workload}" + (
            f" (replica key {replica})" if replica else ""
        )
        key = ("Workload", namespace, workload, pod_group, replica)
        found = self.workload_groups.get((namespace, workload, pod_group))
        if found is None:
            return Gang(
                key, what, 0, None, f"Workload {namespace}/{workload} with pod group {pod_group} does not exist"
            )
        if found.min_count is None:
            return None
        return Gang(key, what, found.min_count, found.obj)


def grouping(objects: Iterable[KubeObject], target: Target) -> Grouping | None:
    """The pod groups of ``objects`` as ``target`` schedules them; None where the Workload API is off."""
    if not target.enabled("GenericWorkload"):
        return None
    return Grouping(
        podgroups.pod_groups(objects),
        podgroups.workload_groups(objects),
        "workloadRef" if target.release == "1.35" else "schedulingGroup",
        # GangScheduling (1.35, 1.36) is not a DRA gate: the gate table leaves it out, the overrides say it
        gangs=target.at_least("1.37") or target.overrides.get("GangScheduling", False),
        claims=target.enabled("DRAWorkloadResourceClaims"),
    )
