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
from dralint.api import model
from dralint.cel import Environment
from dralint.dataclass import dataclass
from dralint.dryrun import carry, screen, shapes
from dralint.dryrun.learnt import Learnt
from dralint.dryrun.placement import Attempt, ClaimContents
from dralint.dryrun.skip import ClaimsShape, Ledger, Skipper

PoolKey = tuple[str, str]  # (driver, pool name)
_HOLDER = model.ObjectMeta(name="allocated")
_NOTHING = Attempt(None)
# Errors of the allocator's validation phase, which depends on the claims only (not on the node)
_CLAIM_ERRORS = frozenset({Cause.CLAIM, Cause.MISSING_CLASS})


@dataclass(slots=True)
class SearchBudget:
    """dralint's bounds on the allocator's search (``limits.maxSearchSteps``, ``limits.maxDryRunSteps``).

    Shared by the clusters of one dry-run, so that the whole of it stops after ``total`` steps.
    """

    per_attempt: int = DEFAULT_SEARCH_BUDGET
    total: int | None = None
    used: int = 0
    stopped: Attempt | None = None  # what every attempt gets once ``total`` is spent (made once: thousands follow)

    @property
    def spent(self) -> bool:
        return self.total is not None and self.used >= self.total

    def stop(self) -> Attempt:
        """The attempt of a search the whole dry-run's budget stops."""
        if self.stopped is None:
            error = AllocatorError(
                f"dry-run budget exhausted after {self.total} search steps", cause=Cause.DRY_RUN_BUDGET
            )
            self.stopped = Attempt(None, error)
        return self.stopped


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
        learnt: Learnt | None = None,
    ) -> None:
        """``contents`` interns slice contents for the node shapes; clusters over the same slices share it.
        ``release``: where the target release's allocator differs from the newest. ``learnt``: another
        cluster's memos, shared when that cluster has the same inputs (see :mod:`dralint.dryrun.learnt`)."""
        self.slices = list(slices)
        self.classes = classes
        self.features = features
        self.release = release
        self.cel_environment = cel_environment
        if learnt is None or not learnt.serves(self.slices, classes, features, release, cel_environment, contents):
            learnt = Learnt(self.slices, classes, features, release, cel_environment, contents)
        self.learnt = learnt
        self._selectors = learnt.selectors
        if budget is None or isinstance(budget, int):
            budget = SearchBudget(per_attempt=budget if budget is not None else DEFAULT_SEARCH_BUDGET)
        self.budget = budget
        self._version = 0  # bumped by every add(): searches before and after differ
        self._gave_up: dict[tuple[object, ...], Attempt] = {}
        # by node shape and claims shape, or for explanations that name a pool by node, version and claims shape
        self._explained: dict[tuple[object, ...], tuple[tuple[str, ...], Explanation]] = {}
        self._contents = ClaimContents()
        self._last_claims: tuple[Sequence[model.ResourceClaim], ClaimsShape] | None = None
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
        # The node whose view alone holds each pool (all its slices name it); None for a pool other
        # nodes see too. An allocation changes the shape of that node only, else of any node.
        self._owner: dict[PoolKey, str | None] = {}
        for key, pool_slices in self._pools.items():
            names = {s.node_name or None for s in pool_slices}
            self._owner[key] = names.pop() if len(names) == 1 and None not in names else None
        self._node_changes: dict[str, int] = {}
        self._shared_changes = 0
        self._shapes: dict[str, tuple[model.Node, tuple[int, int], tuple[int, ...]]] = {}  # see _shape_of
        self._view: dict[str, tuple[list[PoolKey], list[model.ResourceSlice]]] = {}
        # allocation results per pool, each kept as a claim so prepare.allocated_state can read it
        self._held: dict[PoolKey, list[model.DeviceRequestAllocationResult]] = {}
        # Node shapes (see dryrun.shapes): per pool, what is allocated in it, interned (dropped when an
        # allocation changes it). Shared with the clusters over the same inputs (see dryrun.learnt): per
        # node, its view's shape and its pools' stand-in names; and per node shape and claims' contents,
        # the searches that found nothing (their steps) or devices (dryrun.carry).
        self.contents = learnt.contents
        self._pool_states: dict[PoolKey, int] = {}
        self._static = learnt.static
        self._shape_ids = learnt.shape_ids
        self._state_ids = learnt.state_ids
        self._unsatisfiable = learnt.unsatisfiable
        self._fitted = learnt.fitted
        self._specs = learnt.specs
        self._ranks = learnt.ranks
        self._states = learnt.states
        self._screening = learnt.screening
        self._validated = learnt.validated
        # The searches of this version that ended without a result, also those a Skipper passed over.
        self.ledger = Ledger()

    def add(self, allocations: Iterable[model.AllocationResult]) -> None:
        """Record allocations: their devices, shares and capacity are taken from now on."""
        self._new_version()
        for allocation in allocations:
            for result in allocation.results:
                key = (result.driver, result.pool)
                self._held.setdefault(key, []).append(result)
                self._pool_changed(key)

    def remove(self, allocations: Iterable[model.AllocationResult]) -> None:
        """Take back allocations :meth:`add` recorded (those of a gang that could not be placed whole)."""
        self._new_version()
        for allocation in allocations:
            for result in allocation.results:
                key = (result.driver, result.pool)
                held = self._held.get(key, [])
                at = next((i for i, r in enumerate(held) if r is result), None)
                if at is not None:
                    del held[at]
                self._pool_changed(key)

    def _new_version(self) -> None:
        self._version += 1
        # What was learnt at the previous version is never looked up again (the version is in the keys)
        self._gave_up.clear()
        self.ledger.clear()

    def _pool_changed(self, key: tuple[str, str]) -> None:
        """Forget the pool's state; node shapes are kept until one of their pools changes."""
        self._pool_states.pop(key, None)
        owner = self._owner.get(key)
        if owner is None:
            self._shared_changes += 1
        else:
            self._node_changes[owner] = self._node_changes.get(owner, 0) + 1

    def attempt(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Attempt:
        """Allocate ``claims`` together on ``node`` against the current allocations (nothing is recorded).

        Searches are bounded by the budget. A search that ran out of steps is not run again for
        claims of the same template on the same node until an allocation changes the cluster
        (the replicas of a Deployment would each give up the same way).
        """
        budget = self.budget
        claims_shape = self.claims_shape(claims)
        key = (node.name, self._version, claims_shape)
        known = self._gave_up.get(key)
        if known is not None:
            return known
        if self.ledger.covered(claims_shape, node.name):
            return _NOTHING
        steps = budget.per_attempt
        if budget.total is not None:
            if budget.used >= budget.total:
                return budget.stop()
            steps = min(steps, budget.total - budget.used)
        # A node where the search certainly picks nothing for the first request (dryrun.screen):
        # the search would end after as many steps, with no result.
        first = self.first_request(claims_shape, claims)
        if first is not None and first.steps <= steps and self.dead(first, node):
            budget.used += first.steps
            return self._give_up(key, Attempt(None))
        # A node of a shape where claims of this shape found no devices: the search would end the
        # same way after as many steps (when the budget left allows as many: else it runs out).
        # Where they found devices, the same devices of this node (dryrun.carry).
        shaped = (self._node_shape(node), self._specs_of(claims_shape))
        needed = self._unsatisfiable.get(shaped)
        if needed is not None and needed <= steps:
            budget.used += needed
            attempt = self._gave_up[key] = Attempt(None)
            return attempt
        fitted = self._fitted.get(shaped)
        if fitted is not None and fitted.steps <= steps:
            budget.used += fitted.steps
            return Attempt(carry.carry(fitted, node.name, claims, self._pools_by_rank(node.name)[1]))
        allocator = self._allocator(node, steps)
        try:
            results = allocator.allocate(node, claims)
        except SearchBudgetExhausted as error:
            self._validated.add(claims_shape)
            if steps < budget.per_attempt:
                return budget.stop()
            return self._give_up(key, Attempt(None, error))
        except AllocatorError as error:
            if error.cause not in _CLAIM_ERRORS:
                self._validated.add(claims_shape)
            return Attempt(None, error)
        finally:
            budget.used += allocator.last_steps
        self._validated.add(claims_shape)
        if results is None:
            # Unsatisfiable depends only on the claims' specs and what is allocated: the next pod
            # of the same shape (any workload using the same template) fails the same way until
            # an allocation changes the cluster, and so do claims alike in other namespaces on
            # nodes of the same shape.
            attempt = self._give_up(key, Attempt(None))
            self._unsatisfiable[shaped] = allocator.last_steps
            return attempt
        found = tuple(results)
        ranks = self._pools_by_rank(node.name)[0]
        self._fitted[shaped] = carry.fitted(node.name, claims, found, ranks, allocator.last_steps)
        return Attempt(found)

    def _give_up(self, key: tuple[str, int, ClaimsShape], attempt: Attempt) -> Attempt:
        """Remember, for this version, a search that ended without a result."""
        self._gave_up[key] = attempt
        self.ledger.note(key[2], key[0])
        return attempt

    def first_request(
        self, claims_shape: ClaimsShape, claims: Sequence[model.ResourceClaim]
    ) -> screen.FirstRequest | None:
        """The first request of ``claims`` (see :mod:`dralint.dryrun.screen`), once its claims have passed
        the allocator's validation (which depends on them alone); ``None`` until then, or when the
        screen cannot judge it."""
        if claims_shape not in self._validated:
            return None
        return self._screening.first_request(claims_shape, claims)

    def dead(self, first: screen.FirstRequest, node: model.Node) -> bool:
        """Whether the search on ``node`` certainly picks no device for ``first``, as allocated now."""
        shape = self._shape_of(node)  # (not _node_shape: the tests that do without node shapes replace it)
        return self._screening.dead(first, shape, self._states, lambda: (*self._view_of(node.name), node))

    def screen(self, nodes: Sequence[model.Node]) -> Skipper:
        """What the dry-run's placement loop skips nodes with, for a run over ``nodes`` (in that order)."""
        self.ledger.index = {node.name: i for i, node in enumerate(nodes)}
        return Skipper(self, nodes)

    def explain(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Explanation:
        """Why ``claims`` do not fit on ``node``, per request (see :mod:`dralint.allocator.explain`).

        Claims of the same shape (the same specs in the same namespaces) get the same explanation
        with their own names, so the pods of many workloads of one template are explained once;
        and so do nodes of the same shape (dryrun.shapes), unless the explanation names a pool.
        """
        claims_shape = self.claims_shape(claims)
        shaped = (self._shape_of(node), claims_shape)
        named = (node.name, self._version, claims_shape)
        known = self._explained.get(shaped) or self._explained.get(named)
        if known is not None:
            before, explanation = known
            names = {old: claim_ref(claim) for old, claim in zip(before, claims, strict=True)}
            requests = tuple(dataclasses.replace(r, claim=names[r.claim]) for r in explanation.requests)
            return dataclasses.replace(explanation, node=node.name, requests=requests)
        explanation = self._allocator(node, self.budget.per_attempt).explain(node, claims)
        refs = tuple(claim_ref(claim) for claim in claims)
        if len(set(refs)) == len(refs) and all(r.error is None for r in explanation.requests):
            # (errors name the claim and device: not reusable)
            self._explained[named if explanation.pools else shaped] = (refs, explanation)
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
        return self._shape_of(node)

    def _shape_of(self, node: model.Node) -> tuple[int, ...]:
        name = node.name
        stamp = (self._node_changes.get(name, 0), self._shared_changes)
        cached = self._shapes.get(name)
        if cached is not None and cached[1] == stamp and cached[0] is node:
            return cached[2]
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
                if state == len(self._states):
                    self._states.append(found)
            states.append(state)
        shape = tuple(states)
        self._shapes[name] = (node, stamp, shape)
        return shape

    def _specs_of(self, claims_shape: ClaimsShape) -> tuple[str, ...]:
        """The claims' contents without their namespaces: the allocator reads a claim's namespace only to name
        it (in errors, which are not carried between nodes, and in share IDs, which dryrun.carry rewrites)."""
        known = self._specs.get(claims_shape)
        if known is None:
            known = self._specs[claims_shape] = tuple(content for content, _ in claims_shape)
        return known

    def _pools_by_rank(self, node_name: str) -> tuple[dict[PoolKey, carry.Rank], dict[carry.Rank, str]]:
        """The pools of the node's view with what stands for their names in its shape, both ways."""
        known = self._ranks.get(node_name)
        if known is None:
            ranks = {key: (key[0], rank) for key, rank in shapes.pool_ranks(self._view_of(node_name)[0]).items()}
            known = self._ranks[node_name] = (ranks, {rank: key[1] for key, rank in ranks.items()})
        return known

    def claims_shape(self, claims: Sequence[model.ResourceClaim]) -> ClaimsShape:
        """What an attempt's outcome depends on besides the node and the allocations: the claims'
        content and namespaces (the claims of many workloads often ask for the same).

        Callers try one list of claims on node after node: the last list's shape is kept."""
        last = self._last_claims
        if last is not None and last[0] is claims:
            return last[1]
        shape = tuple((self._contents(c.spec), c.meta.namespace) for c in claims)
        self._last_claims = (claims, shape)
        return shape

    def slices_seen_by(self, node_name: str) -> list[model.ResourceSlice]:
        """The slices of the pools a pod on ``node_name`` may get devices from, in input order (the
        node's own pools and those of no one node; each slice's node selection still applies)."""
        return self._view_of(node_name)[1]

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
