"""The cluster dry-run: each pod, in order, onto the first node that admits it and where its claims fit.

Allocations accumulate: a pod placed earlier holds its devices (and capacity, and counters)
for every later pod, exactly like a scheduler working through a queue. A named ResourceClaim is
allocated by the first pod that needs it; later pods only have to land where that allocation is
usable. Claims already allocated in the inventory keep their allocation.

Only allocations ever get added, so a node where a pod's claims did not fit stays unfit for
every identical pod later on; remembering that per pod shape keeps 4,000 replicas on 1,000
nodes linear instead of quadratic. The one exception is a gang that does not run: what its pods
took is taken back, and what was remembered is forgotten.

(Over 500 lines: the per-pod decision, the gangs that undo it and the caches both keep are one
piece of state; the claims per node and the gangs' reasons live in their own modules.)
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field
from typing import Literal, Protocol

from dralint import progress
from dralint.allocator.types import AllocatorError, Cause
from dralint.api import model
from dralint.cluster.groups import Gang
from dralint.cluster.inventory import NodeEntry
from dralint.cluster.pods import ClaimUse, Pod
from dralint.dataclass import dataclass
from dralint.dryrun import eligibility, gangs, nodealloc, resources
from dralint.dryrun.filters import Check, PlacedPods
from dralint.dryrun.nodeclaims import NodeClaims
from dralint.dryrun.nodeindex import NodeIndex

Strategy = Literal["pack", "spread"]
Outcome = Literal[
    "placed",
    "rejected",
    "missing-claim",
    "no-node",
    "unsatisfiable",
    "error",
    "claim-consumers",
    "claim-elsewhere",
    "bypassed",  # bound by spec.nodeName: no scheduler allocates its claims
    "no-resource",  # it requests an extended resource no Node advertises and no DeviceClass backs
    "quota",  # ResourceQuota refuses it, or a claim it needs
    "gang",  # its gang does not run: fewer than minCount of its pods fit, or they wait for their PodGroup
]


@dataclass(frozen=True, slots=True)
class Attempt:
    """What the allocator said for one pod on one node."""

    results: tuple[model.AllocationResult, ...] | None  # one per claim, or None
    failure: AllocatorError | None = None  # a hard error: the scheduler gives up on the pod (unless on this node only)

    @property
    def error(self) -> str | None:
        """The allocator's error message (``None`` without an error)."""
        return self.failure.message if self.failure is not None else None

    @property
    def failed_on_node(self) -> bool:
        """``invalid resource pools were encountered``: this node only."""
        return self.failure is not None and self.failure.failed_on_node


class Admit(Protocol):
    """Admission of the claims kube-scheduler itself makes for a pod it binds."""

    def __call__(self, pod: Pod, uses: Sequence[ClaimUse]) -> str | None:
        """Why the claims for the pod (on its node: ``uses``) are refused, if they are."""
        ...

    def give_back(self, pod: Pod) -> None:
        """The pod is not bound after all (its gang does not run): its claims are not made."""
        ...


class Allocate(Protocol):
    """Runs the allocator for ``claims`` on ``node`` against the allocations so far."""

    def __call__(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Attempt: ...


class Skip(Protocol):
    """The first position of ``candidates`` from ``position`` on where ``claims`` may fit: the nodes
    before it are ones where :class:`Allocate` would certainly find nothing, and count as tried."""

    def __call__(self, claims: Sequence[model.ResourceClaim], candidates: Sequence[int], position: int) -> int: ...


@dataclass(frozen=True, slots=True)
class Placement:
    """The fate of one pod."""

    pod: Pod
    outcome: Outcome
    node: str | None = None
    allocations: tuple[tuple[ClaimUse, model.AllocationResult], ...] = ()  # claims this pod allocated or reused
    reason: str = ""  # for anything but "placed": one line for the user
    failure: AllocatorError | None = None  # for "error": what the allocator's error is about (its text is the reason)
    candidates: tuple[str, ...] = ()  # nodes the pod may run on (for "unsatisfiable" and "error")
    attempted: tuple[ClaimUse, ...] = ()  # the claims the allocator was asked to allocate
    # the filters that excluded nodes: for "no-node" all of them ("taint", "resources", ...), for
    # "unsatisfiable" those that depend on the pods placed before (candidates are what they left)
    filters: tuple[str, ...] = ()
    unavailable: tuple[str, ...] = ()  # for "no-resource": the extended resources no node has


@dataclass(slots=True)
class Simulation:
    placements: list[Placement] = field(default_factory=list)  # pods that need devices
    # pods without claims: placed only because they take node resources and count for pod
    # (anti-)affinity and topology spread
    others: list[Placement] = field(default_factory=list)
    # (namespace, name) -> allocation of every claim the dry-run allocated, in allocation order
    allocated: dict[tuple[str, str], model.AllocationResult] = field(default_factory=dict)
    consumers: dict[tuple[str, str], int] = field(default_factory=dict)  # pods reserving each claim


class ClaimContents:
    """A key equal for claims that ask for the same thing, so that what is learnt about one (where it
    does not fit) serves the others: the claims of one template share their spec object, and named
    claims written alike (a ResourceClaim per workload) share its text."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[model.ResourceClaimSpec, str]] = {}

    def __call__(self, spec: model.ResourceClaimSpec) -> str:
        known = self._known.get(id(spec))
        if known is None:
            known = self._known[id(spec)] = (spec, repr(spec))  # the spec is kept so that its id stays its own
        return known[1]


# Allocator errors that do not abort the pod's scheduling: upstream's ErrFailedAllocationOnNode, and
# dralint's own search limits (what a search that ran out of steps would have found is unknown).
_NODE_ONLY = frozenset({Cause.INVALID_POOLS, Cause.SEARCH_BUDGET, Cause.DRY_RUN_BUDGET})

# The API server's cap on the consumers of one claim (ResourceClaimReservedForMaxSize; 32 in 1.31).
RESERVED_FOR_MAX = 256


def simulate(
    pods: Sequence[Pod],
    nodes: Sequence[NodeEntry],
    allocate: Allocate,
    commit: Callable[[Sequence[model.AllocationResult]], None],
    release: Callable[[Sequence[model.AllocationResult]], None],
    *,
    preallocated: Mapping[tuple[str, str], model.AllocationResult] | None = None,
    preconsumers: Mapping[tuple[str, str], int] | None = None,
    strategy: Strategy = "pack",
    reserved_for: int = RESERVED_FOR_MAX,
    placed: PlacedPods | None = None,
    explain: bool = True,
    skip: Skip | None = None,
    admit: Admit | None = None,
) -> Simulation:
    """Place ``pods`` in order; ``commit`` is told about every allocation that was made, ``release``
    about those taken back (a gang that does not run).

    ``placed`` applies the filters that depend on earlier pods (resources, pod affinity, spread).
    Without ``explain``, a pod whose claims fit no node is only marked so (no reason, no
    candidates): what a caller that only counts the placed pods needs, at a fraction of the cost.
    ``admit`` says why the claims kube-scheduler makes itself are refused. ``skip`` passes over nodes
    where the claims certainly do not fit, without asking ``allocate`` (until a gang's allocations
    are taken back: it relies on allocations only accumulating).
    """
    run = _Run(
        nodes, allocate, commit, release, strategy, reserved_for, placed or PlacedPods(nodes), explain, admit, skip
    )
    run.result.allocated.update(preallocated or {})
    run.result.consumers.update(preconsumers or {})
    placed_count = 0
    gang_pods = gangs.members(pods)
    decided: dict[int, Placement] = {}  # the placements of gangs' pods, by id of the pod
    for pod in pods:
        placement = decided.pop(id(pod), None)
        if placement is None and pod.gang is not None:
            for result in run.place_gang(pod.gang, gang_pods[pod.gang.key]):
                decided[id(result.pod)] = result
            placement = decided.pop(id(pod))
        elif placement is None:
            placement = run.place(pod)
        # A rejected pod is one whose claims the API server refuses: listed even when none of its
        # claim entries could be read (simulate shows why it has no place). A pod asking for extended
        # resources needs devices too (a device plugin's or, through a DeviceClass, DRA's).
        needs_devices = pod.claims or pod.rejected is not None or run.placed.extended(pod)
        (run.result.placements if needs_devices else run.result.others).append(placement)
        if placement.outcome == "placed":
            placed_count += 1
            progress.update(pods=placed_count)
    return run.result


def _bypassed(pod: Pod, uses: Sequence[ClaimUse]) -> str:
    """Why a pod with ``spec.nodeName`` never gets the claims it needs allocated.

    It bypasses the scheduler, and only the scheduler allocates claims (and creates the claim of
    DRA-backed extended resources); the resource claim controller merely reserves claims that are
    already allocated for such a pod, and the kubelet starts it only once every claim is.
    """
    claims = [f"{use.key[0]}/{use.key[1]}" for use in uses if use.kind != "extended"]
    parts = []
    if claims:
        plural = len(claims) > 1
        parts.append(f"claim{'s' if plural else ''} {', '.join(claims)} {'are' if plural else 'is'} never allocated")
    if any(use.kind == "extended" for use in uses):
        parts.append("its DRA-backed extended resources never get a claim")
    node = pod.template.spec.node_name
    return f"spec.nodeName {node} bypasses the scheduler, which alone allocates claims: {'; '.join(parts)}"


def _eligibility_key(pod: Pod) -> tuple[object, ...]:
    """Everything :func:`eligibility.exclusion` reads of a pod: pods that agree on it may run on the same nodes."""
    spec = pod.template.spec
    selector = tuple(sorted(spec.node_selector.items()))
    return (pod.node_name, spec.node_name, selector, spec.required_affinity, pod.tolerations)


# DynamicResources' own reason for a node ("cannot allocate all claims"), next to other filters' reasons.
_NO_ROOM = eligibility.Exclusion("claims", "has no room for the pod's claims", "have no room for the pod's claims")


def _no_node(pod: Pod, excluded: list[tuple[str, eligibility.Exclusion]]) -> Placement:
    filters = tuple(sorted({why.reason for _, why in excluded}))
    return Placement(pod, "no-node", reason=eligibility.summarise(excluded), filters=filters)


@dataclass(frozen=True, slots=True)
class _Eligible:
    indexes: list[int]  # of the nodes the pod may run on, in node order
    excluded: list[tuple[str, eligibility.Exclusion]]  # the others, with why
    members: frozenset[int]  # the indexes, for lookups


class _Run:
    def __init__(
        self,
        nodes: Sequence[NodeEntry],
        allocate: Allocate,
        commit: Callable[[Sequence[model.AllocationResult]], None],
        release: Callable[[Sequence[model.AllocationResult]], None],
        strategy: Strategy,
        reserved_for: int,
        placed: PlacedPods,
        explain: bool = True,
        admit: Admit | None = None,
        skip: Skip | None = None,
    ) -> None:
        self.nodes = nodes
        self.admit = admit
        self.release = release
        self.skip = skip
        self.index = NodeIndex([entry.node for entry in nodes])
        self.placed = placed
        self.last_node = -1  # "spread": the node used last, by any pod
        self.allocate = allocate
        self.commit = commit
        self.strategy = strategy
        self.reserved_for = reserved_for
        self.result = Simulation()
        self.explain = explain
        self._index = {entry.node.name: i for i, entry in enumerate(nodes)}
        self.eligible_cache: dict[tuple[object, ...], _Eligible] = {}
        self.candidate_cache: dict[tuple[object, ...], list[int]] = {}
        self.contents = ClaimContents()
        self.names: dict[int, tuple[list[int], tuple[str, ...]]] = {}  # see _names
        # Per pod shape: "pack" resumes at the first candidate not known to be full, "spread" at the
        # candidate after the last one used; a shape that fit nowhere fits nowhere later either.
        self.cursor: dict[tuple[object, ...], int] = {}
        self.full: set[tuple[object, ...]] = set()
        self.failed: dict[tuple[object, ...], set[int]] = {}
        self.on_node = NodeClaims(placed.allocatable)
        self.taken: dict[int, resources.Amounts] = {}  # by id of a placed pod: what its devices take (KEP-5517)
        # (node index, claims' content) -> the allocator's error for claims with an All request there
        self.failing: dict[tuple[int, object], AllocatorError | None] = {}

    def place_gang(self, gang: Gang, pods: list[Pod]) -> list[Placement]:
        """The gang's pods placed together, all kept if at least minCount fit, else none (what they took is
        taken back)."""
        waiting = gangs.waiting(gang, len(pods))
        if waiting is not None:
            return [Placement(pod, "gang", reason=waiting) for pod in pods]
        allocated, consumers, last_node = set(self.result.allocated), dict(self.result.consumers), self.last_node
        results = [self.place(pod) for pod in pods]
        placed = [r for r in results if r.outcome == "placed"]
        if len(placed) >= gang.min_count:
            return results
        self.skip = None  # allocations are taken back: a node the screen found full may take pods again
        for placement in placed:
            self.release([a for use, a in placement.allocations if use.key not in allocated])
            if self.admit is not None:
                self.admit.give_back(placement.pod)
            self.placed.remove(
                placement.pod, self._index[placement.node or ""], self.taken.pop(id(placement.pod), None)
            )
        for key in set(self.result.allocated) - allocated:
            del self.result.allocated[key]
        self.result.consumers.clear()
        self.result.consumers.update(consumers)
        self.last_node = last_node
        # What was known full may have room again.
        self.cursor.clear()
        self.full.clear()
        self.failed.clear()
        self.candidate_cache.clear()
        first = next(r for r in results if r.outcome != "placed")
        reason = gangs.too_few(gang, len(placed), len(pods), f"{first.pod.display}: {first.outcome}: {first.reason}")
        return [Placement(r.pod, "gang", reason=reason, attempted=r.attempted) for r in results]

    def place(self, pod: Pod) -> Placement:
        if pod.rejected is not None:
            return Placement(pod, "rejected", reason=pod.rejected)
        if pod.quota is not None:
            return Placement(pod, "quota", reason=pod.quota.reason)
        missing = [use.missing for use in pod.claims if use.missing]
        if missing:
            return Placement(pod, "missing-claim", reason=missing[0])
        unavailable = self.placed.missing(pod)
        if unavailable:
            names = ", ".join(unavailable)
            one = len(unavailable) == 1
            reason = f"no Node advertises {names} and no DeviceClass backs {'it' if one else 'them'}"
            return Placement(pod, "no-resource", reason=reason, filters=("resources",), unavailable=unavailable)
        eligible = self._eligible(pod)
        if not eligible.indexes:
            return _no_node(pod, eligible.excluded)
        reused: list[tuple[ClaimUse, model.AllocationResult]] = []
        to_allocate: list[ClaimUse] = []
        for use in pod.claims:
            if not use.allocatable:
                continue
            existing = self._existing(use)
            if existing is None:
                to_allocate.append(use)
                continue
            # (a PodGroup's claim is reserved for the group, not for each of its pods)
            if use.kind == "claim" and self.result.consumers.get(use.key, 0) >= self.reserved_for:
                return Placement(
                    pod,
                    "claim-consumers",
                    reason=f"claim {use.key[0]}/{use.key[1]} is already reserved by {self.reserved_for} pods",
                )
            reused.append((use, existing))
        shared = self._mapped_and_shared(pod, reused)
        if shared is not None:
            return Placement(
                pod,
                "claim-consumers",
                reason=f"claim {shared} has a device mapped to node resources and cannot be shared by pods",
            )
        candidates = self._candidates(pod, eligible, reused)
        if not candidates:
            names = ", ".join(f"{u.key[0]}/{u.key[1]}" for u, _ in reused)
            return Placement(
                pod,
                "claim-elsewhere",
                reason=f"the allocation of claim {names} is not usable on any node the pod may run on",
            )
        if pod.template.spec.node_name and to_allocate:
            return Placement(pod, "bypassed", reason=_bypassed(pod, to_allocate), attempted=tuple(to_allocate))
        # What decides where the pod's claims fit: the nodes it may run on and the claims' content
        # and namespace, not the workload. Keyed by template, every new workload rescanned the
        # nodes its predecessors had filled: quadratic in workloads.
        shape = (
            _eligibility_key(pod),
            tuple((self.contents(u.claim.spec), u.claim.namespace) for u in to_allocate if u.claim is not None),
            tuple(u.key for u, _ in reused),
        )
        check = self.placed.prepare(pod)
        elsewhere = self._error_on_any(shape[1], to_allocate, candidates, check)
        if elsewhere is not None:
            node_name, failure = elsewhere
            return Placement(
                pod,
                "error",
                reason=failure.message,
                failure=failure,
                candidates=(node_name,),
                attempted=tuple(to_allocate),
            )
        # The node screen judges the claims as a whole: not when an extended-resource claim varies by node.
        screened = (
            [u.claim for u in to_allocate if u.claim is not None]
            if check is None and to_allocate and all(u.kind != "extended" for u in to_allocate)
            else None
        )
        # The cursor and the failed positions only ever skip nodes where the claims did not fit;
        # a node another pod's filter excluded may take a later pod of the same shape. (Nodes a
        # filter excludes are not tried: skipping the others is left to the loop then.)
        filtered: int | None = None  # the first position a filter excluded
        short: str | None = None  # a node the pod's devices took too much of (KEP-5517), and why
        for position in self._positions(shape, candidates, screened):
            index = candidates[position]
            if check is not None and check(index) is not None:
                filtered = position if filtered is None else filtered
                continue
            node = self.nodes[index].node
            here = self.on_node(index, to_allocate)
            if not here:
                taken = self._device_resources(pod, index, reused, (), ())
                if isinstance(taken, str):
                    short = short or taken
                    filtered = position if filtered is None else filtered
                    continue
                return self._placed(pod, index, reused, (), (), taken)
            attempt = self.allocate(node, [u.claim for u in here if u.claim is not None])
            if attempt.error is not None and not attempt.failed_on_node:
                return Placement(
                    pod,
                    "error",
                    reason=attempt.error,
                    failure=attempt.failure,
                    candidates=(node.name,),
                    attempted=tuple(to_allocate),
                )
            if attempt.results is None:
                self.failed.setdefault(shape, set()).add(position)
                continue
            taken = self._device_resources(pod, index, reused, here, attempt.results)
            if isinstance(taken, str):  # depends on the pods placed before, like a filter
                short = short or taken
                filtered = position if filtered is None else filtered
                continue
            refusal = self.admit(pod, here) if self.admit is not None else None
            if refusal is not None:
                return Placement(pod, "quota", reason=refusal, candidates=(node.name,), attempted=tuple(here))
            if self.strategy == "pack":
                self.cursor[shape] = position if filtered is None else min(position, filtered)
            return self._placed(pod, index, reused, here, attempt.results, taken)
        if self.strategy == "pack":
            self.cursor[shape] = len(candidates) if filtered is None else filtered
        elif filtered is None:
            self.full.add(shape)
        if not self.explain:
            return Placement(pod, "unsatisfiable", attempted=tuple(to_allocate))
        passing, filtered_out = self._split(check, candidates)
        if not passing:  # (a node that passes and was not tried is one the claims did not fit on before)
            return _no_node(pod, [*eligible.excluded, *filtered_out])
        if check is not None and self._fits_on_any(
            to_allocate, [i for i in candidates if (why := check(i)) is not None and why.reason == "resources"]
        ):
            # The claims fit where NodeResourcesFit keeps the pod away: the node's CPU, memory or pods
            # (named with their numbers), not its devices, leave the pod pending.
            no_room = [(self.nodes[i].node.name, _NO_ROOM) for i in passing]
            return _no_node(pod, [*eligible.excluded, *filtered_out, *no_room])
        count = len(passing)
        where = "the only node" if count == 1 else f"any of the {count} nodes"
        narrowed = tuple(sorted({why.reason for _, why in filtered_out}))
        nodes = self._names(passing) if passing is candidates else tuple(self.nodes[i].node.name for i in passing)
        also = f"; on {short}" if short is not None else ""
        return Placement(
            pod,
            "unsatisfiable",
            reason=f"the claims cannot be allocated on {where} the pod may run on{also}",
            candidates=nodes,
            attempted=tuple(to_allocate),
            filters=narrowed,
        )

    def _error_on_any(
        self, contents: tuple[object, ...], uses: Sequence[ClaimUse], candidates: list[int], check: Check | None
    ) -> tuple[str, AllocatorError] | None:
        """The first node (that passes the other filters) where the allocator fails for claims with an
        ``allocationMode: All`` request, and its error.

        kube-scheduler runs DynamicResources' Filter on every feasible node (all of them below 100
        nodes), and an error on any one aborts the pod's scheduling cycle, although another node
        fits. Only an All request fails on one node and not on another before any device is
        chosen (an incomplete or invalid pool that node sees, a selector failing on one of its
        devices), independently of what is allocated: whether a node fails is known once per
        node and claims' content.
        """
        claims = [u.claim for u in uses if u.claim is not None]
        if not any(part.spec.allocation_mode == "All" for c in claims for r in c.spec.requests for part in r.parts()):
            return None
        for index in candidates:
            key = (index, contents)
            if key not in self.failing:
                failure = self.allocate(self.nodes[index].node, claims).failure
                aborts = failure is not None and failure.cause not in _NODE_ONLY
                self.failing[key] = failure if aborts else None
            failure = self.failing[key]
            if failure is not None and (check is None or check(index) is None):
                return self.nodes[index].node.name, failure
        return None

    def _fits_on_any(self, uses: Sequence[ClaimUse], indexes: Sequence[int]) -> bool:
        """Whether the claims could be allocated now on one of the nodes (that a filter excluded)."""
        claims = [u.claim for u in uses if u.claim is not None]
        return any(self.allocate(self.nodes[i].node, claims).results is not None for i in indexes)

    def _names(self, indexes: list[int]) -> tuple[str, ...]:
        """The names of the nodes of a cached candidate list: one tuple, which every unplaced pod of a
        shape shares (naming 10,000 nodes per unplaced pod made failures quadratic)."""
        known = self.names.get(id(indexes))
        if known is None or known[0] is not indexes:
            known = self.names[id(indexes)] = (indexes, tuple(self.nodes[i].node.name for i in indexes))
        return known[1]

    def _split(
        self, check: Check | None, candidates: list[int]
    ) -> tuple[list[int], list[tuple[str, eligibility.Exclusion]]]:
        """The candidates the filters that depend on earlier pods let through, and those they exclude with why."""
        if check is None:
            return candidates, []
        passing: list[int] = []
        excluded: list[tuple[str, eligibility.Exclusion]] = []
        for index in candidates:
            why = check(index)
            if why is None:
                passing.append(index)
            else:
                excluded.append((self.nodes[index].node.name, why))
        return passing, excluded

    def _mapped_and_shared(self, pod: Pod, reused: list[tuple[ClaimUse, model.AllocationResult]]) -> str | None:
        """``validateNodeAllocatableDRAClaimSharing``: a ResourceClaim already reserved by a pod whose
        devices map node resources (not only overheads) is not shared; its name, or ``None``."""
        devices = self.placed.node_allocatable
        if devices is None:
            return None
        for use, allocation in reused:
            if not use.shared or self.result.consumers.get(use.key, 0) == 0:
                continue
            status = nodealloc.claim_status(use.entry.name, allocation, devices, pod.template.spec)
            if status is not None and status.mapped:
                return f"{use.key[0]}/{use.key[1]}"
        return None

    def _device_resources(
        self,
        pod: Pod,
        index: int,
        reused: list[tuple[ClaimUse, model.AllocationResult]],
        allocated: Sequence[ClaimUse],
        results: Sequence[model.AllocationResult],
    ) -> resources.Amounts | str:
        """What the pod's devices take from node ``index`` (KEP-5517), or why the node cannot give it."""
        devices = self.placed.node_allocatable
        if devices is None:
            return {}
        spec = pod.template.spec
        pairs = [*reused, *zip(allocated, results, strict=True)]
        statuses = [
            status
            for use, allocation in pairs
            if (status := nodealloc.claim_status(use.entry.name, allocation, devices, spec)) is not None
        ]
        taken = nodealloc.pod_demand(statuses)
        why = self.placed.devices_fit(pod, index, taken)
        return taken if why is None else f"{self.nodes[index].node.name}: {why.detail}"

    def _placed(
        self,
        pod: Pod,
        index: int,
        reused: list[tuple[ClaimUse, model.AllocationResult]],
        allocated: Sequence[ClaimUse],
        results: Sequence[model.AllocationResult],
        taken: resources.Amounts | None = None,
    ) -> Placement:
        self.commit(results)
        self.placed.add(pod, index, taken)
        if taken:
            self.taken[id(pod)] = taken
        self.last_node = index
        pairs = list(reused)
        for use, result in zip(allocated, results, strict=True):
            self.result.allocated[use.key] = result
            pairs.append((use, result))
        for use, _ in pairs:  # (an extended-resource claim device plugins made needless is not made)
            self.result.consumers[use.key] = self.result.consumers.get(use.key, 0) + 1
        pairs.sort(key=lambda pair: pair[0].entry_index if pair[0].entry_index >= 0 else len(pod.claims))
        return Placement(pod, "placed", self.nodes[index].node.name, tuple(pairs))

    def _existing(self, use: ClaimUse) -> model.AllocationResult | None:
        if use.claim is None:
            return None
        if use.claim.allocation is not None:
            return use.claim.allocation
        return self.result.allocated.get(use.key) if use.shared else None

    def _eligible(self, pod: Pod) -> _Eligible:
        """The nodes the pod's own fields admit (cached per distinct set of those fields: they never change)."""
        key = _eligibility_key(pod)
        cached = self.eligible_cache.get(key)
        if cached is not None:
            return cached
        spec = pod.template.spec
        indexes: list[int] = []
        excluded: list[tuple[str, eligibility.Exclusion]] = []
        for i, entry in enumerate(self.nodes):
            if pod.node_name and entry.node.name != pod.node_name:
                excluded.append(
                    (entry.node.name, eligibility.Exclusion("node name", f"the pod is bound to node {pod.node_name}"))
                )
                continue
            why = eligibility.exclusion(entry.node, spec, pod.tolerations, labels_known=entry.origin is not None)
            if why is None:
                indexes.append(i)
            else:
                excluded.append((entry.node.name, why))
        result = self.eligible_cache[key] = _Eligible(indexes, excluded, frozenset(indexes))
        return result

    def _candidates(
        self, pod: Pod, eligible: _Eligible, reused: list[tuple[ClaimUse, model.AllocationResult]]
    ) -> list[int]:
        """Eligible nodes where every reused allocation is usable (cached: allocations never change).

        Found through the node index: an allocation usable on one node is tested against that
        node, not against every eligible one.
        """
        if not reused:
            return eligible.indexes
        key = (_eligibility_key(pod), tuple(use.key for use, _ in reused))
        cached = self.candidate_cache.get(key)
        if cached is None:
            usable: set[int] | None = None
            for _, allocation in reused:
                if allocation.node_selector is not None:
                    nodes = self.index.matching(allocation.node_selector)
                    usable = set(nodes) if usable is None else usable.intersection(nodes)
            cached = eligible.indexes if usable is None else sorted(usable.intersection(eligible.members))
            self.candidate_cache[key] = cached
        return cached

    def _positions(
        self, shape: tuple[object, ...], candidates: list[int], claims: Sequence[model.ResourceClaim] | None
    ) -> Iterator[int]:
        """Positions in ``candidates`` to try: "pack" from the first not known to be full (passing over
        the nodes ``skip`` rules out for ``claims``), "spread" from the first after the node any pod was
        placed on last."""
        count = len(candidates)
        if self.strategy == "pack":
            position = self.cursor.get(shape, 0)
            skip = self.skip
            while position < count:
                if skip is not None and claims is not None:
                    position = skip(claims, candidates, position)
                    if position >= count:
                        return
                yield position
                position += 1
        elif shape not in self.full:
            start = bisect.bisect_right(candidates, self.last_node) % count
            failed = self.failed.get(shape, set())
            for k in range(count):
                position = (start + k) % count
                if position not in failed:
                    yield position
