"""Shared/exclusive misuse (DRA600-DRA602, DRA604, DRA606, DRA607): claims shared by replicas or by pods that
cannot meet on one node, claims with more consumers than Kubernetes or their driver allows, All
requests on shareable devices, and one exclusive class split over several claims of a pod. (Admin
access outside an admin namespace is the API server's rule, DRA130.)"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:  # the dry-run's modules are imported where they are needed (most runs have no inventory)
    from dralint.api import model
    from dralint.api.workloads import PodTemplate
    from dralint.cluster.inventory import SliceEntry
    from dralint.cluster.pods import ClaimIndex, Pod
    from dralint.diagnose.claim_sharing import Consumer, Limit, Reach, Reachable
    from dralint.diagnose.profile_selectors import Readings


def check(ctx: CheckContext) -> Iterator[Violation]:
    uses = _Uses(ctx)
    yield from _shared_by_replicas(ctx, uses)
    yield from _beyond_driver(uses)
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


class _Uses:
    """The claims the pod templates use, with the sharing their drivers enforce (built when first asked)."""

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        self._limits: dict[tuple[str, str, str], list[Limit]] = {}

    @cached_property
    def consumers(self) -> list[Consumer]:
        from dralint.diagnose.claim_sharing import consumers

        return consumers(self.ctx.pod_templates)

    @cached_property
    def index(self) -> ClaimIndex:
        from dralint.cluster.pods import claim_index

        return claim_index(self.ctx.normalised.values())

    @cached_property
    def classes(self) -> Mapping[str, model.DeviceClass]:
        from dralint.api import model

        typed = [n.typed for n in self.ctx.normalised.values()]
        found = {t.name: t for t in reversed(typed) if isinstance(t, model.DeviceClass)}
        return {**{name: e.device_class for name, e in self.ctx.inventory.classes.items()}, **found}

    def spec(self, consumer: Consumer) -> tuple[str, str, model.ResourceClaimSpec] | None:
        """(kind, name, spec) of the ResourceClaim or ResourceClaimTemplate the consumer's entry names."""
        entry = consumer.template.spec.resource_claims[consumer.entry]
        namespace = consumer.template.namespace
        if entry.resource_claim_name is not None:
            found = self.index.claims.get((namespace, entry.resource_claim_name))
            return None if found is None else ("ResourceClaim", entry.resource_claim_name, found[0].spec)
        if entry.resource_claim_template_name is not None:
            template = self.index.templates.get((namespace, entry.resource_claim_template_name))
            name = entry.resource_claim_template_name
            return None if template is None else ("ResourceClaimTemplate", name, template[0].spec)
        return None

    @cached_property
    def readings(self) -> Readings:
        """The selectors read against every driver's profile (also of drivers the inventory has devices of)."""
        from dralint.cel.dra import selector_environment
        from dralint.diagnose.profile_selectors import Readings

        return Readings(selector_environment(target=self.ctx.target), self.ctx.options.profiles)

    def limits(self, consumer: Consumer) -> list[Limit]:
        """What the drivers of the consumer's claim allow, strictest first."""
        from dralint.diagnose.claim_sharing import limits

        found = self.spec(consumer)
        if found is None or not self.ctx.options.profiles:
            return []
        key = (consumer.template.namespace, found[0], found[1])
        if key not in self._limits:
            self._limits[key] = limits(found[2], self.classes, self.readings, self.ctx.driver_releases)
        return self._limits[key]

    @cached_property
    def reach(self) -> Reach:
        from dralint.diagnose.claim_sharing import Reach

        return Reach(self.classes, [e.slice for e in self.ctx.inventory.slices])

    def reachable(self, consumer: Consumer) -> Reachable:
        """The inventory devices the consumer's claim can get (none without an inventory)."""
        from dralint.diagnose.claim_sharing import NOWHERE

        found = self.spec(consumer)
        if found is None or not self.ctx.inventory.has_inventory:
            return NOWHERE
        return self.reach.claim(found[2])

    def pods(self, consumer: Consumer) -> int:
        """The pods of the consumer (a DaemonSet: one per inventory node, or several when there is none)."""
        if consumer.pods is not None:
            return consumer.pods
        return len(self.ctx.inventory.nodes) or 2


def _shared_by_replicas(ctx: CheckContext, uses: _Uses) -> Iterator[Violation]:
    for consumer in uses.consumers:
        template = consumer.template
        entry = template.spec.resource_claims[consumer.entry]
        who = _replicas(template)
        if who is None or entry.resource_claim_name is None:
            continue
        limits = uses.limits(consumer)
        if limits and limits[0].sharing.consumers in ("pod", "container"):
            continue  # the driver refuses the second pod: DRA607 says so
        strictest = limits[0].sharing.consumers if limits else "pods"
        reachable = uses.reachable(consumer)
        if strictest == "pods" and reachable.network_attached:
            continue  # network-attached devices any number of pods may share: sharing is the point
        hint = "use resourceClaimTemplateName to give every pod its own claim, unless sharing is intended"
        if reachable.shareable:
            hint += "; the devices allow multiple allocations, so the pods' own claims can still share them"
        yield Violation(
            RuleId.SHARED_CLAIM_MULTIPLE_REPLICAS,
            f"{who} share ResourceClaim {template.namespace}/{entry.resource_claim_name}: they get the same "
            "devices and can only run on the nodes its allocation is usable on",
            template.owner,
            (*_entry(template, consumer.entry), "resourceClaimName"),
            hint,
        )


def _beyond_driver(uses: _Uses) -> Iterator[Violation]:
    """DRA607: more pods or containers use a claim than its driver lets use one."""
    by_claim: dict[tuple[str, str], list[Consumer]] = {}
    for consumer in uses.consumers:
        limits = uses.limits(consumer)
        if not limits or limits[0].sharing.consumers not in ("pod", "container"):
            continue
        if limits[0].sharing.consumers == "container" and len(consumer.containers) > 1:
            yield _containers_beyond(uses, consumer, limits[0])
        entry = consumer.template.spec.resource_claims[consumer.entry]
        if entry.resource_claim_name is not None:
            by_claim.setdefault((consumer.template.namespace, entry.resource_claim_name), []).append(consumer)
    for (namespace, name), using in by_claim.items():
        total = sum(uses.pods(c) for c in using)
        if total < 2:
            continue
        limit = uses.limits(using[0])[0]
        listed = ", ".join(_owner(c.template) + _count(c) for c in using)
        for consumer in using:
            yield Violation(
                RuleId.CLAIM_SHARED_BEYOND_DRIVER,
                f"ResourceClaim {namespace}/{name} is used by {total} pods ({listed}), but driver {limit.driver} "
                f"lets one pod use a claim: {_why(limit)}",
                consumer.template.owner,
                (*_entry(consumer.template, consumer.entry), "resourceClaimName"),
                "give every pod its own claim with resourceClaimTemplateName (a ResourceClaimTemplate)"
                + _source(limit),
            )


def _containers_beyond(uses: _Uses, consumer: Consumer, limit: Limit) -> Violation:
    template = consumer.template
    entry = template.spec.resource_claims[consumer.entry]
    names = " and ".join(c.name for c in consumer.containers[:2])
    more = f" (and {len(consumer.containers) - 2} more)" if len(consumer.containers) > 2 else ""
    second = consumer.containers[1]
    index = next(i for i, claim in enumerate(second.claims) if claim.name == entry.name)
    return Violation(
        RuleId.CLAIM_SHARED_BEYOND_DRIVER,
        f"containers {names}{more} of {_owner(template)} use claim {entry.name}, but driver {limit.driver} lets one "
        f"container use a claim: {_why(limit)}",
        template.owner,
        (*template.path, second.kind, second.index, "resources", "claims", index),
        f"give each container its own entry in resourceClaims, each with its own claim of {limit.driver}"
        + _source(limit),
    )


def _why(limit: Limit) -> str:
    return limit.sharing.description or f"one {limit.sharing.consumers} per claim"


def _source(limit: Limit) -> str:
    return f" (the driver's {limit.sharing.source})" if limit.sharing.source else ""


def _owner(template: PodTemplate) -> str:
    return f"{template.owner.kind} {template.namespace}/{template.owner.name}"


def _count(consumer: Consumer) -> str:
    if consumer.template.owner.kind == "Pod":
        return ""
    return " (one pod per node)" if consumer.pods is None else f" ({consumer.pods} pods)"


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
