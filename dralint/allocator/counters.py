"""Shared counters of partitionable devices: availability and consumption (spec §7).

Counterpart: ``checkAvailableCounters`` and ``deallocateCountersForDevice`` in
``allocator_experimental.go``. Both caches are keyed by the pool *name* only, and the available
counters survive across ``Allocate`` calls of one allocator, exactly as upstream (quirk Q6).

Kubernetes 1.33 and 1.34 (``Release.counters_in_device_slice``) published a device's counter sets
in the device's own slice: there both caches are keyed by the *slice* name, the counter sets are
those of the slice and only exclusively allocated devices of that slice consume from them (the
``release-1.34`` ``checkAvailableCounters``).
"""

from __future__ import annotations

from dralint.allocator.devices import DeviceInfo, DeviceRegistry, SliceInfo, nano
from dralint.allocator.pools import Pool

# counter set name -> counter name -> amount in nano units
CounterSets = dict[str, dict[str, int]]


def available_counters(pool: Pool, registry: DeviceRegistry) -> CounterSets:
    """The cached part of ``checkAvailableCounters``: every counter of the pool minus what allocated
    devices of the pool consume (may go negative)."""
    available = {name: dict(counters) for name, counters in pool.counter_sets.items()}
    for group in (pool.targeting, pool.not_targeting):
        for slice_info in group:
            _subtract_allocated(available, slice_info, registry, exclusive_only=False)
    return available


def slice_available_counters(slice_info: SliceInfo, registry: DeviceRegistry) -> CounterSets:
    """``checkAvailableCounters`` of 1.33-1.34: the slice's counter sets minus what its exclusively
    allocated devices consume."""
    available = {
        counter_set.name: {name: nano(q) for name, q in counter_set.counters.items()}
        for counter_set in slice_info.slice.shared_counters
    }
    _subtract_allocated(available, slice_info, registry, exclusive_only=True)
    return available


def _subtract_allocated(
    available: CounterSets, slice_info: SliceInfo, registry: DeviceRegistry, *, exclusive_only: bool
) -> None:
    for device in slice_info.devices(registry):
        if not (device.exclusive if exclusive_only else device.allocated):
            continue
        for set_name, counters in device.consumes:
            counter_set = available.get(set_name)
            if counter_set is None:
                continue
            for name, amount in counters:
                if name in counter_set:
                    counter_set[name] -= amount


def counters_key(device: DeviceInfo, pool: Pool, *, in_slice: bool) -> str:
    """What both caches are keyed by: the pool name, or (1.33-1.34) the device's slice name."""
    return device.slice.name if in_slice else pool.name


def check_available_counters(
    device: DeviceInfo,
    pool: Pool,
    cache: dict[str, CounterSets],
    consumed: dict[str, CounterSets],
    registry: DeviceRegistry,
    *,
    in_slice: bool = False,
) -> bool:
    """``checkAvailableCounters``: record the device's consumption; refuse (undoing it) if some counter
    of the pool (of the device's slice, ``in_slice``) is exceeded."""
    key = counters_key(device, pool, in_slice=in_slice)
    available = cache.get(key)
    if available is None:
        available = cache[key] = (
            slice_available_counters(device.slice, registry) if in_slice else available_counters(pool, registry)
        )
    consumed_pool = consumed.get(key)
    if consumed_pool is None:
        consumed_pool = consumed[key] = {}
    for set_name, counters in device.consumes:
        consumed_set = consumed_pool.get(set_name)
        if consumed_set is None:
            consumed_set = consumed_pool[set_name] = {}
        for name, amount in counters:
            consumed_set[name] = consumed_set.get(name, 0) + amount
    for set_name, limits in available.items():
        consumed_set = consumed_pool.get(set_name) or {}
        for name, limit in limits.items():
            if limit < consumed_set.get(name, 0):
                deallocate_counters(device, key, consumed)
                return False
    return True


def deallocate_counters(device: DeviceInfo, key: str, consumed: dict[str, CounterSets]) -> None:
    """``deallocateCountersForDevice``: subtract the device's consumption from what this call consumes
    (``key`` as :func:`counters_key` gives it)."""
    consumed_pool = consumed[key]
    for set_name, counters in device.consumes:
        consumed_set = consumed_pool[set_name]
        for name, amount in counters:
            consumed_set[name] -= amount
