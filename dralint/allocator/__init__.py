"""The Kubernetes structured-parameters allocator, ported: objects in, allocation results out.

Counterpart: ``structured/allocator.go`` and the ``experimental`` variant it selects
(``structured/internal/experimental``), with every behaviour switchable by :class:`Features`, and
the allocators of older releases where they differ without a feature flag (:class:`Release`).
No I/O, no YAML, no findings: inputs are the typed model of :mod:`dralint.api.model` (already
defaulted; see :mod:`dralint.allocator.prepare` for what the scheduler prepares), results are
model ``AllocationResult`` values, unsatisfiable is ``None`` and invalid input raises
:class:`AllocatorError` with upstream's message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from dralint.allocator.compatibility import GroupBaseline
from dralint.allocator.counters import CounterSets
from dralint.allocator.devices import DeviceRegistry, SliceInfo
from dralint.allocator.explain import Explanation, explain
from dralint.allocator.pools import Pool, PoolMemo, gather_pools
from dralint.allocator.requests import validate_claims
from dralint.allocator.results import build_results
from dralint.allocator.scope import NodeScope
from dralint.allocator.search import Search
from dralint.allocator.selection import SelectorCache
from dralint.allocator.types import (
    ALLOCATION_RESULTS_MAX_SIZE,
    DEFAULT_SEARCH_BUDGET,
    NEWEST,
    AllocatedState,
    AllocatorError,
    Cause,
    Context,
    DeviceID,
    Features,
    Release,
    SearchBudgetExhausted,
    cancelled,
    deadline,
)
from dralint.api import model

if TYPE_CHECKING:
    from dralint.cel import Environment

__all__ = [
    "ALLOCATION_RESULTS_MAX_SIZE",
    "DEFAULT_SEARCH_BUDGET",
    "NEWEST",
    "AllocatedState",
    "Allocator",
    "AllocatorError",
    "Cause",
    "Context",
    "DeviceID",
    "Explanation",
    "Features",
    "Release",
    "SearchBudgetExhausted",
    "cancelled",
    "deadline",
]


class Allocator:
    """``NewAllocator`` + ``Allocate``: one allocator for one set of slices, classes and state.

    Like the scheduler, use one allocator per pod and call :meth:`allocate` once per candidate
    node. Only the available-counter cache (quirk Q6) and dralint's memo of CEL outcomes survive
    between calls.
    """

    def __init__(
        self,
        features: Features,
        allocated_state: AllocatedState,
        classes: Mapping[str, model.DeviceClass],
        slices: Sequence[model.ResourceSlice],
        *,
        budget: int = DEFAULT_SEARCH_BUDGET,
        cel_environment: Environment | None = None,
        selector_cache: SelectorCache | None = None,
        release: Release = NEWEST,
    ) -> None:
        """``selector_cache`` lets allocators over the same slices share CEL outcomes (it must
        have been made for ``cel_environment``); by default each allocator has its own.
        ``release`` is the target release's allocator where it differs from the newest."""
        self.features = features
        self.release = release
        self.classes = classes
        self.budget = budget
        self._cache = SelectorCache(cel_environment) if selector_cache is None else selector_cache
        self._registry = DeviceRegistry(allocated_state, self._cache.keys)
        self._all_slices = [SliceInfo(s) for s in slices]
        self._on_node: dict[str, list[SliceInfo]] = {}
        self._shared: list[SliceInfo] = []
        for slice_info in self._all_slices:
            if slice_info.node_name:
                self._on_node.setdefault(slice_info.node_name, []).append(slice_info)
            else:
                self._shared.append(slice_info)
        self._counter_cache: dict[str, CounterSets] = {}
        self._groups_cache: dict[str, GroupBaseline] = {}
        self._pools: PoolMemo = {}
        self.last_steps = 0  # steps of the latest ``allocate`` call

    def allocate(
        self, node: model.Node, claims: Sequence[model.ResourceClaim], *, context: Context | None = None
    ) -> list[model.AllocationResult] | None:
        """``Allocate``: results per claim, ``None`` when unsatisfiable; raises :class:`AllocatorError`."""
        self.last_steps = 0
        scope = self._scope(node)
        validated = validate_claims(claims, scope)
        search = Search(
            claims=claims,
            validated=validated,
            scope=scope,
            counter_cache=self._counter_cache,
            groups_cache=self._groups_cache,
            budget=self.budget,
            context=context,
        )
        # The search recurses once per allocated device (see dralint.process.RECURSION_LIMIT).
        try:
            done = search.run()
        finally:
            self.last_steps = search.steps
        if not done:
            if any(pool.invalid for pool in scope.pools):
                raise AllocatorError("invalid resource pools were encountered", cause=Cause.INVALID_POOLS)
            return None
        return build_results(search, node)

    def explain(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Explanation:
        """Why the claims do not fit on ``node``, as data (run it after an unsatisfiable result)."""
        return explain(claims, self._scope(node))

    def pools(self, node: model.Node) -> list[Pool]:
        """The pools ``node`` sees (``GatherPools``), as :meth:`allocate` gathers them on it."""
        return list(self._scope(node).pools)

    def _scope(self, node: model.Node) -> NodeScope:
        """What one call on ``node`` shares: the pools of the slices on the node and of the shared ones."""
        slices = self._on_node.get(node.name, []) + self._shared
        pools = gather_pools(slices, node, self.features, self._all_slices, self._pools, self.release)
        return NodeScope(node, self.features, self.classes, pools, self._cache, self._registry, self.release)
