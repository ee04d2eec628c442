"""Node shapes: what the allocator sees of a node, up to the names of the node, its pools and slices.

Two nodes of one node pool publish the same devices under different pool and slice names. The
allocator's outcome on a node depends on names only through their order (pools are sorted by
driver and name, slices of a pool by name) and through the results it builds. So when two nodes
have the same shape (equal slices in the same order, the same devices allocated, the same
capacity consumed) and claims of one shape, a search that ends without a result on one ends
without a result on the other, after exactly as many steps. The dry-run asks the allocator about
one node of each shape instead of thousands: every node that a full node pool, or an oversized
claim, would make it try.

A shape is a tuple: compare shapes with ``==``. Slices are compared by value (with the text of
capacity quantities, which CEL can see), interned once per slice object.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from dralint.allocator.nodes import NodeSelectorError, node_matches
from dralint.allocator.prepare import holds
from dralint.api import model

PoolKey = tuple[str, str]  # (driver, pool name)


class SliceContents:
    """Small integers for the contents of slices: equal for slices equal in everything but their
    name, their pool's name and the node they name."""

    def __init__(self) -> None:
        self._ids: dict[int, tuple[model.ResourceSlice, int]] = {}  # id(slice) -> (slice, content id)
        self._buckets: dict[tuple[object, ...], list[tuple[model.ResourceSlice, int]]] = {}
        self._count = 0

    def __call__(self, resource_slice: model.ResourceSlice) -> int:
        known = self._ids.get(id(resource_slice))
        if known is not None:
            return known[1]
        bucket = self._buckets.setdefault(_coarse(resource_slice), [])
        content = next((found for other, found in bucket if _same(resource_slice, other)), None)
        if content is None:
            content = self._count
            self._count += 1
            bucket.append((resource_slice, content))
        self._ids[id(resource_slice)] = (resource_slice, content)  # kept, so that its id stays its own
        return content


def _coarse(resource_slice: model.ResourceSlice) -> tuple[object, ...]:
    """A cheap hashable summary: slices with different summaries differ."""
    pool = resource_slice.pool
    devices = tuple(device.name for device in resource_slice.devices)
    counters = tuple(counter_set.name for counter_set in resource_slice.shared_counters)
    return (resource_slice.driver, pool.generation, pool.resource_slice_count, devices, counters)


def _same(a: model.ResourceSlice, b: model.ResourceSlice) -> bool:
    return (
        a.driver == b.driver
        and a.pool.generation == b.pool.generation
        and a.pool.resource_slice_count == b.pool.resource_slice_count
        and a.node_selector == b.node_selector
        and a.all_nodes == b.all_nodes
        and a.per_device_node_selection == b.per_device_node_selection
        and a.shared_counters == b.shared_counters
        and len(a.devices) == len(b.devices)
        and all(_same_device(x, y) for x, y in zip(a.devices, b.devices, strict=True))
    )


def _same_device(a: model.Device, b: model.Device) -> bool:
    return a is b or (a == b and (a.capacity is b.capacity or _capacity_texts(a) == _capacity_texts(b)))


def _capacity_texts(device: model.Device) -> tuple[tuple[str, str], ...]:
    """Quantities compare by value; CEL also sees how they were written (``isInteger()`` of 1000m)."""
    return tuple((name, capacity.value.text) for name, capacity in device.capacity.items())


def static_shape(
    node: model.Node, keys: Sequence[PoolKey], slices: Sequence[model.ResourceSlice], contents: SliceContents
) -> tuple[tuple[object, ...], tuple[tuple[str, int], ...]]:
    """The shape of ``node``'s view (its pools ``keys`` and their ``slices``, in input order) without
    what is allocated: each slice's content, driver, the rank of its pool among the view's pools of
    its driver and its own rank in its pool (the orders the allocator sorts by), and how it relates
    to the node. Also each pool's (driver, rank), in the order of ``keys``: what stands for its name."""
    pool_rank = pool_ranks(keys)
    in_pool: dict[PoolKey, list[str]] = {}
    for resource_slice in slices:
        in_pool.setdefault((resource_slice.driver, resource_slice.pool.name), []).append(resource_slice.name)
    parts: list[object] = []
    for resource_slice in slices:
        key = (resource_slice.driver, resource_slice.pool.name)
        names = in_pool[key]
        # Ties between equal names are broken by input order, as the allocator's stable sort does.
        rank = sorted(names).index(resource_slice.name), names.index(resource_slice.name)
        relation = _relation(node, resource_slice)
        parts.append((contents(resource_slice), resource_slice.driver, pool_rank[key], rank, relation))
    return tuple(parts), tuple((key[0], pool_rank[key]) for key in keys)


def pool_ranks(keys: Sequence[PoolKey]) -> dict[PoolKey, int]:
    """Each pool's rank among the pools of its driver, by name: the order the allocator takes pools in,
    and what stands for a pool's name in a shape."""
    pool_names: dict[str, list[str]] = {}
    for driver, pool in keys:
        pool_names.setdefault(driver, []).append(pool)
    return {(driver, pool): n for driver, names in pool_names.items() for n, pool in enumerate(sorted(names))}


def pool_state(
    held: Sequence[model.DeviceRequestAllocationResult], *, consumable_capacity: bool
) -> tuple[frozenset[str], frozenset[str], frozenset[tuple[str, frozenset[tuple[str, Fraction]]]]]:
    """What :func:`dralint.allocator.prepare.allocated_state` makes of one pool's allocation results,
    by device name: the devices held exclusively, those shared, and the capacity consumed of each."""
    exclusive: set[str] = set()
    shared: set[str] = set()
    consumed: dict[str, dict[str, Fraction]] = {}
    for result in held:
        holding = holds(result, consumable_capacity=consumable_capacity)
        if holding is None:
            continue
        if holding == "shared":
            shared.add(result.device)
            if result.consumed_capacity is not None:
                totals = consumed.setdefault(result.device, {})
                for name, amount in result.consumed_capacity.items():
                    totals[name] = totals.get(name, Fraction(0)) + amount.value
        else:
            exclusive.add(result.device)
    capacity = frozenset((device, frozenset(totals.items())) for device, totals in consumed.items())
    return frozenset(exclusive), frozenset(shared), capacity


def _relation(node: model.Node, resource_slice: model.ResourceSlice) -> object:
    """How the slice selects the node: by its name, by a selector (whether it matches), or per device."""
    if resource_slice.node_name:
        return "self" if resource_slice.node_name == node.name else ("other", resource_slice.node_name)
    if resource_slice.per_device_node_selection or any(
        d.node_name or d.node_selector is not None or d.all_nodes for d in resource_slice.devices
    ):
        return ("node", node.name, tuple(sorted(node.labels.items())))  # per device: only this node is alike
    if resource_slice.all_nodes or resource_slice.node_selector is None:
        return "all" if resource_slice.all_nodes else None
    try:
        return node_matches(node, None, None, resource_slice.node_selector)
    except NodeSelectorError:
        return ("node", node.name)  # the allocator fails on it: nothing to share
