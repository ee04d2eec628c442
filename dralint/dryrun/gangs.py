"""Gang scheduling (KEP-4671) in the dry-run's words: which pods form each gang, and why a gang does not run.

kube-scheduler places a gang all or nothing: its pods wait until the PodGroup (or Workload)
exists and ``minCount`` of them exist (the GangScheduling plugin's PreEnqueue), and they are bound
only when at least ``minCount`` of them fit together (Permit, then 1.37's workload scheduling
cycle); otherwise none of them keeps a node or a device. The dry-run places a gang's pods
together where its first pod comes, in order, and takes back what they took when too few fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from dralint.api.workloads import PodTemplate
from dralint.cluster.groups import Gang, Grouping
from dralint.cluster.pods import Pod

# Kinds that make groups of pods but, with kube-scheduler, no gang unless their pods name a PodGroup.
GROUP_KINDS = frozenset({"JobSet", "LeaderWorkerSet"})


def members(pods: Sequence[Pod]) -> dict[tuple[str, ...], list[Pod]]:
    """Each gang's pods, in order."""
    out: dict[tuple[str, ...], list[Pod]] = {}
    for pod in pods:
        if pod.gang is not None:
            out.setdefault(pod.gang.key, []).append(pod)
    return out


def waiting(gang: Gang, count: int) -> str | None:
    """Why the gang's pods never get to be scheduled, if they do not: its PodGroup is missing, or the
    inputs make fewer pods than its minCount."""
    if gang.missing is not None:
        return f"{gang.missing}: its pods wait for it"
    if count < gang.min_count:
        pods = f"{count} pod{'s' if count != 1 else ''}"
        return f"{gang.name} waits for minCount {gang.min_count} pods, and the inputs make {pods}"
    return None


def too_few(gang: Gang, placed: int, count: int, first: str) -> str:
    """Why none of a gang's pods runs although some fit: fewer than minCount do (``first`` says why one does not)."""
    return (
        f"only {placed} of the {count} pods of {gang.name} fit, fewer than its minCount {gang.min_count}: "
        f"none of them is bound ({first})"
    )


def scheduled_as(template: PodTemplate, gang: Gang | None, grouping: Grouping | None) -> str | None:
    """How kube-scheduler schedules the template's pods, for the workloads that make groups of pods
    (a JobSet, a LeaderWorkerSet) or name a pod group: as a gang, or one by one and why."""
    spec = template.spec
    if gang is not None:
        return f"a gang: {gang.missing}" if gang.missing else f"a gang: {gang.name}, minCount {gang.min_count}"
    if spec.scheduling_group is None and spec.workload_ref is None:
        if template.owner.kind in GROUP_KINDS:
            return "independent pods: no PodGroup names them, so kube-scheduler places each on its own"
        return None
    if grouping is None:
        return "independent pods: the Workload API is off (GenericWorkload), which drops their pod group reference"
    field = "schedulingGroup" if spec.scheduling_group is not None else "workloadRef"
    if field != grouping.reference:
        return f"independent pods: this release reads spec.{grouping.reference}, not spec.{field}"
    if not grouping.gangs:
        return "independent pods: gang scheduling is off (GangScheduling)"
    return "independent pods: their pod group has the basic policy"
