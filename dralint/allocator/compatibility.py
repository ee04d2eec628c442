"""Device compatibility groups (KEP-5963, DRADeviceCompatibilityGroups): which devices drawing on one
counter set may be allocated together.

Counterpart: ``compatibility_groups.go`` of ``internal/experimental`` (1.37): per counter set a
rolling intersection of the groups of every device placed on it, seeded from the devices already
allocated (their groups read from the slices, as the counters are) and extended by the devices of
the current attempt. Two devices share a counter set only when both declare no groups, or both
declare groups that intersect. Pure functions and immutable values; the search keeps the state.
"""

from __future__ import annotations

from dralint.allocator.devices import DeviceInfo, DeviceRegistry
from dralint.allocator.pools import Pool
from dralint.dataclass import dataclass


@dataclass(frozen=True, slots=True)
class GroupIntersection:
    """``compatibilityGroupIntersection``: the groups every device placed on one counter set shares.

    ``all_empty`` keeps "every member declared no groups" apart from an empty intersection: a
    second device without groups is admitted by the first, a device with groups is not.
    """

    has_members: bool = False
    all_empty: bool = False
    groups: frozenset[str] = frozenset()

    def admits(self, groups: frozenset[str]) -> bool:
        """``admits``: whether a device declaring ``groups`` may join the devices folded in so far."""
        if not self.has_members:
            return True
        if not groups:
            return self.all_empty
        if self.all_empty:
            return False
        return not self.groups.isdisjoint(groups)

    def add(self, groups: frozenset[str]) -> GroupIntersection:
        """``add``: the intersection with one more device (admitted by :meth:`admits`) folded in."""
        if not self.has_members:
            return GroupIntersection(True, not groups, groups)
        if self.all_empty or not groups:
            return self
        return GroupIntersection(True, False, self.groups & groups)


# counter set name -> intersection of the devices placed on it
GroupBaseline = dict[str, GroupIntersection]
# what check_and_consume changed, to undo: (counter set, the intersection before, or None when unset)
GroupRollback = list[tuple[str, GroupIntersection | None]]


def device_groups(device: DeviceInfo) -> list[tuple[str, frozenset[str]]]:
    """Per counter set the device consumes, the groups it declares there (``compatibilityGroupSet``)."""
    return [(c.counter_set, frozenset(c.compatibility_groups)) for c in device.device.consumes_counters]


def baseline_for_pool(pool: Pool, registry: DeviceRegistry, cache: dict[str, GroupBaseline]) -> GroupBaseline:
    """``compatibilityGroupsBaselineForPool``: the intersections of the already-allocated devices of the
    pool, per counter set; cached by pool name across calls, like the available counters."""
    baseline = cache.get(pool.name)
    if baseline is not None:
        return baseline
    baseline = {}
    for group in (pool.targeting, pool.not_targeting):
        for slice_info in group:
            for device in slice_info.devices(registry):
                if not device.allocated:
                    continue
                for counter_set, groups in device_groups(device):
                    baseline[counter_set] = baseline.get(counter_set, GroupIntersection()).add(groups)
    cache[pool.name] = baseline
    return baseline


def check_and_consume(
    device: DeviceInfo, baseline: GroupBaseline, running: dict[str, GroupIntersection]
) -> GroupRollback | None:
    """``checkAndConsumeCompatibilityGroups``: fold the device into the running intersections of its
    counter sets (``running``, this call's state of the pool), or leave them as they were and return
    ``None`` when some counter set does not admit it. Returns what :func:`rollback` undoes."""
    saved: GroupRollback = []
    for counter_set, groups in device_groups(device):
        previous = running.get(counter_set)
        current = previous if previous is not None else baseline.get(counter_set, GroupIntersection())
        if not current.admits(groups):
            rollback(saved, running)
            return None
        saved.append((counter_set, previous))
        running[counter_set] = current.add(groups)
    return saved


def rollback(saved: GroupRollback, running: dict[str, GroupIntersection]) -> None:
    """The rollback ``checkAndConsumeCompatibilityGroups`` returns: restore in reverse order."""
    for counter_set, previous in reversed(saved):
        if previous is None:
            running.pop(counter_set, None)
        else:
            running[counter_set] = previous
