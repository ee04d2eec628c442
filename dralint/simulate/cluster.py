"""The allocator's view of the cluster during the dry-run: slices, classes, and what is allocated so far.

The scheduler builds one allocator per pod over every slice of the cluster. Here each attempt
(one pod on one node) gets an allocator over only the slices of the pools that node can see —
every slice of each pool with a slice on the node or without a node, so pool completeness is
judged as upstream does — and an allocated state restricted to those pools. Decisions are the
same; the cost of an attempt no longer grows with the size of the cluster.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from dralint.allocator import Allocator, AllocatorError, Explanation, Features
from dralint.allocator.prepare import allocated_state
from dralint.api import model
from dralint.cel import Environment
from dralint.simulate.placement import Attempt

PoolKey = tuple[str, str]  # (driver, pool name)
_HOLDER = model.ObjectMeta(name="allocated")


class Cluster:
    """Slices and classes of the inventory plus the allocations made so far (mutable)."""

    def __init__(
        self,
        slices: Sequence[model.ResourceSlice],
        classes: Mapping[str, model.DeviceClass],
        features: Features,
        *,
        cel_environment: Environment | None = None,
        budget: int | None = None,
    ) -> None:
        self.slices = list(slices)
        self.classes = classes
        self.features = features
        self.cel_environment = cel_environment
        self.budget = budget
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

    def add(self, allocations: Iterable[model.AllocationResult]) -> None:
        """Record allocations: their devices, shares and capacity are taken from now on."""
        for allocation in allocations:
            for result in allocation.results:
                self._held.setdefault((result.driver, result.pool), []).append(result)

    def attempt(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Attempt:
        """Allocate ``claims`` together on ``node`` against the current allocations (nothing is recorded)."""
        allocator = self._allocator(node)
        try:
            results = allocator.allocate(node, claims)
        except AllocatorError as error:
            return Attempt(None, error.message, error.failed_on_node)
        return Attempt(tuple(results) if results is not None else None)

    def explain(self, node: model.Node, claims: Sequence[model.ResourceClaim]) -> Explanation:
        """Why ``claims`` do not fit on ``node``, per request (see :mod:`dralint.allocator.explain`)."""
        return self._allocator(node).explain(node, claims)

    def _allocator(self, node: model.Node) -> Allocator:
        keys, slices = self._view_of(node.name)
        held = [
            model.ResourceClaim(_HOLDER, model.ResourceClaimSpec(), model.AllocationResult(tuple(self._held[key])))
            for key in keys
            if key in self._held
        ]
        state = allocated_state(held, consumable_capacity=self.features.consumable_capacity)
        extra = {"budget": self.budget} if self.budget is not None else {}
        return Allocator(self.features, state, self.classes, slices, cel_environment=self.cel_environment, **extra)

    def _view_of(self, node_name: str) -> tuple[list[PoolKey], list[model.ResourceSlice]]:
        view = self._view.get(node_name)
        if view is None:
            local = self._local.get(node_name, [])
            keys = [*local, *(k for k in self._shared if k not in local)]
            # Slices keep their input order: the allocator's bucketing and tie-breaks depend on it.
            picked = [(self._order[id(s)], s) for key in keys for s in self._pools[key]]
            view = self._view[node_name] = (keys, [s for _, s in sorted(picked, key=lambda item: item[0])])
        return view
