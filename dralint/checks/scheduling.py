"""The dry-run's scheduler verdicts besides devices (DRA510-DRA519): pods left pending by what they bypass
or wait for, reported once per pod template on the workload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dralint.api import read
from dralint.api.versions import GATES
from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:  # the dry-run's modules are imported only when there is an inventory (see check)
    from collections.abc import Sequence

    from dralint.dryrun.placement import Placement


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return
    reported: set[int] = set()
    gangs: set[tuple[str, ...]] = set()
    placements = ctx.analysis.simulation.placements
    for placement in placements:
        template = placement.pod.template_index
        gang = placement.pod.gang
        if placement.outcome == "gang" and gang is not None and gang.key not in gangs:
            gangs.add(gang.key)  # reported as a whole, once
            yield _gang(placements, placement)
        if template in reported:
            continue
        if placement.outcome == "bypassed":
            reported.add(template)
            yield _bypassed(placement)
        elif placement.outcome == "no-resource":
            reported.add(template)
            yield _no_resource(ctx, placement)
        elif placement.outcome == "quota":
            reported.add(template)
            yield _quota(ctx.analysis.simulation.placements, placement)


def _bypassed(placement: Placement) -> Violation:
    pod = placement.pod
    return Violation(
        RuleId.BOUND_POD_CLAIM_NEVER_ALLOCATED,
        f"{pod.subject} never start{'s' if pod.template.owner.kind == 'Pod' else ''}: {placement.reason}",
        pod.template.owner,
        (*pod.template.path, "nodeName"),
        "select the node with a nodeSelector on kubernetes.io/hostname instead of spec.nodeName, so that "
        "kube-scheduler places the pod and allocates its claims",
    )


def _no_resource(ctx: CheckContext, placement: Placement) -> Violation:
    """At the first container entry that requests one of the resources no node has."""
    pod = placement.pod
    path = pod.template.path
    for container in pod.template.spec.containers:
        entries = [(field, name) for field in ("requests", "limits") for name in placement.unavailable]
        found = next(
            ((f, n) for f, n in entries if n in (container.requests if f == "requests" else container.limits)), None
        )
        if found is not None:
            path = (*pod.template.path, container.kind, container.index, "resources", *found)
            break
    target = ctx.target
    if target.release not in GATES["DRAExtendedResource"]:
        hint = (
            f"Kubernetes {target.release} has no DRA-backed extended resources (DRAExtendedResource, from 1.34): "
            "request the devices with a claim, or run a device plugin that advertises the resource"
        )
    elif not target.enabled("DRAExtendedResource"):
        hint = (
            f"the DRAExtendedResource feature gate is off on Kubernetes {target.release}, so no DeviceClass can back "
            "an extended resource (on by default from 1.36): enable it, or run a device plugin that advertises it"
        )
    else:
        hint = "name it in a DeviceClass's extendedResourceName, or run a device plugin that advertises it on the nodes"
    return Violation(
        RuleId.EXTENDED_RESOURCE_UNAVAILABLE,
        f"{pod.subject} stay{'s' if pod.template.owner.kind == 'Pod' else ''} pending: {placement.reason}",
        pod.template.owner,
        path,
        hint,
    )


def _quota(placements: Sequence[Placement], placement: Placement) -> Violation:
    """At what is refused: the pod's claim entry, the container's extended resource, or the pod template."""
    pod = placement.pod
    template = pod.template
    path = template.path
    refusal = pod.quota
    if refusal is not None and refusal.entry is not None and refusal.entry >= 0:
        path = template.claim_path(refusal.entry)
    else:
        extended = next((use.extended for use in placement.attempted if use.kind == "extended"), ())
        path = extended[0][1] if extended and refusal is None else path
    refused = sum(1 for p in placements if p.outcome == "quota" and p.pod.template_index == pod.template_index)
    total = sum(1 for p in placements if p.pod.template_index == pod.template_index)
    who = pod.subject if template.owner.kind == "Pod" else f"{refused} of {total} pods of {pod.workload}"
    return Violation(
        RuleId.QUOTA_EXCEEDED,
        f"{who} never run{'s' if template.owner.kind == 'Pod' else ''}: {placement.reason}",
        template.owner,
        path,
        "raise the ResourceQuota's hard limit, or lower the replicas or what each pod asks for",
    )


def _gang(placements: Sequence[Placement], placement: Placement) -> Violation:
    """At the gang's minCount, or, when its PodGroup does not exist, where the pods name it."""
    pod = placement.pod
    gang = pod.gang
    assert gang is not None
    members = [p.pod for p in placements if p.pod.gang is not None and p.pod.gang.key == gang.key]
    workloads = ", ".join(dict.fromkeys(p.workload for p in members))
    message = f"the gang of {workloads} never runs: {placement.reason}"
    if gang.obj is None:
        field = "schedulingGroup" if pod.template.spec.scheduling_group is not None else "workloadRef"
        hint = "create it, or take the reference to it out of the pod template"
        return Violation(RuleId.GANG_NEVER_RUNS, message, pod.template.owner, (*pod.template.path, field), hint)
    if gang.obj.kind == "PodGroup":
        path: tuple[str | int, ...] = ("spec", "schedulingPolicy", "gang", "minCount")
    else:  # a 1.35 Workload: the pod group of that name
        groups = read.items(read.mapping_or_empty(gang.obj.raw, "spec"), "podGroups")
        index = next((i for i, g in enumerate(groups) if read.text(g, "name") == gang.key[3]), 0)
        path = ("spec", "podGroups", index, "policy", "gang", "minCount")
    if len(members) < gang.min_count:
        hint = f"make {gang.min_count} pods for the gang, or lower its minCount"
    else:
        hint = "add nodes or devices for the whole gang, lower its minCount, or ask for less per pod"
    return Violation(RuleId.GANG_NEVER_RUNS, message, gang.obj, path, hint)
