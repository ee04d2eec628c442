"""The allocator's view of the cluster during the dry-run: slices, classes, and what is allocated so far.

The scheduler builds one allocator per pod over every slice of the cluster. Here each attempt
(one pod on one node) gets an allocator over only the slices of the pools that node can see —
every slice of each pool with a slice on the node or without a node, so pool completeness is
judged as upstream does — and an allocated state restricted to those pools. Decisions are the
same; the cost of an attempt no longer grows with the size of the cluster.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from dralint.allocator import (
    DEFAULT_SEARCH_BUDGET,
    Allocator,
    AllocatorError,
    Cause,
    Explanation,
    Features,
    SearchBudgetExhausted,
)
from dralint.allocator.devices import DeviceInfo, DeviceRegistry
from dralint.allocator.prepare import allocated_state
from dralint.allocator.requests import claim_ref
from dralint.allocator.selection import SelectorCache
from dralint.allocator.types import AllocatedState
from dralint.api import model
from dralint.cel import Environment
from dralint.dataclass import dataclass
from dralint.dryrun import screen, shapes
from dralint.dryrun.placement import Attempt, ClaimContents

PoolKey = tuple[str, str]  # (driver, pool name)
ClaimsShape = tuple[tuple[str, str], ...]  # see Cluster.claims_shape
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
    ) -> None:
        """``contents`` interns slice contents for the node shapes; clusters over the same slices share it."""
        self.slices = list(slices)
        self.classes = classes
        self.features = features
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
        self._states: list[screen.PoolState] = []  # pool states by interned id
        # What dryrun.screen needs: per claims shape its first request and whether the claims
        # passed the allocator's validation once (nothing is skipped before); per static shape the
        # devices the search tries; per first request and static shape those it may pick; per
        # first request and node shape whether one of them is free.
        self._firsts: dict[ClaimsShape, screen.FirstRequest | None] = {}
        self._validated: set[ClaimsShape] = set()
        self._devices: dict[int, list[tuple[int, DeviceInfo]] | None] = {}
        self._found: dict[tuple[object, int], list[screen.Candidate] | None] = {}
        self._alive: dict[tuple[object, tuple[int, ...]], bool] = {}
        self._consumed: dict[int, dict[str, dict[str, int]]] = {}
        # The searches of this version that ended without a result, per claims shape: node by node
        # (also in _gave_up) and in ranges of candidates a Screen skipped. A search repeated at the
        # same version costs nothing, as before.
        self._charged: dict[ClaimsShape, list[str]] = {}
        self._ranges: dict[ClaimsShape, list[tuple[Sequence[int], int, int]]] = {}
        self._screen: Screen | None = None

    def add(self, allocations: Iterable[model.AllocationResult]) -> None:
        """Record allocations: their devices, shares and capacity are taken from now on."""
        self._version += 1
        # What was learnt at the previous version is never looked up again (the version is in the keys)
        self._gave_up.clear()
        self._explained.clear()
        self._charged.clear()
        self._ranges.clear()
        for allocation in allocations:
            for result in allocation.results:
                key = (result.driver, result.pool)
                self._held.setdefault(key, []).append(result)
                self._pool_states.pop(key, None)

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
        ranges = self._ranges.get(claims_shape)
        if ranges is not None and self._screen is not None and self._screen.covered(node.name, ranges):
            return _NOTHING
        steps = budget.per_attempt
        if budget.total is not None:
            if budget.used >= budget.total:
                return Attempt(None, budget.exhausted())
            steps = min(steps, budget.total - budget.used)
        # A node where the search certainly picks nothing for the first request (dryrun.screen):
        # the search would end after as many steps, with no result.
        first = self.first_request(claims_shape, claims)
        if first is not None and first.steps <= steps and self.dead(first, node):
            budget.used += first.steps
            return self._give_up(key, Attempt(None))
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
            self._validated.add(claims_shape)
            if steps < budget.per_attempt:
                return Attempt(None, budget.exhausted())
            return self._give_up(key, Attempt(None, error))
        except AllocatorError as error:
            if error.cause not in _CLAIM_ERRORS:
                self._validated.add(claims_shape)
            return Attempt(None, error)
        finally:
            budget.used += allocator.last_steps
        self._validated.add(claims_shape)
        if results is None:
            # Unsatisfiable depends only on the claims' specs, their namespace and what is
            # allocated: the next pod of the same shape (any workload using the same template)
            # fails the same way until an allocation changes the cluster.
            attempt = self._give_up(key, Attempt(None))
            if shaped is None:  # the first search to find nothing
                shaped = (self._node_shape(node), key[2])
            self._unsatisfiable[shaped] = allocator.last_steps
            return attempt
        return Attempt(tuple(results))

    def _give_up(self, key: tuple[str, int, ClaimsShape], attempt: Attempt) -> Attempt:
        """Remember, for this version, a search that ended without a result."""
        self._gave_up[key] = attempt
        self._charged.setdefault(key[2], []).append(key[0])
        return attempt

    def first_request(
        self, claims_shape: ClaimsShape, claims: Sequence[model.ResourceClaim]
    ) -> screen.FirstRequest | None:
        """The first request of ``claims`` (see :mod:`dralint.dryrun.screen`), once its claims have passed
        the allocator's validation (which depends on them alone); ``None`` until then, or when the
        screen cannot judge it."""
        if claims_shape not in self._validated:
            return None
        known = self._firsts.get(claims_shape, _UNKNOWN)
        if known is _UNKNOWN:
            known = self._firsts[claims_shape] = screen.first_request(claims, self.classes)
        return known  # type: ignore[return-value]

    def dead(self, first: screen.FirstRequest, node: model.Node) -> bool:
        """Whether the search on ``node`` certainly picks no device for ``first``, as allocated now."""
        shape = self._shape_of(node)  # (not _node_shape: the tests that do without node shapes replace it)
        key = (first.key, shape)
        alive = self._alive.get(key)
        if alive is None:
            found = self._found.get((first.key, shape[0]), _UNKNOWN)
            if found is _UNKNOWN:
                devices = self._view_devices(shape[0], node)
                found = self._found[first.key, shape[0]] = (
                    screen.candidates(first, devices, self.features, self._selectors) if devices is not None else None
                )
            if found is None:
                alive = True
            else:
                states = [self._states[state] for state in shape[1:]]
                alive = screen.alive(found, states, lambda pool: self._consumed_of(shape[1 + pool]))  # type: ignore[arg-type]
            self._alive[key] = alive
        return not alive

    def _view_devices(self, static: int, node: model.Node) -> list[tuple[int, DeviceInfo]] | None:
        """The devices the search tries on nodes of static shape ``static`` (``node`` is one), with the
        position of their pool in the view; ``None`` when a pool is invalid (the search would fail
        with an error) or the node cannot be told."""
        if static in self._devices:
            return self._devices[static]
        keys, slices = self._view_of(node.name)
        found: list[tuple[int, DeviceInfo]] | None = []
        try:
            pools = Allocator(
                self.features, AllocatedState(), self.classes, slices, selector_cache=self._selectors
            ).pools(node)
        except AllocatorError:
            pools, found = [], None
        registry = DeviceRegistry(AllocatedState(), self._selectors.keys)
        position = {key: n for n, key in enumerate(keys)}
        for pool in pools:
            if pool.invalid:
                found = None
            elif found is not None and not pool.incomplete:
                found.extend((position[pool.id], device) for device in pool.candidates(registry))
        self._devices[static] = found
        return found

    def _consumed_of(self, state: int) -> dict[str, dict[str, int]]:
        known = self._consumed.get(state)
        if known is None:
            known = self._consumed[state] = screen.nano_totals(self._states[state])
        return known

    def screen(self, nodes: Sequence[model.Node]) -> Screen:
        """What the dry-run's placement loop skips nodes with, for a run over ``nodes`` (in that order)."""
        self._screen = Screen(self, nodes)
        return self._screen

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
        )

    def _node_shape(self, node: model.Node) -> tuple[int, ...]:
        """The node's shape (:mod:`dralint.dryrun.shapes`): its view's, then what is allocated in each of
        its pools, each interned as a small integer (the shape is looked up on every attempt)."""
        return self._shape_of(node)

    def _shape_of(self, node: model.Node) -> tuple[int, ...]:
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


_UNKNOWN = object()


class Screen:
    """Skips, in the dry-run's placement loop, the candidate nodes where a pod's search would end at
    its first request (see :mod:`dralint.dryrun.screen`), charging the budget what those searches
    cost, so that the steps counted and where the budget runs out stay the same."""

    def __init__(self, cluster: Cluster, nodes: Sequence[model.Node]) -> None:
        self.cluster = cluster
        self.nodes = nodes
        self.index = {node.name: i for i, node in enumerate(nodes)}
        self._next: dict[object, screen.NextLive] = {}

    def skip(self, claims: Sequence[model.ResourceClaim], candidates: Sequence[int], position: int) -> int:
        """The first position of ``candidates`` from ``position`` on whose node the allocator must be
        asked about ``claims`` (``len(candidates)`` when none); the nodes before it are charged.

        Only where the charges are exactly those of trying each node: none of these nodes was tried
        with claims of this shape since the last allocation (a search repeated so costs nothing), and
        the budget left holds them all (else the node where it runs out is returned)."""
        cluster = self.cluster
        claims_shape = cluster.claims_shape(claims)
        first = cluster.first_request(claims_shape, claims)
        if first is None or not self._unvisited(claims_shape, candidates, position):
            return position
        budget = cluster.budget
        if first.steps > budget.per_attempt:
            return position
        room = len(candidates)
        if budget.total is not None:
            room = max(0, budget.total - budget.used) // first.steps
        next_live = self._next.get(first.key)
        if next_live is None:
            nodes = self.nodes
            next_live = self._next[first.key] = screen.NextLive(len(nodes), lambda i: not cluster.dead(first, nodes[i]))
        count = len(candidates)
        end = position
        while end < count:
            live = next_live.find(candidates[end])
            end = bisect.bisect_left(candidates, live, end)
            if end == count or candidates[end] == live:
                break
        end = min(end, position + room)
        if end > position:
            budget.used += (end - position) * first.steps
            cluster._ranges.setdefault(claims_shape, []).append((candidates, position, end))
        return end

    def _unvisited(self, claims_shape: ClaimsShape, candidates: Sequence[int], position: int) -> bool:
        """Whether no node of ``candidates`` from ``position`` on was tried with claims of this shape since the
        last allocation."""
        cluster = self.cluster
        for other, _, end in cluster._ranges.get(claims_shape, ()):
            if other is not candidates or end > position:
                return False
        for name in cluster._charged.get(claims_shape, ()):
            index = self.index.get(name)
            if index is None:
                return False
            at = bisect.bisect_left(candidates, index)
            if at >= position and at < len(candidates) and candidates[at] == index:
                return False
        return True

    def covered(self, name: str, ranges: Sequence[tuple[Sequence[int], int, int]]) -> bool:
        """Whether node ``name`` lies in one of the ranges of candidates skipped at this version."""
        index = self.index.get(name)
        if index is None:
            return False
        for candidates, start, end in ranges:
            at = bisect.bisect_left(candidates, index, start, end)
            if at < end and candidates[at] == index:
                return True
        return False
