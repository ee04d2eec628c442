"""Per-pool device utilisation, computed the way the cluster autoscaler computes it.

For each (driver, pool) of the newest complete generation: devices without counters are
"atomic" and count as allocated / total; devices consuming shared counters are partitions of
physical devices, and each counter set (one physical device) counts with its most used counter;
a pool with both is the average of the two weighted by the number of atomic devices and of
counter sets. Admin-access allocations do not reserve a device and are not counted.
(cluster-autoscaler ``simulator/dynamicresources/utils/utilization.go``.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from dralint.api import model
from dralint.apimachinery.quantity import Quantity
from dralint.cluster.inventory import SliceEntry
from dralint.dataclass import dataclass

_DIGITS = re.compile(r"(\d+)")


@dataclass(frozen=True, slots=True)
class CounterUse:
    counter_set: str
    counter: str
    consumed: Quantity
    total: Quantity
    device: str = ""  # the device the counter set stands for (see :func:`counter_set_devices`); "" if none

    @property
    def share(self) -> float:
        """``consumed / total`` (0 for an empty total)."""
        return float(self.consumed.value / self.total.value) if self.total.value else 0.0


@dataclass(frozen=True, slots=True)
class PoolUtilisation:
    driver: str
    pool: str
    nodes: tuple[str, ...]  # nodes the pool's slices are bound to; empty for network-attached pools
    devices: int
    allocated: int  # devices with a non-admin allocation
    utilisation: float  # 0.0-1.0, as the autoscaler reports it
    counters: tuple[CounterUse, ...] = ()
    incomplete: bool = False  # the newest generation lacks slices: the autoscaler refuses such pools


def utilisation(slices: Sequence[SliceEntry], allocations: Iterable[model.AllocationResult]) -> list[PoolUtilisation]:
    """Utilisation of every pool, sorted by driver then pool name, in natural order (see :func:`natural_key`)."""
    allocated: dict[tuple[str, str], set[str]] = {}
    for allocation in allocations:
        for result in allocation.results:
            if result.admin_access:
                continue
            allocated.setdefault((result.driver, result.pool), set()).add(result.device)
    pools: dict[tuple[str, str], list[model.ResourceSlice]] = {}
    for entry in slices:
        pools.setdefault((entry.slice.driver, entry.slice.pool.name), []).append(entry.slice)
    ordered = sorted(pools, key=lambda key: (natural_key(key[0]), natural_key(key[1])))
    return [_pool(key, pools[key], allocated.get(key, set())) for key in ordered]


def natural_key(name: str) -> tuple[tuple[int | str, ...], str]:
    """Sort key that reads digit runs as numbers: ``h100-2`` before ``h100-10`` (ties: the text itself)."""
    parts = _DIGITS.split(name)  # text at even indexes, digit runs at odd ones: comparable part by part
    return tuple(int(part) if i % 2 else part for i, part in enumerate(parts)), name


def _current(pool_slices: list[model.ResourceSlice]) -> tuple[list[model.ResourceSlice], bool]:
    newest = max(s.pool.generation for s in pool_slices)
    current = [s for s in pool_slices if s.pool.generation == newest]
    return current, len(current) != current[0].pool.resource_slice_count


def _pool(key: tuple[str, str], pool_slices: list[model.ResourceSlice], names: set[str]) -> PoolUtilisation:
    current, incomplete = _current(pool_slices)
    devices = [d for s in current for d in s.devices]
    nodes = tuple(sorted({s.node_name for s in current if s.node_name}, key=natural_key))
    atomic = [d for d in devices if not d.consumes_counters]
    partitions = [d for d in devices if d.consumes_counters]
    atomic_used = sum(1 for d in atomic if d.name in names)
    partitions_used = [d for d in partitions if d.name in names]
    used = atomic_used + len(partitions_used)
    atomic_share = atomic_used / len(atomic) if atomic else 0.0
    counter_uses = _counter_uses(current, partitions, partitions_used)
    if not partitions_used:
        share = atomic_share
    else:
        physical = len({c.counter_set for d in partitions for c in d.consumes_counters})
        partition_share = _partition_share(counter_uses, physical)
        if atomic_used == 0:
            share = partition_share
        else:
            total = physical + len(atomic)
            share = partition_share * physical / total + atomic_share * len(atomic) / total
    return PoolUtilisation(key[0], key[1], nodes, len(devices), used, share, tuple(counter_uses), incomplete)


def _counter_uses(
    current: list[model.ResourceSlice], partitions: list[model.Device], used: list[model.Device]
) -> list[CounterUse]:
    totals: dict[str, dict[str, Quantity]] = {}
    for s in current:
        for counter_set in s.shared_counters:
            into = totals.setdefault(counter_set.name, {})
            for name, value in counter_set.counters.items():
                into[name] = into[name].add(value) if name in into else value
    devices = counter_set_devices(totals, partitions)
    consumed: dict[tuple[str, str], Quantity] = {}
    for device in used:
        for consumption in device.consumes_counters:
            for name, value in consumption.counters.items():
                key = (consumption.counter_set, name)
                consumed[key] = consumed[key].add(value) if key in consumed else value
    zero = Quantity(0)
    return [
        CounterUse(set_name, name, consumed.get((set_name, name), zero), total, devices.get(set_name, ""))
        for set_name in sorted(totals)
        for name, total in sorted(totals[set_name].items())
    ]


def counter_set_devices(
    totals: Mapping[str, Mapping[str, Quantity]], partitions: Sequence[model.Device]
) -> dict[str, str]:
    """Counter set -> the device it stands for, so that a report can say "gpu-3 memory" instead of
    "memory" eight times: the device that consumes all of the set (the whole physical device, which
    partitionable drivers publish beside its partitions), else the first device that consumes it."""
    whole: dict[str, str] = {}
    first: dict[str, str] = {}
    for device in partitions:
        for consumption in device.consumes_counters:
            name = consumption.counter_set
            first.setdefault(name, device.name)
            if name not in whole and consumption.counters == totals.get(name):
                whole[name] = device.name
    return {name: whole.get(name, device) for name, device in first.items()}


def _partition_share(uses: list[CounterUse], physical: int) -> float:
    if physical == 0:
        return 0.0
    highest: dict[str, float] = {}
    for use in uses:
        total = use.total.ceil_int()
        if total == 0:
            continue
        ratio = use.consumed.ceil_int() / total
        highest[use.counter_set] = max(highest.get(use.counter_set, 0.0), ratio)
    return sum(highest.values()) / physical
