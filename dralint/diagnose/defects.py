"""Defects of the inventory itself: pools the scheduler cannot use or uses differently than meant.

Looks at the whole cluster at once (the allocator only ever sees one node's view): pools whose
newest generation lacks slices or has too many, pools spread over several generations, device
and counter-set names used twice in one pool, counters consumed but never declared, devices
that consume more than their counter set holds, counters already overcommitted by existing
allocations, attributes published with different types by one driver, and pool names shared by
drivers that both use counters (the allocator's counter bookkeeping is keyed by pool name only),
and attributes given twice on a device (once qualified with the driver's domain, once not).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import Enum, auto

from dralint.api import model
from dralint.apimachinery.fieldpath import Key
from dralint.apimachinery.quantity import Quantity
from dralint.cluster.inventory import AllocatedClaim, Origin, SliceEntry
from dralint.dataclass import dataclass
from dralint.suggest import closest

KIND_NAMES = {
    "int": "an int",
    "bool": "a bool",
    "string": "a string",
    "version": "a version",
    "ints": "a list of ints",
    "bools": "a list of bools",
    "strings": "a list of strings",
    "versions": "a list of versions",
    "": "empty",
}


class Kind(Enum):
    """What is wrong with the inventory (``checks/inventory_defects.py`` maps each kind to its rule)."""

    INCOMPLETE_POOL = auto()
    MIXED_GENERATIONS = auto()
    DUPLICATE_DEVICE = auto()
    COUNTER_NOT_DECLARED = auto()
    CONSUMES_MORE_THAN_COUNTER = auto()
    COUNTERS_OVERCOMMITTED = auto()
    ATTRIBUTE_TYPE_INCONSISTENT = auto()
    DUPLICATE_COUNTER_SET = auto()
    POOL_NAME_SHARED_WITH_COUNTERS = auto()
    ATTRIBUTE_GIVEN_TWICE = auto()


@dataclass(frozen=True, slots=True)
class Defect:
    kind: Kind
    message: str
    origin: Origin
    hint: str | None = None


def find(slices: Sequence[SliceEntry], allocated: Sequence[AllocatedClaim] = ()) -> list[Defect]:
    """Every inventory defect, pool by pool in input order, then per driver."""
    pools: dict[tuple[str, str], list[SliceEntry]] = {}
    for entry in slices:
        pools.setdefault((entry.slice.driver, entry.slice.pool.name), []).append(entry)
    used = _allocated_devices(allocated)
    defects: list[Defect] = []
    for key, entries in pools.items():
        defects.extend(_generations(key, entries))
        newest = max(e.slice.pool.generation for e in entries)
        current = [e for e in entries if e.slice.pool.generation == newest]
        defects.extend(_completeness(key, current))
        defects.extend(_duplicate_devices(key, current))
        defects.extend(_counters(key, current, used.get(key, set())))
    defects.extend(_attribute_types(slices))
    defects.extend(_qualified_twice(slices))
    defects.extend(_shared_pool_names(pools))
    return _unique(defects)


# Defects that make the allocator take no device of the pool on a node: an incomplete pool (spec §2.4),
# an invalid one (§2.5: duplicate device names; duplicate or missing counter sets and counters where
# the allocator checks counters).
_INVALID = (Kind.DUPLICATE_DEVICE,)
_INVALID_WITH_COUNTERS = (Kind.DUPLICATE_DEVICE, Kind.DUPLICATE_COUNTER_SET, Kind.COUNTER_NOT_DECLARED)


def unusable_pools(
    slices: Sequence[SliceEntry], *, counters_checked: bool
) -> dict[tuple[str, str], tuple[str, Defect, list[SliceEntry]]]:
    """(driver, pool) -> ``"incomplete"`` or ``"invalid"``, the defect that makes it so and the slices of its
    newest generation (the nodes they are on), for the pools the allocator takes no device of.

    ``counters_checked``: the allocator validates counter sets (PartitionableDevices on, counters in
    their own slices as from 1.35), so a missing or duplicate one makes the pool invalid too.
    """
    pools: dict[tuple[str, str], list[SliceEntry]] = {}
    for entry in slices:
        pools.setdefault((entry.slice.driver, entry.slice.pool.name), []).append(entry)
    invalid = _INVALID_WITH_COUNTERS if counters_checked else _INVALID
    out: dict[tuple[str, str], tuple[str, Defect, list[SliceEntry]]] = {}
    for key, entries in pools.items():
        newest = max(e.slice.pool.generation for e in entries)
        current = [e for e in entries if e.slice.pool.generation == newest]
        found = [("incomplete", d) for d in _completeness(key, current)]
        if not found:
            pool_defects = [*_duplicate_devices(key, current), *_counters(key, current, set())]
            found = [("invalid", d) for d in pool_defects if d.kind in invalid]
        if found:
            out[key] = (found[0][0], found[0][1], current)
    return out


def _unique(defects: list[Defect]) -> list[Defect]:
    """One defect per place and message: an Inventory entry generates the same defect on every node."""
    seen: set[tuple[Kind, int, tuple[object, ...], str]] = set()
    out = []
    for defect in defects:
        key = (defect.kind, id(defect.origin.obj), defect.origin.path, defect.message)
        if key not in seen:
            seen.add(key)
            out.append(defect)
    return out


def _pool_text(key: tuple[str, str]) -> str:
    return f"{key[0]}/{key[1]}"


def _generations(key: tuple[str, str], entries: list[SliceEntry]) -> Iterator[Defect]:
    generations = sorted({e.slice.pool.generation for e in entries})
    if len(generations) < 2:
        return
    stale = next(e for e in entries if e.slice.pool.generation != generations[-1])
    listed = ", ".join(str(g) for g in generations[:-1]) + f" and {generations[-1]}"
    yield Defect(
        Kind.MIXED_GENERATIONS,
        f"pool {_pool_text(key)} has slices of generations {listed}; only generation {generations[-1]} is used",
        stale.at(("spec", "pool", "generation")),
        "a driver publishes a new generation by replacing every slice of the pool; remove the stale slices",
    )


def _completeness(key: tuple[str, str], current: list[SliceEntry]) -> Iterator[Defect]:
    counts = sorted({e.slice.pool.resource_slice_count for e in current})
    first = current[0]
    if not key[1] or counts[0] <= 0:
        return  # no pool name or no positive count: API validation reports the slice
    where = first.at(("spec", "pool", "resourceSliceCount"))
    if len(counts) > 1:
        yield Defect(
            Kind.INCOMPLETE_POOL,
            f"slices of pool {_pool_text(key)} disagree on resourceSliceCount ({', '.join(map(str, counts))})",
            where,
            "every slice of a pool generation must give the same resourceSliceCount",
        )
    elif counts[0] != len(current):
        yield Defect(
            Kind.INCOMPLETE_POOL,
            f"pool {_pool_text(key)} generation {first.slice.pool.generation} has {len(current)} "
            f"slice{'s' if len(current) != 1 else ''} but resourceSliceCount is {counts[0]}",
            where,
            "the scheduler allocates nothing from an incomplete pool; "
            + (
                f"publish all {counts[0]} slices or set resourceSliceCount to {len(current)}"
                if len(current) < counts[0]
                else f"remove the extra slices or set resourceSliceCount to {len(current)}"
            ),
        )


def _duplicate_devices(key: tuple[str, str], current: list[SliceEntry]) -> Iterator[Defect]:
    seen: dict[str, SliceEntry] = {}
    for entry in current:
        if entry.slice.shared_counters:
            continue  # counter slices' devices are ignored by the allocator
        for i, device in enumerate(entry.slice.devices):
            earlier = seen.get(device.name)
            if earlier is None:
                seen[device.name] = entry
                continue
            # Duplicates inside one written slice are an API validation error, reported there.
            if earlier is entry and not entry.generated:
                continue
            hint = "the scheduler treats a pool with duplicate device names as invalid and allocates nothing from it"
            if entry.generated:
                message = f"the name pattern generates device name {device.name} more than once in a pool"
                hint = "put {index} in the name pattern; " + hint
            else:
                message = (
                    f"device name {device.name} appears in slices {earlier.slice.name} and {entry.slice.name} "
                    f"of pool {_pool_text(key)}"
                )
            yield Defect(Kind.DUPLICATE_DEVICE, message, entry.device_at(i, ("name",)), hint)


def _counters(key: tuple[str, str], current: list[SliceEntry], used: set[str]) -> Iterator[Defect]:
    sets: dict[str, model.CounterSet] = {}
    declared_in: dict[str, SliceEntry] = {}
    for entry in current:
        for s, counter_set in enumerate(entry.slice.shared_counters):
            if counter_set.name in sets:
                if declared_in[counter_set.name] is entry and not entry.generated:
                    continue  # twice in one written slice: an API validation error, reported there
                yield Defect(
                    Kind.DUPLICATE_COUNTER_SET,
                    f"counter set {counter_set.name} is declared twice in pool {_pool_text(key)}",
                    entry.at(("spec", "sharedCounters", s, "name")),
                    "the scheduler treats the pool as invalid; give every counter set a unique name",
                )
            else:
                sets[counter_set.name] = counter_set
                declared_in[counter_set.name] = entry
    consumed: dict[tuple[str, str], Quantity] = {}
    for entry in current:
        if entry.slice.shared_counters:
            continue
        for i, device in enumerate(entry.slice.devices):
            for c, consumption in enumerate(device.consumes_counters):
                where: tuple[str | int, ...] = ("consumesCounters", c)
                declared = sets.get(consumption.counter_set)
                if declared is None:
                    yield _undeclared_set(key, device, consumption, sets, entry.device_at(i, (*where, "counterSet")))
                    continue
                for name, amount in consumption.counters.items():
                    total = declared.counters.get(name)
                    if total is None:
                        yield Defect(
                            Kind.COUNTER_NOT_DECLARED,
                            f"device {device.name} consumes counter {name} which counter set "
                            f"{declared.name} of pool {_pool_text(key)} does not declare",
                            entry.device_at(i, (*where, "counters")),
                            _did_you_mean(name, declared.counters),
                        )
                    elif amount > total:
                        yield Defect(
                            Kind.CONSUMES_MORE_THAN_COUNTER,
                            f"device {device.name} consumes {amount} of counter {declared.name}/{name} "
                            f"which only holds {total}",
                            entry.device_at(i, (*where, "counters")),
                            "the device can never be allocated",
                        )
                    elif device.name in used:
                        key2 = (declared.name, name)
                        consumed[key2] = consumed[key2].add(amount) if key2 in consumed else amount
    for (set_name, name), amount in consumed.items():
        total = sets[set_name].counters[name]
        if amount > total:
            entry = next(e for e in current if any(c.name == set_name for c in e.slice.shared_counters))
            index = next(i for i, c in enumerate(entry.slice.shared_counters) if c.name == set_name)
            yield Defect(
                Kind.COUNTERS_OVERCOMMITTED,
                f"allocated devices consume {amount} of counter {set_name}/{name} in pool {_pool_text(key)}, "
                f"which only holds {total}",
                entry.at(("spec", "sharedCounters", index, "counters")),
                "no further device of the pool that consumes this counter can be allocated",
            )


def _undeclared_set(
    key: tuple[str, str],
    device: model.Device,
    consumption: model.DeviceCounterConsumption,
    sets: dict[str, model.CounterSet],
    origin: Origin,
) -> Defect:
    return Defect(
        Kind.COUNTER_NOT_DECLARED,
        f"device {device.name} consumes counters of counter set {consumption.counter_set}, "
        f"which no slice of pool {_pool_text(key)} declares",
        origin,
        _did_you_mean(consumption.counter_set, sets) or "the scheduler treats the pool as invalid",
    )


def _did_you_mean(name: str, known: Iterable[str]) -> str | None:
    match = closest(name, known)
    return f"did you mean {match}?" if match else None


def _allocated_devices(allocated: Sequence[AllocatedClaim]) -> dict[tuple[str, str], set[str]]:
    out: dict[tuple[str, str], set[str]] = {}
    for entry in allocated:
        if entry.claim.allocation is None:
            continue
        for result in entry.claim.allocation.results:
            if not result.admin_access:
                out.setdefault((result.driver, result.pool), set()).add(result.device)
    return out


@dataclass(slots=True)
class _KindSeen:
    count: int
    entry: SliceEntry
    index: int
    key: str  # the attribute key as written on the device


def _attribute_types(slices: Sequence[SliceEntry]) -> Iterator[Defect]:
    kinds: dict[tuple[str, str], dict[str, _KindSeen]] = {}  # (driver, qualified name) -> kind -> first use
    for entry in slices:
        driver = entry.slice.driver
        for i, device in enumerate(entry.slice.devices):
            for name, attribute in device.attributes.items():
                qualified = name if "/" in name else f"{driver}/{name}"
                per_kind = kinds.setdefault((driver, qualified), {})
                seen = per_kind.get(attribute.kind)
                if seen is None:
                    per_kind[attribute.kind] = _KindSeen(1, entry, i, name)
                else:
                    seen.count += 1
    for (driver, name), per_kind in kinds.items():
        if len(per_kind) < 2:
            continue
        ranked = sorted(per_kind.items(), key=lambda item: -item[1].count)
        text = " and ".join(
            f"{KIND_NAMES.get(kind, kind)} on {seen.count} device{'s' if seen.count != 1 else ''}"
            for kind, seen in ranked
        )
        odd = ranked[-1][1]
        yield Defect(
            Kind.ATTRIBUTE_TYPE_INCONSISTENT,
            f"attribute {name} of driver {driver} is {text}",
            odd.entry.device_at(odd.index, ("attributes", Key(odd.key))),
            "selectors comparing the attribute fail or raise errors on the devices with the other type",
        )


def _qualified_twice(slices: Sequence[SliceEntry]) -> Iterator[Defect]:
    """Attributes (or capacities) given both as ``name`` and as ``<driver>/name`` on one device."""
    for entry in slices:
        driver = entry.slice.driver
        for i, device in enumerate(entry.slice.devices):
            for field_name, keys in (("attributes", device.attributes), ("capacity", device.capacity)):
                for key in keys:
                    if "/" not in key and f"{driver}/{key}" in keys:
                        noun = "attribute" if field_name == "attributes" else "capacity"
                        yield Defect(
                            Kind.ATTRIBUTE_GIVEN_TWICE,
                            f"device {device.name} gives {noun} {key} twice, as {key} and as {driver}/{key}",
                            entry.device_at(i, (field_name, Key(f"{driver}/{key}"))),
                            "selectors see one of the two values, and which one is not defined; keep one spelling",
                        )


def _shared_pool_names(pools: dict[tuple[str, str], list[SliceEntry]]) -> Iterator[Defect]:
    with_counters: dict[str, list[tuple[str, SliceEntry]]] = {}
    for (driver, pool), entries in pools.items():
        counter_slice = next((e for e in entries if e.slice.shared_counters), None)
        if counter_slice is not None:
            with_counters.setdefault(pool, []).append((driver, counter_slice))
    for pool, users in with_counters.items():
        if len(users) < 2:
            continue
        drivers = ", ".join(sorted(d for d, _ in users))
        yield Defect(
            Kind.POOL_NAME_SHARED_WITH_COUNTERS,
            f"drivers {drivers} both publish pool {pool} with shared counters",
            users[1][1].at(("spec", "pool", "name")),
            "the scheduler keys its counter bookkeeping by pool name alone, so the drivers' counters interfere; "
            "name pools per driver",
        )
