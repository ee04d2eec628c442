"""Nodes where a pod's allocator search ends at its first request, told apart without running it.

The search (:mod:`dralint.allocator.search`) takes the claims' requests in order and tries every
device of the node for the first one. Where no device can be picked for it, the search ends
after one step (one more per entry of a ``firstAvailable`` request), with no result and no error.
In an oversubscribed cluster that is what nearly every attempt meets: most nodes are full for
most pods. This module finds such nodes from what is allocated in their pools, so that the
dry-run can skip them at the cost the allocator would have charged.

It is a necessary condition only. A device counts as possibly pickable unless it is certainly
not: held exclusively, refused by the selectors without an error, short of consumable capacity,
with a taint the request does not tolerate, consuming counters or waiting for binding conditions
the features ignore. Any doubt (a selector that fails on some device, per-device node selection,
an invalid pool, derived attributes, which the search evaluates before the capacity check and
which may fail there) leaves the node to the allocator. The pools are gathered as the target
release's allocator gathers them (``Release``), so slices it ignores offer nothing here either.
So a feature the allocator gains later that refuses more devices keeps this correct; one that
lets a request pick a device this module calls unpickable, or changes what the first request's
search costs, must be added here too.

Allocations only accumulate during a dry-run, so a node found dead for a request stays dead:
:class:`NextLive` skips dead nodes for good, in near-constant time per pod.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from dralint.allocator import Allocator
from dralint.allocator.capacity import Amount, Demand, demand_fits, requested_amounts
from dralint.allocator.devices import NANO, DeviceInfo, DeviceRegistry
from dralint.allocator.selection import SelectorCache, selectors_match
from dralint.allocator.taints import untolerated_taint
from dralint.allocator.types import NEWEST, AllocatedState, AllocatorError, Features, Release
from dralint.api import model
from dralint.dataclass import dataclass

# A pool's state as dralint.dryrun.shapes.pool_state gives it: devices held exclusively, devices
# shared, and the capacity consumed of each shared device.
PoolState = tuple[frozenset[str], frozenset[str], frozenset[tuple[str, frozenset[tuple[str, Fraction]]]]]
# A device that may be picked: its pool's position in the node's view, its name, and per entry of
# the request that may pick it, what the entry asks of its capacity (None: capacity is not checked).
Candidate = tuple[int, str, tuple[Demand | None, ...]]
DOUBT = None  # the node is left to the allocator
PoolKey = tuple[str, str]  # (driver, pool name)
# A node's view, for the first node of a static shape: its pools, their slices, and the node.
View = tuple[Sequence[PoolKey], Sequence[model.ResourceSlice], model.Node]
_UNKNOWN = object()


@dataclass(frozen=True, slots=True)
class Entry:
    """The first request (or one of its ``firstAvailable`` entries), as the search reads it."""

    device_class: model.DeviceClass
    selectors: tuple[model.DeviceSelector, ...]
    capacity: Mapping[str, Amount] | None
    tolerations: tuple[model.DeviceToleration, ...] | None


@dataclass(frozen=True, slots=True)
class FirstRequest:
    """The first request of a pod's claims, with ``key`` equal for requests that read the same."""

    key: tuple[object, ...]
    entries: tuple[Entry, ...]
    steps: int  # a search that picks nothing for it: one step, plus one per firstAvailable entry
    number: int = 0  # the key as a small integer, given by Screening (the key is looked up for every node)


def first_request(
    claims: Sequence[model.ResourceClaim], classes: Mapping[str, model.DeviceClass]
) -> FirstRequest | None:
    """The first request the search takes, or ``None`` when this module cannot judge it: no
    request, ``All`` mode or admin access (they pick devices others hold), a missing class, derived
    attributes (their evaluation may fail on a device the screen would rule out after it)."""
    if not claims or not claims[0].spec.requests:
        return None
    parts = claims[0].spec.requests[0].alternatives()
    entries = []
    key: list[object] = []
    for part in parts:
        spec = part.spec
        if spec.allocation_mode != "ExactCount" or spec.count < 1:
            return None
        if isinstance(spec, model.ExactDeviceRequest) and spec.admin_access is not None:
            return None
        if spec.derived_attributes:
            return None
        device_class = classes.get(spec.device_class_name)
        if device_class is None:
            return None
        capacity = requested_amounts(spec.capacity.requests) if spec.capacity is not None else None
        entries.append(Entry(device_class, spec.selectors, capacity, spec.tolerations))
        amounts = tuple((name, amount[0]) for name, amount in capacity.items()) if capacity is not None else None
        key.append((spec.device_class_name, spec.selectors, amounts, spec.tolerations))
    if not parts:
        return None
    steps = 1 + len(parts) if parts[0].entry is not None else 1
    return FirstRequest(tuple(key), tuple(entries), steps)


def candidates(
    first: FirstRequest,
    devices: Sequence[tuple[int, DeviceInfo]],
    features: Features,
    cache: SelectorCache,
) -> list[Candidate] | None:
    """The devices of a node's view (pool position, device) that the first request may pick when
    they are free, or :data:`DOUBT`. Depends on what the devices are, not on what is allocated."""
    out: list[Candidate] = []
    for pool, device in devices:
        demands: list[Demand | None] = []
        maybe = False
        for entry in first.entries:
            verdict = _pickable(entry, device, features, cache)
            if verdict is DOUBT:
                return DOUBT
            demands.append(verdict if isinstance(verdict, Demand) else None)
            maybe = maybe or verdict is not False
        if maybe:
            out.append((pool, device.name, tuple(demands)))
    return out


def _pickable(entry: Entry, device: DeviceInfo, features: Features, cache: SelectorCache) -> Demand | bool | None:
    """False: never picked; True: picked when free; a Demand: when free and its capacity fits; None: unsure.

    In the order of the search's checks (``isSelectable``, the capacity fit, ``allocateDevice``)."""
    if device.binding_conditions and not features.device_binding_and_status:
        return False
    if device.slice.per_device_node_selection:
        return DOUBT  # the node decides, and may fail to
    try:
        if not selectors_match(cache, entry.device_class.selectors, device, _no_owner):
            return False
        if not selectors_match(cache, entry.selectors, device, _no_owner):
            return False
    except AllocatorError:
        return DOUBT  # the search would stop with this error where the device is free
    demand = None
    if features.consumable_capacity:
        demand = Demand(entry.capacity, device.capacities, fractional=features.fractional_capacity_range)
        if demand.missing or demand.violation:
            return False
    if device.consumes and not features.partitionable_devices:
        return False
    if (
        features.device_taints
        and device.blocking_taints
        and untolerated_taint(device.blocking_taints, entry.tolerations) is not None
    ):
        return False
    return demand if demand is not None else True


def _no_owner() -> tuple[str, str | None]:
    return "", None  # the error's message is never shown: a doubt is all it says here


def _any_free(
    found: Sequence[Candidate], states: Sequence[PoolState], consumed: Callable[[int], Mapping[str, Mapping[str, int]]]
) -> bool:
    """Whether one of ``found`` is free enough to be picked, given the states of the view's pools
    (``consumed(pool)``: the capacity consumed per device of a pool, in nano units)."""
    for pool, name, demands in found:
        exclusive = states[pool][0]
        if name in exclusive:
            continue
        for demand in demands:
            if demand is None:
                return True
            if demand_fits(demand, consumed(pool).get(name), None) is True:
                return True
    return False


def nano_totals(state: PoolState) -> dict[str, dict[str, int]]:
    """The capacity consumed per shared device of a pool state, in nano units, as the allocator's
    device registry holds it."""
    return {
        device: {name: -((-total.numerator * NANO) // total.denominator) for name, total in totals}
        for device, totals in state[2]
    }


def view_devices(
    features: Features,
    classes: Mapping[str, model.DeviceClass],
    cache: SelectorCache,
    view: View,
    release: Release = NEWEST,
) -> list[tuple[int, DeviceInfo]] | None:
    """The devices the search tries on the node of ``view`` (those of its complete pools, as the
    allocator gathers them), with the position of their pool in the view; ``DOUBT`` when a pool is
    invalid (a search that finds nothing there ends with an error) or the pools cannot be gathered."""
    keys, slices, node = view
    try:
        allocator = Allocator(features, AllocatedState(), classes, slices, selector_cache=cache, release=release)
        pools = allocator.pools(node)
    except AllocatorError:
        return DOUBT
    registry = DeviceRegistry(AllocatedState(), cache.keys)
    position = {key: n for n, key in enumerate(keys)}
    found: list[tuple[int, DeviceInfo]] = []
    for pool in pools:
        if pool.invalid:
            return DOUBT
        if not pool.incomplete:
            found.extend((position[pool.id], device) for device in pool.candidates(registry))
    return found


class Screening:
    """What the screen learns about one cluster, kept for the whole dry-run: the first request of
    each claims shape; per first request and static node shape, the devices it may pick; per first
    request and node shape (dryrun.shapes: the static shape, then the state of each pool), whether
    one of them is free."""

    def __init__(
        self,
        features: Features,
        classes: Mapping[str, model.DeviceClass],
        cache: SelectorCache,
        release: Release = NEWEST,
    ) -> None:
        self.features = features
        self.release = release
        self.classes = classes
        self.cache = cache
        self._firsts: dict[object, FirstRequest | None] = {}
        self._numbers: dict[tuple[object, ...], int] = {}  # first request keys as small integers
        self._devices: dict[int, list[tuple[int, DeviceInfo]] | None] = {}
        self._found: dict[tuple[int, int], list[Candidate] | None] = {}
        self._alive: dict[tuple[int, tuple[int, ...]], bool] = {}
        self._consumed: dict[int, dict[str, dict[str, int]]] = {}

    def first_request(self, claims_shape: object, claims: Sequence[model.ResourceClaim]) -> FirstRequest | None:
        """:func:`first_request`, once per claims shape."""
        known = self._firsts.get(claims_shape, _UNKNOWN)
        if known is _UNKNOWN:
            found = first_request(claims, self.classes)
            if found is not None:
                found = dataclasses.replace(found, number=self._numbers.setdefault(found.key, len(self._numbers)))
            known = self._firsts[claims_shape] = found
        return known  # type: ignore[return-value]

    def dead(
        self, first: FirstRequest, shape: tuple[int, ...], states: Sequence[PoolState], view: Callable[[], View]
    ) -> bool:
        """Whether a node of ``shape`` (pool states by id in ``states``) has no device ``first`` may pick;
        ``view`` gives the node's view, needed for the first node of a static shape."""
        key = (first.number, shape)
        alive = self._alive.get(key)
        if alive is None:
            static = shape[0]
            if (first.number, static) in self._found:
                found = self._found[first.number, static]
            else:
                if static not in self._devices:
                    self._devices[static] = view_devices(self.features, self.classes, self.cache, view(), self.release)
                devices = self._devices[static]
                found = self._found[first.number, static] = (
                    candidates(first, devices, self.features, self.cache) if devices is not None else DOUBT
                )
            if found is None:
                alive = True
            else:
                pools = [states[state] for state in shape[1:]]
                alive = _any_free(found, pools, lambda pool: self._consumed_of(shape[1 + pool], states))
            self._alive[key] = alive
        return not alive

    def _consumed_of(self, state: int, states: Sequence[PoolState]) -> dict[str, dict[str, int]]:
        known = self._consumed.get(state)
        if known is None:
            known = self._consumed[state] = nano_totals(states[state])
        return known


class NextLive:
    """The first node at or after an index that is not known to be dead (a union-find over node
    indexes: a dead node points past itself, and paths are compressed)."""

    __slots__ = ("_alive", "_parent")

    def __init__(self, count: int, is_alive: Callable[[int], bool]) -> None:
        self._parent = list(range(count + 1))
        self._alive = is_alive

    def find(self, index: int) -> int:
        """The first index from ``index`` on whose node may be alive (``count`` when none)."""
        parent = self._parent
        last = len(parent) - 1
        while True:
            root = index
            while parent[root] != root:
                root = parent[root]
            while parent[index] != root:
                parent[index], index = root, parent[index]
            if root == last or self._alive(root):
                return root
            parent[root] = root + 1
            index = root
