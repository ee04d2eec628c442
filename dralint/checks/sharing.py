"""Shared/exclusive misuse (DRA600-DRA602, DRA604, DRA606): claims shared by replicas or by pods that
cannot meet on one node, claims with more consumers than allowed, All requests on shareable devices,
and one exclusive class split over several claims of a pod. (Admin access outside an admin
namespace is the API server's rule, DRA130.)"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:  # the dry-run's modules are imported where they are needed (most runs have no inventory)
    from dralint.api import model
    from dralint.api.workloads import PodTemplate
    from dralint.cluster.inventory import SliceEntry
    from dralint.cluster.pods import Pod


def check(ctx: CheckContext) -> Iterator[Violation]:
    yield from _shared_by_replicas(ctx)
    yield from _too_many_consumers(ctx)
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return
    yield from _not_on_one_node(ctx)
    yield from _all_on_shareable(ctx)
    yield from _split_class(ctx)


def _entry(template: PodTemplate, index: int) -> tuple[str | int, ...]:
    return template.claim_path(index)


def _replicas(template: PodTemplate) -> str | None:
    if template.per_node:
        return f"the pods of {template.owner.kind} {template.namespace}/{template.owner.name} (one per node)"
    if template.replicas is not None and template.replicas > 1:
        return f"all {template.replicas} replicas of {template.owner.kind} {template.namespace}/{template.owner.name}"
    return None


def _shared_by_replicas(ctx: CheckContext) -> Iterator[Violation]:
    for template in ctx.pod_templates:
        who = _replicas(template)
        if who is None:
            continue
        for i, entry in enumerate(template.spec.resource_claims):
            if entry.resource_claim_name is None:
                continue
            yield Violation(
                RuleId.SHARED_CLAIM_MULTIPLE_REPLICAS,
                f"{who} share ResourceClaim {template.namespace}/{entry.resource_claim_name}: they get the same "
                "devices and can only run on the nodes its allocation is usable on",
                template.owner,
                (*_entry(template, i), "resourceClaimName"),
                "use resourceClaimTemplateName to give every pod its own claim, unless sharing is intended",
            )


def _too_many_consumers(ctx: CheckContext) -> Iterator[Violation]:
    if not any(e.resource_claim_name is not None for t in ctx.pod_templates for e in t.spec.resource_claims):
        return  # no pod names a ResourceClaim: none can have too many consumers
    from dralint.cluster.pods import claim_index
    from dralint.dryrun.analysis import RESERVED_FOR_LIMIT

    limit = RESERVED_FOR_LIMIT.get(ctx.target.release, 256)
    index = claim_index(ctx.normalised.values())
    consumers: dict[tuple[str, str], list[str]] = {}
    counts: dict[tuple[str, str], int] = {}
    nodes = len(ctx.inventory.nodes)
    for template in ctx.pod_templates:
        pods = nodes if template.per_node else (template.replicas or 0)
        for entry in template.spec.resource_claims:
            if entry.resource_claim_name is None or pods == 0:
                continue
            key = (template.namespace, entry.resource_claim_name)
            counts[key] = counts.get(key, 0) + pods
            consumers.setdefault(key, []).append(f"{template.owner.kind} {template.owner.name} ({pods})")
    for key, count in counts.items():
        found = index.claims.get(key)
        if found is None:
            continue
        claim, obj = found
        total = count + claim.reserved_for
        if total <= limit:
            continue
        already = f" plus {claim.reserved_for} already reserved" if claim.reserved_for else ""
        yield Violation(
            RuleId.CLAIM_CONSUMERS_EXCEED_LIMIT,
            f"ResourceClaim {key[0]}/{key[1]} would have {total} consumers ({', '.join(consumers[key])}{already}); "
            f"at most {limit} pods can reserve one claim",
            obj,
            ("metadata", "name"),
            f"pods beyond the {limit}th stay Pending; split the workload over several claims or use a template",
        )


def _not_on_one_node(ctx: CheckContext) -> Iterator[Violation]:
    from dralint.diagnose import locate

    seen: set[int] = set()
    for placement in ctx.analysis.simulation.placements:
        pod = placement.pod
        if placement.outcome != "claim-elsewhere" or pod.template_index in seen:
            continue
        seen.add(pod.template_index)
        use = next(u for u in pod.claims if u.shared and u.claim is not None)
        obj, path = locate.claim_entry(pod, use)
        yield Violation(
            RuleId.SHARED_CLAIM_PODS_APART,
            f"{pod.subject} cannot use the shared claim: {placement.reason}",
            obj,
            path,
            "pods sharing a claim with node-local devices must all be able to run on that node",
        )


def _all_on_shareable(ctx: CheckContext) -> Iterator[Violation]:
    from dralint.api.requests import claim_specs, written_requests
    from dralint.diagnose import candidates as requests

    if not ctx.target.enabled("DRAConsumableCapacity"):
        return
    analysis = ctx.analysis
    for request in written_requests(claim_specs(ctx.admission.stored.values())):
        if request.spec.allocation_mode != "All":
            continue
        devices = requests.matching_devices(request, analysis.class_devices(request.spec.device_class_name))
        shareable = requests.all_mode_on_shareable(request, devices)
        if not shareable:
            continue
        yield Violation(
            RuleId.ALL_MODE_ON_SHAREABLE_DEVICES,
            f"{request.owner} asks for all devices, and {shareable} of the {len(devices)} matching devices "
            f"allow{'s' if shareable == 1 else ''} multiple allocations: the claim takes one share of each, "
            "not the whole devices",
            request.obj,
            (*request.path, "allocationMode"),
            "request an ExactCount of devices, or select only devices without allowMultipleAllocations",
        )


def _split_class(ctx: CheckContext) -> Iterator[Violation]:
    from dralint.diagnose import locate

    analysis = ctx.analysis
    per_node = _devices_per_node(analysis.inventory.slices)
    reported: set[int] = set()
    for pod in analysis.pods:
        if pod.template_index in reported:
            continue
        by_class: dict[str, list[tuple[str, int, str]]] = {}  # class -> (entry name, count, container)
        for use in pod.claims:
            if use.claim is None or use.kind == "extended":
                continue
            users = [c.name for c in pod.template.spec.containers if any(cc.name == use.entry.name for cc in c.claims)]
            if len(users) != 1:
                continue
            for request in use.claim.spec.requests:
                spec = request.exactly
                if spec is None or spec.allocation_mode == "All" or spec.admin_access or spec.capacity is not None:
                    continue
                by_class.setdefault(spec.device_class_name, []).append((use.entry.name, spec.count, users[0]))
        for class_name, parts in by_class.items():
            containers = {container for _, _, container in parts}
            if len(parts) < 2 or len(containers) < 2:
                continue
            accepted = {id(d) for _, d in analysis.class_devices(class_name)}
            most = max((sum(1 for d in devices if id(d) in accepted) for devices in per_node.values()), default=0)
            total = sum(count for _, count, _ in parts)
            if not (max(count for _, count, _ in parts) <= most < total):
                continue
            reported.add(pod.template_index)
            names = ", ".join(f"{name} ({container})" for name, _, container in parts)
            first = next(u for u in pod.claims if u.entry.name == parts[1][0])
            obj, path = locate.claim_entry(pod, first)
            yield Violation(
                RuleId.EXCLUSIVE_CLASS_SPLIT_ACROSS_CLAIMS,
                f"{pod.subject} {_verb(pod)} {total} exclusive devices of class {class_name} "
                f"through claims {names}, "
                f"but no node has more than {most}",
                obj,
                path,
                "if the containers should share one device, reference one claim from all of them",
            )


def _verb(pod: Pod) -> str:
    return "needs" if pod.template.owner.kind == "Pod" else "need"


def _devices_per_node(slices: Sequence[SliceEntry]) -> dict[str, list[model.Device]]:
    out: dict[str, list[model.Device]] = {}
    for entry in slices:
        if entry.slice.node_name:
            out.setdefault(entry.slice.node_name, []).extend(entry.slice.devices)
    return out
