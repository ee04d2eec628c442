"""The allocator's view of the cluster during the dry-run: slices, classes, and what is allocated so far.

The scheduler builds one allocator per pod over every slice of the cluster. Here each attempt
(one pod on one node) gets an allocator over only the slices of the pools that node can see —
every slice of each pool with a slice on the node or without a node, so pool completeness is
judged as upstream does — and an allocated state restricted to those pools. Decisions are the
same; the cost of an attempt no longer grows with the size of the cluster.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from dralint.allocator import (
    DEFAULT_SEARCH_BUDGET,
    NEWEST,
    Allocator,
    AllocatorError,
    Cause,
    Explanation,
    Features,
    Release,
    SearchBudgetExhausted,
)
from dralint.allocator.prepare import allocated_state
from dralint.allocator.requests import claim_ref
from dralint.allocator.selection import SelectorCache
from dralint.api import model
from dralint.cel import Environment
from dralint.dataclass import dataclass
from dralint.dryrun import shapes
from dralint.dryrun.placement import Attempt, ClaimContents

PoolKey = tuple[str, str]  # (driver, pool name)
_HOLDER = model.ObjectMeta(name="allocated")


@dataclass(slots=True)
class SearchBudget:
    """dralint's bounds on the allocator's search (``limits.maxSearchSteps``, ``limits.maxDryRunSteps``).

    Shared by the clusters of one dry-run, so that the whole of it stops after ``total`` steps.
    """

    per_attempt: int = DEFAULT_SEARCH_BUDGET
    total: int | None = None
    used: int = 0

    def exhausted(self) -> AllocatorError:
        return AllocatorError(f"dry-run budget exhausted after {self.total} search steps", cause=Cause.DRY_RUN_BUDGET)


class Cluster:
    """Slices and classes of the inventory plus the allocations made so far (mutable)."""

    def __init__(
        self,
        slices: Sequence[model.ResourceSlice],
        classes: Mapping[str, model.DeviceClass],
        features: Features,
        *,
        cel_environment: Environment | None = None,
        budget: int | SearchBudget | None = None,
        contents: shapes.SliceContents | None = None,
        release: Release = NEWEST,
    ) -> None:
        """``contents`` interns slice contents for the node shapes; clusters over the same slices share it.
        ``release``: where the target release's allocator differs from the newest."""
        self.slices = list(slices)
        self.classes = classes
        self.features = features
        self.release = release
        self.cel_environment = cel_environment
        # One CEL memo for every attempt and explanation: a selector runs once per device per
        # run, not once per pod and node (the slices never change, only what is allocated).
        self._selectors = SelectorCache(cel_environment)
        if budget is None or isinstance(budget, int):
            budget = SearchBudget(per_attempt=budget if budget is not None else DEFAULT_SEARCH_BUDGET)
        self.budget = budget
        self._version = 0  # bumped by every add(): searches before and after differ
        self._gave_up: dict[tuple[object, ...], Attempt] = {}
        self._explained: dict[tuple[object, ...], tuple[tuple[str, ...], Explanation]] = {}
        self._contents = ClaimContents()
        self._pools: dict[PoolKey, list[model.ResourceSlice]] = {}
        self._order = {id(s): i for i, s in enumerate(self.slices)}
        local: dict[str, list[PoolKey]] = {}
        shared: list[PoolKey] = []
        for resource_slice in self.slices:
            key = (resource_slice.driver, resource_slice.pool.name)
            if key not in self._pools:
                self._pools[key] = []
            self._pools[key].append(resource_slice)
            if resource_slice.node_name:
                keys = local.setdefault(resource_slice.node_name, [])
                if key not in keys:
                    keys.append(key)
            elif key not in shared:
                shared.append(key)
        self._local = local
        self._shared = shared
        self._view: dict[str, tuple[list[PoolKey], list[model.ResourceSlice]]] = {}
        # allocation results per pool, each kept as a claim so prepare.allocated_state can read it
        self._held: dict[PoolKey, list[model.DeviceRequestAllocationResult]] = {}
        # Node shapes (see dryrun.shapes): per node, its view's shape and its pools' stand-in names;
        # per pool, what is allocated in it (dropped when an allocation changes it); and the steps
        # of every search that ended without a result, per node shape and claims shape.
        self.contents = contents if contents is not None else shapes.SliceContents()
        self._static: dict[str, tuple[model.Node, int]] = {}
        self._pool_states: dict[PoolKey, int] = {}
        self._shape_ids: dict[object, int] = {}  # static shapes, interned
        self._state_ids: dict[object, int] = {}  # pool states, interned
        self._unsatisfiable: dict[tuple[object, ...], int] = {}

    def add(self, allocations: Iterable[model.AllocationResult]) -> None:
        """Record allocations: their devices, shares and capacity are taken from now on."""
        self._version += 1
        for allocation in allocations:
            for result in allocation.results:
                key = (result.driver, result.pool)
                self._held.setdefault(key, []).append(result)
                self._pool_states.pop(key, None)

    def remove(self, allocations: Iterable[model.AllocationResult]) -> None:
        """Take back allocations :meth:`add` recorded (those of a gang that could not be placed whole)."""
        self._version += 1
        for allocation in allocations:
            for result in allocation.results:
                key = (result.driver, result.pool)
                held = self._held.get(key, [])
                at = next((i for i, r in enumerate(held) if r is result), None)
                if at is not None:
                    del held[at]
                self._pool_states.pop(key, None)

    def attempt(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Attempt:
        """Allocate ``claims`` together on ``node`` against the current allocations (nothing is recorded).

        Searches are bounded by the budget. A search that ran out of steps is not run again for
        claims of the same template on the same node until an allocation changes the cluster
        (the replicas of a Deployment would each give up the same way).
        """
        budget = self.budget
        key = (node.name, self._version, self.claims_shape(claims))
        known = self._gave_up.get(key)
        if known is not None:
            return known
        steps = budget.per_attempt
        if budget.total is not None:
            if budget.used >= budget.total:
                return Attempt(None, budget.exhausted())
            steps = min(steps, budget.total - budget.used)
        # A node of a shape where claims of this shape found no devices: the search would end the
        # same way after as many steps (when the budget left allows as many: else it runs out).
        # The shape is worked out only once some search has found nothing.
        shaped = (self._node_shape(node), key[2]) if self._unsatisfiable else None
        needed = self._unsatisfiable.get(shaped) if shaped is not None else None
        if needed is not None and needed <= steps:
            budget.used += needed
            attempt = self._gave_up[key] = Attempt(None)
            return attempt
        allocator = self._allocator(node, steps)
        try:
            results = allocator.allocate(node, claims)
        except SearchBudgetExhausted as error:
            if steps < budget.per_attempt:
                return Attempt(None, budget.exhausted())
            attempt = self._gave_up[key] = Attempt(None, error)
            return attempt
        except AllocatorError as error:
            return Attempt(None, error)
        finally:
            budget.used += allocator.last_steps
        if results is None:
            # Unsatisfiable depends only on the claims' specs, their namespace and what is
            # allocated: the next pod of the same shape (any workload using the same template)
            # fails the same way until an allocation changes the cluster.
            attempt = self._gave_up[key] = Attempt(None)
            if shaped is None:  # the first search to find nothing
                shaped = (self._node_shape(node), key[2])
            self._unsatisfiable[shaped] = allocator.last_steps
            return attempt
        return Attempt(tuple(results))

    def explain(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Explanation:
        """Why ``claims`` do not fit on ``node``, per request (see :mod:`dralint.allocator.explain`).

        Claims of the same shape (the same specs in the same namespaces) get the same explanation
        with their own names, so the pods of many workloads of one template are explained once.
        """
        key = (node.name, self._version, self.claims_shape(claims))
        known = self._explained.get(key)
        if known is not None:
            before, explanation = known
            names = {old: claim_ref(claim) for old, claim in zip(before, claims, strict=True)}
            requests = tuple(dataclasses.replace(r, claim=names[r.claim]) for r in explanation.requests)
            return dataclasses.replace(explanation, requests=requests)
        explanation = self._allocator(node, self.budget.per_attempt).explain(node, claims)
        refs = tuple(claim_ref(claim) for claim in claims)
        if len(set(refs)) == len(refs) and all(r.error is None for r in explanation.requests):
            self._explained[key] = (refs, explanation)  # errors name the claim: not reusable
        return explanation

    def _allocator(self, node: model.Node, budget: int) -> Allocator:
        keys, slices = self._view_of(node.name)
        held = [
            model.ResourceClaim(_HOLDER, model.ResourceClaimSpec(), model.AllocationResult(tuple(self._held[key])))
            for key in keys
            if key in self._held
        ]
        state = allocated_state(held, consumable_capacity=self.features.consumable_capacity)
        return Allocator(
            self.features,
            state,
            self.classes,
            slices,
            cel_environment=self.cel_environment,
            budget=budget,
            selector_cache=self._selectors,
            release=self.release,
        )

    def _node_shape(self, node: model.Node) -> tuple[int, ...]:
        """The node's shape (:mod:`dralint.dryrun.shapes`): its view's, then what is allocated in each of
        its pools, each interned as a small integer (the shape is looked up on every attempt)."""
        known = self._static.get(node.name)
        if known is None or (known[0] is not node and known[0] != node):
            keys, slices = self._view_of(node.name)
            static = shapes.static_shape(node, keys, slices, self.contents)
            known = self._static[node.name] = (node, _intern(self._shape_ids, static))
        states = [known[1]]
        for key in self._view_of(node.name)[0]:
            state = self._pool_states.get(key)
            if state is None:
                held = self._held.get(key, ())
                found = shapes.pool_state(held, consumable_capacity=self.features.consumable_capacity)
                state = self._pool_states[key] = _intern(self._state_ids, found)
            states.append(state)
        return tuple(states)

    def claims_shape(self, claims: Sequence[model.ResourceClaim]) -> tuple[tuple[str, str], ...]:
        """What an attempt's outcome depends on besides the node and the allocations: the claims'
        content and namespaces (the claims of many workloads often ask for the same)."""
        return tuple((self._contents(c.spec), c.meta.namespace) for c in claims)

    def _view_of(self, node_name: str) -> tuple[list[PoolKey], list[model.ResourceSlice]]:
        view = self._view.get(node_name)
        if view is None:
            local = self._local.get(node_name, [])
            keys = [*local, *(k for k in self._shared if k not in local)]
            # Slices keep their input order: the allocator's bucketing and tie-breaks depend on it.
            picked = [(self._order[id(s)], s) for key in keys for s in self._pools[key]]
            view = self._view[node_name] = (keys, [s for _, s in sorted(picked, key=lambda item: item[0])])
        return view


def _intern(ids: dict[object, int], value: object) -> int:
    found = ids.get(value)
    if found is None:
        found = ids[value] = len(ids)
    return found
