"""Shared counters of partitionable devices: availability and consumption (spec §7).

Counterpart: ``checkAvailableCounters`` and ``deallocateCountersForDevice`` in
``allocator_experimental.go``. Both caches are keyed by the pool *name* only, and the available
counters survive across ``Allocate`` calls of one allocator, exactly as upstream (quirk Q6).
"""

from __future__ import annotations

from dralint.allocator.devices import DeviceInfo, DeviceRegistry
from dralint.allocator.pools import Pool

# counter set name -> counter name -> amount in nano units
CounterSets = dict[str, dict[str, int]]


def available_counters(pool: Pool, registry: DeviceRegistry) -> CounterSets:
    """The cached part of ``checkAvailableCounters``: every counter of the pool minus what allocated
    devices of the pool consume (may go negative)."""
    available = {name: dict(counters) for name, counters in pool.counter_sets.items()}
    for group in (pool.targeting, pool.not_targeting):
        for slice_info in group:
            for device in slice_info.devices(registry):
                if not device.allocated:
                    continue
                for set_name, counters in device.consumes:
                    counter_set = available.get(set_name)
                    if counter_set is None:
                        continue
                    for name, amount in counters:
                        if name in counter_set:
                            counter_set[name] -= amount
    return available


def check_available_counters(
    device: DeviceInfo,
    pool: Pool,
    cache: dict[str, CounterSets],
    consumed: dict[str, CounterSets],
    registry: DeviceRegistry,
) -> bool:
    """``checkAvailableCounters``: record the device's consumption; refuse (undoing it) if some counter
    of the pool is exceeded."""
    available = cache.get(pool.name)
    if available is None:
        available = cache[pool.name] = available_counters(pool, registry)
    consumed_pool = consumed.get(pool.name)
    if consumed_pool is None:
        consumed_pool = consumed[pool.name] = {}
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
                deallocate_counters(device, pool.name, consumed)
                return False
    return True


def deallocate_counters(device: DeviceInfo, pool_name: str, consumed: dict[str, CounterSets]) -> None:
    """``deallocateCountersForDevice``: subtract the device's consumption from what this call consumes."""
    consumed_pool = consumed[pool_name]
    for set_name, counters in device.consumes:
        consumed_set = consumed_pool[set_name]
        for name, amount in counters:
            consumed_set[name] -= amount
