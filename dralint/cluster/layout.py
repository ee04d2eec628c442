"""The slices a compact Inventory stands for, as a 1.33-1.34 driver publishes them: counter sets
in the slices of the devices that consume them.

:mod:`dralint.cluster.compact` expands partitions the way drivers publish them from 1.35, with
the counter sets in slices of their own; Kubernetes 1.33 and 1.34 require a device's counter set
in the device's own slice (and their allocator looks for it there only). Written slices are never
changed: what a cluster has is what the user gave.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from dralint.api import model


def counters_beside_devices(slices: Sequence[model.ResourceSlice]) -> list[model.ResourceSlice]:
    """Each pool's counter-only slices dissolved into its device slices, each of which gets the
    counter sets its devices consume; the pools' slice counts follow."""
    pools: dict[tuple[str, str], list[model.ResourceSlice]] = {}
    for resource_slice in slices:
        pools.setdefault((resource_slice.driver, resource_slice.pool.name), []).append(resource_slice)
    out: list[model.ResourceSlice] = []
    for members in pools.values():
        counter_sets = {c.name: c for s in members if not s.devices for c in s.shared_counters}
        if not counter_sets:
            out.extend(members)
            continue
        device_slices = [s for s in members if s.devices]
        pool = dataclasses.replace(members[0].pool, resource_slice_count=len(device_slices))
        for resource_slice in device_slices:
            used = dict.fromkeys(c.counter_set for d in resource_slice.devices for c in d.consumes_counters)
            own = tuple(counter_sets[name] for name in used if name in counter_sets)
            out.append(dataclasses.replace(resource_slice, pool=pool, shared_counters=own))
    return out
