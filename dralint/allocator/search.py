"""The backtracking search of one ``Allocate`` call (spec §6).

Counterparts: ``allocateOne``, ``allocateDevice`` (with its rollback), ``deviceInUse`` and
friends in ``allocator_experimental.go``. The search is the upstream one step for step: the same
candidate order, the same checks in the same order, the same rollbacks (and the same missing
rollbacks, quirks Q4, Q5, Q7, Q8), the same number of steps. Compatibility groups (1.37) are
checked right after the counters and undone with the pick; where the 1.37 code was not available
this order is dralint's reading of KEP-5963.
"""

from __future__ import annotations

from collections.abc import Sequence

from dralint.allocator.capacity import Amount, demand_fits
from dralint.allocator.compatibility import (
    GroupBaseline,
    GroupIntersection,
    GroupRollback,
    baseline_for_pool,
    check_and_consume,
    rollback,
)
from dralint.allocator.counters import CounterSets, check_available_counters, counters_key, deallocate_counters
from dralint.allocator.devices import DeviceInfo
from dralint.allocator.pools import Pool
from dralint.allocator.requests import RequestData, ValidatedClaims, claim_ref, d_count
from dralint.allocator.scope import NodeScope
from dralint.allocator.taints import untolerated_taint
from dralint.allocator.types import (
    ALLOCATION_RESULTS_MAX_SIZE,
    AllocatorError,
    Cause,
    Context,
    PoolID,
    SearchBudgetExhausted,
    device_id_text,
)
from dralint.api import model


class _MaxSizeExceeded(Exception):
    """``errAllocationResultMaxSizeExceeded``: drives backtracking to the next entry or claim."""


class _Stop(Exception):
    """``errStop`` of 1.31-1.32: an All request that cannot get its devices ends the whole search."""


class Pick:
    """``internalDeviceResult``: a device picked for a request in this call."""

    __slots__ = ("consumed", "device", "groups", "pool", "request", "shared")

    def __init__(
        self,
        request: RequestData,
        device: DeviceInfo,
        pool: Pool,
        shared: bool,
        consumed: dict[str, Amount] | None,
        groups: GroupRollback | None = None,
    ) -> None:
        self.request = request
        self.device = device
        self.pool = pool
        self.shared = shared
        self.consumed = consumed
        self.groups = groups  # what the compatibility-group check changed


class Search:
    """The state of one ``Allocate`` call while it searches (``allocator``)."""

    def __init__(
        self,
        *,
        claims: Sequence[model.ResourceClaim],
        validated: ValidatedClaims,
        scope: NodeScope,
        counter_cache: dict[str, CounterSets],
        budget: int,
        context: Context | None,
        groups_cache: dict[str, GroupBaseline] | None = None,
    ) -> None:
        self.claims = claims
        self.requests = validated.requests
        self.constraints = validated.constraints
        self.scope = scope
        # Read on every step of the search: kept at hand rather than behind ``scope``.
        self.features = scope.features
        self.registry = scope.registry
        self.counter_cache = counter_cache
        self.in_slice = scope.release.counters_in_device_slice
        self.groups_cache: dict[str, GroupBaseline] = {} if groups_cache is None else groups_cache
        self.consumed_groups: dict[str, dict[str, GroupIntersection]] = {}  # pool name -> counter set -> groups
        self.budget = budget
        self.context = context
        self.pools: dict[PoolID, Pool] = {pool.id: pool for pool in scope.pools}
        self.candidates: list[DeviceInfo] = []
        self.candidate_pools: list[Pool] = []
        for pool in scope.pools:
            if pool.incomplete or pool.invalid:
                continue
            devices = pool.candidates(scope.registry)
            self.candidates.extend(devices)
            self.candidate_pools.extend([pool] * len(devices))
        self.results: list[list[Pick]] = [[] for _ in claims]
        self.allocating: dict[int, set[int]] = {}
        self.allocating_capacity: dict[int, dict[str, int]] = {}
        self.consumed_counters: dict[str, CounterSets] = {}
        self.selected: dict[tuple[int, int], int] = {}
        self.steps = 0

    def run(self) -> bool:
        """The whole search; ``True`` when every claim got its devices."""
        try:
            return self._step(0, 0, 0, 0, False, 0)
        except _Stop:
            return False

    def _step(self, c: int, r: int, e: int, k: int, in_entry: bool, start: int) -> bool:
        """``allocateOne``: allocate device ``k`` of entry ``e`` of request ``r`` of claim ``c``."""
        self.steps += 1
        if self.steps > self.budget:
            raise SearchBudgetExhausted(self.budget)
        if self.context is not None:
            cause = self.context()
            if cause is not None:
                raise AllocatorError(f"filter operation aborted: {cause}", cause=Cause.ABORTED)
        if c >= len(self.requests):
            return True
        requests = self.requests[c]
        if r >= len(requests):
            try:
                return self._step(c + 1, 0, 0, 0, False, 0)
            except _MaxSizeExceeded:
                return False  # the limit is per claim
        entries = requests[r]
        data = entries[e]
        if not in_entry and data.parent is not None:
            all_exceeded = True
            for index in range(len(entries)):
                try:
                    done = self._step(c, r, index, k, True, 0)
                except _MaxSizeExceeded:
                    continue
                all_exceeded = False
                if done:
                    self.selected[(c, r)] = index
                    return True
            if all_exceeded:
                raise _MaxSizeExceeded
            return False

        all_mode = data.mode == "All"
        if all_mode and not data.all_devices and not self.scope.release.all_may_match_nothing:
            return False
        count = d_count(data)
        if k >= count:
            return self._step(c, r + 1, 0, 0, False, 0)
        if len(self.results[c]) + count - k > ALLOCATION_RESULTS_MAX_SIZE:
            raise _MaxSizeExceeded

        if all_mode:
            device = data.all_devices[k]
            pick = self._allocate_device(c, data, device, self.pools[device.id[:2]], must=True)
            if pick is None:
                if self.scope.release.all_failure_stops_search:
                    raise _Stop
                return False
            try:
                done = self._step(c, r, e, k + 1, in_entry, 0)
            except BaseException:
                self._deallocate(c, pick)
                raise
            if not done:
                self._deallocate(c, pick)
            return done

        candidates = self.candidates
        allocating = self.allocating
        admin = data.admin
        scope = self.scope
        check_capacity = self.features.consumable_capacity
        for position in range(start, len(candidates)):
            device = candidates[position]
            holders = allocating.get(device.key)
            if admin:
                if holders and c in holders:
                    continue
            elif device.exclusive or holders:
                continue
            if not data.is_selectable(device, scope):
                continue
            if (
                check_capacity
                and demand_fits(data.demand(device), device.aggregated, self.allocating_capacity.get(device.key))
                is not True
            ):
                continue
            pick = self._allocate_device(c, data, device, self.candidate_pools[position], must=False)
            if pick is None:
                continue
            try:
                done = self._step(c, r, e, k + 1, in_entry, position + 1)
            except BaseException:
                self._deallocate(c, pick)
                raise
            if done:
                return True
            self._deallocate(c, pick)
        return False

    def _allocate_device(self, c: int, data: RequestData, device: DeviceInfo, pool: Pool, *, must: bool) -> Pick | None:
        """``allocateDevice``: the availability checks, then record the pick (or refuse)."""
        features = self.features
        shared = features.consumable_capacity and device.allow_multi
        key = device.key
        holders = self.allocating.get(key)
        if data.admin:
            if not shared and holders and c in holders:
                return None
        elif device.exclusive or holders:
            return None
        if device.consumes:
            if not features.partitionable_devices:
                return None
            skip_counters = shared and (device.aggregated is not None or key in self.allocating_capacity)
            if not skip_counters and not check_available_counters(
                device, pool, self.counter_cache, self.consumed_counters, self.registry, in_slice=self.in_slice
            ):
                return None
        groups: GroupRollback | None = None
        if features.device_compatibility_groups and device.consumes:
            running = self.consumed_groups.get(pool.name)
            if running is None:
                running = self.consumed_groups[pool.name] = {}
            groups = check_and_consume(device, baseline_for_pool(pool, self.registry, self.groups_cache), running)
            if groups is None:
                return None  # (counters recorded above stay recorded, as for the taints: quirk Q4)
        pick = self._admit(c, data, device, pool, shared, groups, must=must)
        if pick is None and groups:
            rollback(groups, self.consumed_groups[pool.name])
        return pick

    def _admit(
        self,
        c: int,
        data: RequestData,
        device: DeviceInfo,
        pool: Pool,
        shared: bool,
        groups: GroupRollback | None,
        *,
        must: bool,
    ) -> Pick | None:
        """The rest of ``allocateDevice`` after the counters: taints, constraints, capacity, the record."""
        features = self.features
        key = device.key
        if (
            features.device_taints
            and device.blocking_taints
            and untolerated_taint(device.blocking_taints, data.tolerations) is not None
        ):
            return None  # quirk Q4: counters recorded above stay recorded
        constraints = self.constraints[c]
        if constraints:
            base, sub = data.base_name, data.sub_name
            driver, attributes = device.id[0], device.device.attributes
            derived = data.derived_values.get(key) if data.derived_values else None
            for index, constraint in enumerate(constraints):
                if not constraint.add(base, sub, driver, attributes, derived):
                    if must:
                        raise AllocatorError(
                            f"claim {claim_ref(data.claim)}, request {data.name}: cannot add device "
                            f"{device_id_text(device.id)} because a claim constraint would not be satisfied",
                            cause=Cause.CLAIM,
                            claim=claim_ref(data.claim),
                            request=data.name,
                        )
                    for earlier in constraints[:index]:
                        earlier.remove(base, sub)
                    return None
        holders = self.allocating.get(key)
        if holders is None:
            holders = self.allocating[key] = set()
        if not shared:
            holders.add(c)
        consumed = None
        if features.consumable_capacity:
            allocating = self.allocating_capacity.get(key)
            demand = data.demand(device)
            if demand_fits(demand, device.aggregated, allocating) is not True:
                return None  # quirk Q5: nothing above is undone
            if shared:
                consumed = demand.amounts
                if allocating is None:
                    self.allocating_capacity[key] = {name: amount[0] for name, amount in consumed.items()}
                else:
                    for name, amount in consumed.items():
                        allocating[name] = allocating.get(name, 0) + amount[0]
        pick = Pick(data, device, pool, shared, consumed or None, groups)
        self.results[c].append(pick)
        return pick

    def _deallocate(self, c: int, pick: Pick) -> None:
        """The rollback ``allocateDevice`` returns."""
        data, device = pick.request, pick.device
        constraints = self.constraints[c]
        if constraints:
            base, sub = data.base_name, data.sub_name
            for constraint in constraints:
                constraint.remove(base, sub)
        key = device.key
        self.allocating[key].discard(c)
        if pick.shared:
            if pick.consumed is not None:
                allocating = self.allocating_capacity.get(key)
                if allocating is not None:
                    for name, amount in pick.consumed.items():
                        if name in allocating:
                            allocating[name] -= amount[0]
                    if all(value == 0 for value in allocating.values()):
                        del self.allocating_capacity[key]
        elif self.features.partitionable_devices and device.consumes:
            deallocate_counters(device, counters_key(device, pick.pool, in_slice=self.in_slice), self.consumed_counters)
        if pick.groups:
            rollback(pick.groups, self.consumed_groups[pick.pool.name])
        self.results[c].pop()
