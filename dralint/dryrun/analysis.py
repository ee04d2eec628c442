"""The whole dry-run for one check run: inventory → pods → placement → utilisation → failures.

Built once per run (the ``analysis`` property of :class:`~dralint.pipeline.context.CheckContext`) and read by
every simulation check and by ``dralint simulate``. Failure explanations are computed lazily,
only for the pods that did not fit, and once per pod template.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from functools import cached_property
from typing import TYPE_CHECKING

from dralint.allocator import AllocatorError, Explanation, Features
from dralint.allocator.prepare import apply_taint_rules, features_for, release_for, taint_rules_apply
from dralint.api import model
from dralint.api.versions import Target
from dralint.cluster import pods as pods_module
from dralint.cluster.groups import Grouping
from dralint.cluster.inventory import Inventory, SliceEntry
from dralint.cluster.layout import counters_beside_devices
from dralint.dataclass import dataclass
from dralint.diagnose import defects, hints, why
from dralint.dryrun import nodealloc, quota, resources
from dralint.dryrun.filters import PlacedPods
from dralint.dryrun.placement import RESERVED_FOR_MAX, Placement, Simulation, Skip, Strategy, simulate
from dralint.dryrun.shapes import SliceContents
from dralint.dryrun.state import Cluster, SearchBudget
from dralint.dryrun.utilisation import PoolUtilisation, utilisation
from dralint.findings import Location

if TYPE_CHECKING:
    from dralint.api.normalise import Normalised
    from dralint.api.objects import KubeObject
    from dralint.api.producers import Created
    from dralint.api.quota import ResourceQuota
    from dralint.api.workloads import PodTemplate
    from dralint.apimachinery.fieldpath import Path
    from dralint.limits import Limits as InputLimits

RESERVED_FOR_LIMIT = {"1.31": 32}  # consumers of a claim; 256 from 1.32
MAX_EXPLAINED_NODES = 64  # explanations are summed over at most this many candidate nodes


@dataclass(frozen=True, slots=True)
class Failure:
    """Why the pods of one template (one pod shape) did not fit."""

    first: Placement  # the first pod of the template that did not fit
    placements: tuple[Placement, ...]  # every pod of the template with this outcome
    fits_empty: bool  # the pod would fit if no other simulated pod held devices
    explanations: tuple[Explanation, ...]  # per candidate node, against the cluster it failed on


@dataclass
class Analysis:  # not slotted: it caches lazily computed properties
    target: Target
    inventory: Inventory
    features: Features
    pods: list[pods_module.Pod]
    simulation: Simulation
    cluster: Cluster  # with every allocation of the dry-run
    base: Cluster  # with only the allocations that were already in the inventory
    strategy: Strategy = "pack"
    # What placing more pods needs (the planner places pods on template nodes and elsewhere).
    templates: Sequence[PodTemplate] = ()
    claim_index: pods_module.ClaimIndex | None = None
    extended: Mapping[str, str] = field(default_factory=dict)  # extended resource -> DeviceClass
    namespaces: Mapping[str, Mapping[str, str]] | None = None
    inter_pod: bool = True
    reserved_for: int = RESERVED_FOR_MAX
    grouping: Grouping | None = None  # what the target makes of pod groups
    # where the user reads a field of an object (a rendered one's: in the file it was rendered from)
    written_at: Callable[[KubeObject, Path], Location] | None = None
    _class_devices: dict[str, list[tuple[str, model.Device]]] = field(default_factory=dict)
    # (claims' shape, id of the candidates) -> (the candidates, whether the claims fit one of them when empty)
    _fits_empty: dict[tuple[object, int], tuple[tuple[str, ...], bool]] = field(default_factory=dict)
    _selector_details: why.SelectorDetails = field(default_factory=dict)
    _candidate_indexes: dict[int, tuple[tuple[str, ...], list[int]]] = field(default_factory=dict)

    @cached_property
    def nodes_by_name(self) -> dict[str, model.Node]:
        return {entry.node.name: entry.node for entry in self.inventory.nodes}

    @property
    def active(self) -> bool:
        """Whether there was an inventory to dry-run against."""
        return self.inventory.has_inventory

    @cached_property
    def utilisation(self) -> list[PoolUtilisation]:
        allocations = [a.claim.allocation for a in self.inventory.allocated if a.claim.allocation is not None]
        seen = {id(a) for a in allocations}
        allocations.extend(a for a in self.simulation.allocated.values() if id(a) not in seen)
        return utilisation(self.inventory.slices, allocations)

    @cached_property
    def failures(self) -> list[Failure]:
        """One entry per pod template with unsatisfiable pods, in document order."""
        groups: dict[int, list[Placement]] = {}
        for placement in self.simulation.placements:
            if placement.outcome == "unsatisfiable":
                groups.setdefault(placement.pod.template_index, []).append(placement)
        return [self._failure(group) for group in groups.values()]

    def failure_of(self, template: int) -> Failure | None:
        """The failure of the pods of pod template ``template`` (by index) that did not fit, if they did not."""
        return self._failures_by_template.get(template)

    @cached_property
    def _failures_by_template(self) -> dict[int, Failure]:
        return {failure.first.pod.template_index: failure for failure in self.failures}

    @cached_property
    def vocabulary(self) -> hints.Vocabulary:
        return hints.vocabulary(entry.slice for entry in self.inventory.slices)

    def skipped(self, nodes: Iterable[str], device_class: str) -> list[str]:
        """Why pools that could serve a request of ``device_class`` on these nodes give it no device.

        A pool is left out of the cluster model when the API server rejects one of its slices, and
        the allocator takes nothing from an incomplete or invalid pool. It counts when it is on one
        of the nodes (or on none) and its driver is one whose devices the class accepts, or, when
        the class accepts no stored device at all, one its selectors name (or the class has none).
        """
        if not self.inventory.skipped_pools and not self._unusable_pools:
            return []  # (the usual case: nothing to gather per failing workload)
        names = set(nodes)
        accepted = {driver for driver, _ in self.class_devices(device_class)}
        entry = self.inventory.classes.get(device_class)
        selectors = entry.device_class.selectors if entry is not None else ()
        text = " ".join(s.cel.expression for s in selectors if s.cel is not None)

        def serves(driver: str, pool_nodes: Iterable[str | None]) -> bool:
            on_nodes = any(node is None or node in names for node in pool_nodes)
            return on_nodes and (driver in accepted or (not accepted and (not selectors or driver in text)))

        out = [pool.reason for (driver, _), pool in self.inventory.skipped_pools.items() if serves(driver, [pool.node])]
        for (driver, name), (state, defect, current) in self._unusable_pools.items():
            if serves(driver, [e.slice.node_name for e in current]):
                obj, path = defect.origin.obj, defect.origin.path
                what = defect.message.removeprefix(f"pool {driver}/{name} ")
                at = self.written_at(obj, path) if self.written_at else Location(obj.file, *obj.position(path))
                out.append(
                    f"pool {driver}/{name} is skipped: the scheduler allocates nothing from an {state} pool "
                    f"({what}, at {at.file}:{at.line})"
                )
        return out

    @cached_property
    def _unusable_pools(self) -> dict[tuple[str, str], tuple[str, defects.Defect, list[SliceEntry]]]:
        counters_checked = self.features.partitionable_devices and not self.cluster.release.counters_in_device_slice
        return defects.unusable_pools(self.inventory.slices, counters_checked=counters_checked)

    def class_devices(self, name: str) -> list[tuple[str, model.Device]]:
        """Inventory devices the selectors of DeviceClass ``name`` accept."""
        cached = self._class_devices.get(name)
        if cached is None:
            entry = self.inventory.classes.get(name)
            slices = [e.slice for e in self.inventory.slices]
            cached = why.class_devices(slices, entry.device_class) if entry is not None else []
            self._class_devices[name] = cached
        return cached

    @cached_property
    def template_pods(self) -> dict[int, int]:
        """Simulated pods per pod template (index), whatever their outcome."""
        counts: dict[int, int] = {}
        for placement in self.simulation.placements:
            index = placement.pod.template_index
            counts[index] = counts.get(index, 0) + 1
        return counts

    def reasons(self, failure: Failure) -> list[why.RequestWhy]:
        """Per request of the failing pod's claims: the funnel, failing clauses and hints."""
        claims = [use.claim for use in failure.first.attempted if use.claim is not None]
        return self.reasons_for(claims, failure.explanations)

    @cached_property
    def empty(self) -> Cluster:
        """The inventory's devices with nothing allocated, not even what the inventory says is in use."""
        cluster = self.cluster
        return Cluster(
            cluster.slices,
            cluster.classes,
            self.features,
            budget=cluster.budget,
            contents=cluster.contents,
            release=cluster.release,
            learnt=cluster.learnt,
        )

    def never_allocatable(self, claim: model.ResourceClaim) -> list[why.RequestWhy] | AllocatorError | None:
        """Why a claim no pod uses could not be allocated on any node of the empty cluster.

        ``None`` when it can be (or when the dry-run cannot tell: its search budget ran out); the
        allocator's error when the allocator fails on it; else the reasons per request.
        """
        nodes = list(self.nodes_by_name.values())
        for node in nodes:
            attempt = self.empty.attempt(node, [claim])
            if attempt.results is not None:
                return None
            if attempt.failure is not None and not attempt.failed_on_node:
                return attempt.failure
        if not nodes:
            return None
        explanations = [self.empty.explain(node, [claim]) for node in nodes[:MAX_EXPLAINED_NODES]]
        return self.reasons_for([claim], explanations)

    def reasons_for(
        self, claims: Sequence[model.ResourceClaim], explanations: Sequence[Explanation]
    ) -> list[why.RequestWhy]:
        """Per request of ``claims``, from the allocator's explanations per candidate node."""
        names: set[str] = set()
        for claim in claims:
            for request in claim.spec.requests:
                names.update(part.spec.device_class_name for part in request.parts())
        devices = {name: self.class_devices(name) for name in sorted(names) if name}
        classes = {name: entry.device_class for name, entry in self.inventory.classes.items()}
        return why.summarise(
            explanations, claims, devices, self.vocabulary, classes, self.every_device, self._selector_details
        )

    @cached_property
    def every_device(self) -> list[tuple[str, model.Device]]:
        """(driver, device) of every inventory device: gathered once, not once per failing workload."""
        return [(e.slice.driver, d) for e in self.inventory.slices for d in e.slice.devices]

    def _fits_base(self, claims: Sequence[model.ResourceClaim], candidates: tuple[str, ...]) -> bool:
        """Whether ``claims`` fit one of ``candidates`` (node names) with only the inventory's allocations:
        the nodes tried in order, those where the search would end at once passed over as in the dry-run."""
        nodes = self.inventory.nodes
        indexes = self._indexes(candidates)
        position = 0
        while position < len(indexes):
            if self.base.budget.spent:
                return False  # every attempt from now on is refused
            position = self._base_skip(claims, indexes, position)
            if position < len(indexes) and self.base.attempt(nodes[indexes[position]].node, claims).results is not None:
                return True
            position += 1
        return False

    def _indexes(self, names: tuple[str, ...]) -> list[int]:
        """The inventory positions of the nodes ``names`` (the unplaced pods of a shape share the tuple)."""
        known = self._candidate_indexes.get(id(names))
        if known is None or known[0] is not names:
            order = self._node_order
            known = self._candidate_indexes[id(names)] = (names, [order[name] for name in names])
        return known[1]

    @cached_property
    def _node_order(self) -> dict[str, int]:
        return {entry.node.name: i for i, entry in enumerate(self.inventory.nodes)}

    @cached_property
    def _base_skip(self) -> Skip:
        return self.base.screen([entry.node for entry in self.inventory.nodes]).skip

    def _failure(self, group: list[Placement]) -> Failure:
        first = group[0]
        claims = [use.claim for use in first.attempted if use.claim is not None]
        # Whether the claims fit some candidate of the cluster without the dry-run's allocations
        # depends on the claims' shape and the candidates only: the failing workloads of one
        # template, with the same candidates, ask it once instead of once per workload and node.
        key = (self.base.claims_shape(claims), id(first.candidates))
        known = self._fits_empty.get(key)
        if known is None or known[0] is not first.candidates:
            known = self._fits_empty[key] = (first.candidates, self._fits_base(claims, first.candidates))
        fits_empty = known[1]
        cluster = self.cluster if fits_empty else self.base
        names = first.candidates[:MAX_EXPLAINED_NODES]
        explanations = tuple(cluster.explain(self.nodes_by_name[name], claims) for name in names)
        return Failure(first, tuple(group), fits_empty, explanations)


def analyse(
    target: Target,
    inventory: Inventory,
    normalised: Mapping[KubeObject, Normalised],
    pod_templates: Sequence[PodTemplate],
    *,
    limits: InputLimits,
    strategy: Strategy = "pack",
    rejected: Mapping[tuple[str, str, str], str] | None = None,
    namespaces: Mapping[str, Mapping[str, str]] | None = None,
    rejected_workloads: Mapping[KubeObject, str] | None = None,
    produced: Created | None = None,
    quotas: Sequence[ResourceQuota] = (),
    grouping: Grouping | None = None,
    written_at: Callable[[KubeObject, Path], Location] | None = None,
) -> Analysis:
    """The dry-run of every pod of ``pod_templates`` (claims from ``normalised``) against ``inventory``.

    ``rejected`` says why claims and templates the inputs define are not in the cluster, by
    (kind, namespace, name), for the pods that name them; the pods of ``rejected_workloads`` (among
    ``pod_templates``) are never created and say why. ``namespaces`` gives the labels of
    namespaces, for the namespaceSelector of pod affinity terms; ``produced`` the claims and
    templates other objects create (not dry-run: their content is unknown); ``quotas`` the
    ResourceQuotas that admit pods and claims; ``grouping`` the pod groups (gangs, shared claims);
    ``written_at`` where the user reads a field of an object, for messages that quote it.
    """
    features, release = features_for(target), release_for(target)
    slices = [entry.slice for entry in inventory.slices]
    if release.counters_in_device_slice and any(entry.generated for entry in inventory.slices):
        # (compact Inventory documents expand to the 1.35 layout: 1.33-1.34 drivers publish another)
        slices = [e.slice for e in inventory.slices if not e.generated] + counters_beside_devices(
            [e.slice for e in inventory.slices if e.generated]
        )
    classes = {name: entry.device_class for name, entry in inventory.classes.items()}
    if taint_rules_apply(target):
        slices = apply_taint_rules(slices, [entry.rule for entry in inventory.taint_rules], classes)
    index = pods_module.claim_index(normalised.values(), rejected, produced)
    extended = pods_module.extended_resource_classes(inventory.classes) if target.enabled("DRAExtendedResource") else {}
    pods = pods_module.expand(
        pod_templates, index, inventory.nodes, extended, rejected=rejected_workloads, grouping=grouping
    )
    # The scheduler evaluates selectors in the StoredExpressions environment (everything enabled).
    budget = SearchBudget(limits.max_search_steps, limits.max_dry_run_steps)
    contents = SliceContents()
    cluster = Cluster(slices, classes, features, budget=budget, contents=contents, release=release)
    base = Cluster(slices, classes, features, budget=budget, release=release, learnt=cluster.learnt)
    existing = [entry.claim for entry in inventory.allocated]
    for claims_cluster in (cluster, base):
        claims_cluster.add(c.allocation for c in existing if c.allocation is not None)
    preallocated = {(c.namespace, c.name): c.allocation for c in existing if c.allocation is not None}
    consumers = {(c.namespace, c.name): c.reserved_for for c in existing}
    inter_pod = any(t.spec.scheduling.inter_pod for t in pod_templates)
    placed = PlacedPods(
        inventory.nodes,
        namespaces=namespaces,
        dra_backed=extended.keys(),
        inter_pod=inter_pod,
        node_allocatable=nodealloc.lookup(slices) if target.enabled("DRANodeAllocatableResources") else None,
        zero_is_listed=resources.listed_at_zero_is_device_plugins(target.release),
    )
    admitted = quota.Quotas(quotas)
    # DeviceClass -> its extendedResourceName, for the claims' quota (when DRAExtendedResource is on)
    names = (
        {name: c.extended_resource_name or "" for name, c in classes.items()}
        if target.enabled("DRAExtendedResource")
        else None
    )
    stored_claims = [claim for claim, _ in index.claims.values()]
    pods = quota.admit_pods(pods, stored_claims, admitted, placed.requests, names)

    reserved_for = RESERVED_FOR_LIMIT.get(target.release, RESERVED_FOR_MAX)
    result = (
        simulate(
            pods,
            inventory.nodes,
            cluster.attempt,
            cluster.add,
            cluster.remove,
            preallocated=preallocated,
            preconsumers=consumers,
            strategy=strategy,
            reserved_for=reserved_for,
            placed=placed,
            skip=cluster.screen([entry.node for entry in inventory.nodes]).skip,
            admit=quota.ExtendedClaims(admitted, placed.requests, names) if admitted else None,
        )
        if inventory.has_inventory
        else Simulation()
    )
    return Analysis(
        target,
        inventory,
        features,
        pods,
        result,
        cluster,
        base,
        strategy,
        templates=pod_templates,
        claim_index=index,
        extended=extended,
        namespaces=namespaces,
        inter_pod=inter_pod,
        reserved_for=reserved_for,
        grouping=grouping,
        written_at=written_at,
    )
