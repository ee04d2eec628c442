"""Pool gathering for one node: relevance, generations, completeness, validation, order (spec §2).

Counterpart: ``pools_experimental.go`` (``GatherPools``, ``addSlice``, ``buildPool``,
``checkSlicesInPool``, ``getAndValidateCounterSets``, ``validateDeviceNames``,
``validateDeviceCounterConsumption``, ``poolHasBindingConditions``) and
``compatibility_groups.go`` (``slicesWithoutCompatibilityGroups``). In 1.33-1.34
(``Release.counters_in_device_slice``) every slice is a device slice and a pool is invalid only
for duplicate device names (``poolIsInvalid`` of those releases).
"""

from __future__ import annotations

from collections.abc import Sequence

from dralint.allocator.devices import DeviceInfo, DeviceRegistry, SliceInfo, nano
from dralint.allocator.nodes import NodeSelectorError, node_matches
from dralint.allocator.types import NEWEST, AllocatorError, Cause, Features, PoolID, Release
from dralint.api import model


class Pool:
    """``Pool``: a resource pool as seen from one node."""

    __slots__ = ("counter_sets", "id", "incomplete", "invalid", "invalid_reason", "not_targeting", "targeting")

    def __init__(
        self,
        pool_id: PoolID,
        *,
        incomplete: bool = False,
        invalid_reason: str | None = None,
        targeting: Sequence[SliceInfo] = (),
        not_targeting: Sequence[SliceInfo] = (),
        counter_sets: dict[str, dict[str, int]] | None = None,
    ) -> None:
        self.id = pool_id
        self.incomplete = incomplete
        self.invalid = invalid_reason is not None
        self.invalid_reason = invalid_reason
        self.targeting = tuple(targeting)
        self.not_targeting = tuple(not_targeting)
        self.counter_sets = counter_sets or {}

    @property
    def name(self) -> str:
        return self.id[1]

    def id_text(self) -> str:
        return f"{self.id[0]}/{self.id[1]}"

    def has_binding_conditions(self) -> bool:
        """``poolHasBindingConditions``: a targeting device declares bindingConditions (even empty)."""
        return any(d.binding_conditions is not None for s in self.targeting for d in s.slice.devices)

    def candidates(self, registry: DeviceRegistry) -> list[DeviceInfo]:
        """The pool's devices in search order: sorted slices, then device order."""
        out: list[DeviceInfo] = []
        for slice_info in self.targeting:
            out.extend(slice_info.devices(registry))
        return out


# Built pools by the identity of the slices they were built from: a pool is immutable once built,
# so an allocator can reuse it on every node that sees the same slices.
PoolMemo = dict[tuple[tuple[int, ...], tuple[int, ...] | None], Pool]


def gather_pools(
    slices_for_node: Sequence[SliceInfo],
    node: model.Node,
    features: Features,
    all_slices: Sequence[SliceInfo],
    memo: PoolMemo | None = None,
    release: Release = NEWEST,
) -> list[Pool]:
    """``GatherPools``: the pools usable from ``node``, main group then binding-condition group."""
    if not features.device_compatibility_groups:
        # This allocator cannot check compatibility groups: a slice declaring any is ignored, which
        # leaves its pool incomplete (the other devices of the pool are not allocated either).
        slices_for_node = slices_without_compatibility_groups(slices_for_node)
        all_slices = slices_without_compatibility_groups(all_slices)
    pools: dict[PoolID, list[SliceInfo]] = {}
    for slice_info in slices_for_node:
        resource_slice = slice_info.slice
        if not features.partitionable_devices and (
            resource_slice.per_device_node_selection is not None or resource_slice.shared_counters
        ):
            continue
        if slice_info.node_name or resource_slice.all_nodes or slice_info.node_selector is not None:
            try:
                relevant = node_matches(node, slice_info.node_name, resource_slice.all_nodes, slice_info.node_selector)
            except NodeSelectorError as error:
                raise AllocatorError(
                    f"gather pool information: failed to perform node selection for slice {slice_info.name}: {error}",
                    cause=Cause.NODE_SELECTION,
                ) from None
        elif slice_info.per_device_node_selection:
            relevant = False
            for device in resource_slice.devices:
                try:
                    match = node_matches(node, device.node_name, device.all_nodes, device.node_selector)
                except NodeSelectorError as error:
                    raise AllocatorError(
                        "gather pool information: failed to perform node selection for device "
                        f"{device.name} in slice {slice_info.name}: {error}",
                        cause=Cause.NODE_SELECTION,
                    ) from None
                if match:
                    relevant = True
                    break
        else:
            continue  # nothing known is set: some future extension, skipped
        if relevant:
            _add_slice(pools, slice_info)

    main: list[Pool] = []
    with_binding: list[Pool] = []
    for pool_id, slices in pools.items():
        count = slices[0].slice.pool.resource_slice_count
        all_for_pool = None
        if len(slices) != count:
            obsolete, all_for_pool = _check_slices_in_pool(all_slices, pool_id, slices[0].slice.pool.generation)
            if obsolete:
                continue  # the driver is replacing this generation
            if len(all_for_pool) != count:
                main.append(Pool(pool_id, incomplete=True))
                continue
        key = (tuple(map(id, slices)), tuple(map(id, all_for_pool)) if all_for_pool is not None else None)
        pool = memo.get(key) if memo is not None else None
        if pool is None:
            pool = _build_pool(pool_id, slices, features, all_for_pool, release)
            if memo is not None:
                memo[key] = pool
        (with_binding if pool.has_binding_conditions() else main).append(pool)
    main.sort(key=lambda p: p.id)
    with_binding.sort(key=lambda p: p.id)
    return main + with_binding


def uses_compatibility_groups(slice_info: SliceInfo) -> bool:
    """``sliceUsesCompatibilityGroups``: some device of the slice declares compatibility groups."""
    return any(c.compatibility_groups for d in slice_info.slice.devices for c in d.consumes_counters)


def slices_without_compatibility_groups(slices: Sequence[SliceInfo]) -> Sequence[SliceInfo]:
    """``slicesWithoutCompatibilityGroups``, in order (the same sequence when no slice uses any)."""
    if not any(uses_compatibility_groups(s) for s in slices):
        return slices
    return [s for s in slices if not uses_compatibility_groups(s)]


def _add_slice(pools: dict[PoolID, list[SliceInfo]], slice_info: SliceInfo) -> None:
    """``addSlice``: keep only the slices of the newest generation seen so far."""
    pool_id = (slice_info.driver, slice_info.pool)
    current = pools.get(pool_id)
    generation = slice_info.slice.pool.generation
    if current is None or generation > current[0].slice.pool.generation:
        pools[pool_id] = [slice_info]
    elif generation == current[0].slice.pool.generation:
        current.append(slice_info)


def _check_slices_in_pool(
    all_slices: Sequence[SliceInfo], pool_id: PoolID, generation: int
) -> tuple[bool, list[SliceInfo]]:
    """``checkSlicesInPool``: (obsolete, every slice of that generation) over all slices."""
    found = []
    for slice_info in all_slices:
        if (slice_info.driver, slice_info.pool) != pool_id:
            continue
        slice_generation = slice_info.slice.pool.generation
        if slice_generation == generation:
            found.append(slice_info)
        elif slice_generation > generation:
            return True, []
    return False, found


def _build_pool(
    pool_id: PoolID,
    slices: list[SliceInfo],
    features: Features,
    all_for_pool: list[SliceInfo] | None,
    release: Release = NEWEST,
) -> Pool:
    """``buildPool``: sort, split into device/counter slices, validate names and counters."""
    slices = sorted(slices, key=lambda s: s.name)  # stable, like Go's insertion sort for small inputs
    if release.counters_in_device_slice:
        return _build_pool_in_slice(pool_id, slices)
    partitionable = features.partitionable_devices
    device_slices = [s for s in slices if not (partitionable and s.slice.shared_counters)]
    counter_slices = [s for s in slices if partitionable and s.slice.shared_counters]
    not_targeting: list[SliceInfo] = []
    if all_for_pool is not None and len(slices) < len(all_for_pool):
        names = {s.name for s in slices}
        for slice_info in all_for_pool:
            if slice_info.name in names:
                continue
            if partitionable and slice_info.slice.shared_counters:
                counter_slices.append(slice_info)
            else:
                not_targeting.append(slice_info)

    seen: set[str] = set()
    for slice_info in device_slices:
        for device in slice_info.slice.devices:
            if device.name in seen:
                return Pool(pool_id, invalid_reason=f"duplicate device name {device.name}")
            seen.add(device.name)
    if not partitionable:
        return Pool(pool_id, targeting=device_slices)

    counter_sets: dict[str, dict[str, int]] = {}
    for slice_info in counter_slices:
        for counter_set in slice_info.slice.shared_counters:
            if counter_set.name in counter_sets:
                return Pool(pool_id, invalid_reason=f"duplicate counter set name {counter_set.name}")
            counter_sets[counter_set.name] = {name: nano(q) for name, q in counter_set.counters.items()}
    for group in (device_slices, not_targeting):
        reason = _counter_consumption_problem(counter_sets, group)
        if reason is not None:
            return Pool(pool_id, invalid_reason=reason)
    return Pool(pool_id, targeting=device_slices, not_targeting=not_targeting, counter_sets=counter_sets)


def _build_pool_in_slice(pool_id: PoolID, slices: list[SliceInfo]) -> Pool:
    """The pool of 1.33-1.34: every slice offers its devices (its counter sets are its own)."""
    seen: set[str] = set()
    for slice_info in slices:
        for device in slice_info.slice.devices:
            if device.name in seen:
                return Pool(pool_id, invalid_reason=f"duplicate device name {device.name}")
            seen.add(device.name)
    return Pool(pool_id, targeting=slices)


def _counter_consumption_problem(counter_sets: dict[str, dict[str, int]], slices: list[SliceInfo]) -> str | None:
    """``validateDeviceCounterConsumption``: every consumed counter set and counter must exist."""
    for slice_info in slices:
        for device in slice_info.slice.devices:
            for consumption in device.consumes_counters:
                counter_set = counter_sets.get(consumption.counter_set)
                if counter_set is None:
                    return f"counter set {consumption.counter_set} not found"
                for name in consumption.counters:
                    if name not in counter_set:
                        return f"counter {name} not found in counter set {consumption.counter_set}"
    return None
