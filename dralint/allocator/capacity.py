"""Consumable capacity: consumed amounts, request policies and the capacity fit (spec §8).

Counterpart: ``consumable_capacity.go`` (``CmpRequestOverCapacity``, ``calculateConsumedCapacity``,
``fillEmptyRequest``, ``roundUpRange``, ``roundUpValidValues``, ``GetConsumedCapacityFromRequest``,
``violatesPolicy``). Pure functions; amounts are exact integers in nano units, each paired with
the quantity upstream would record.
"""

from __future__ import annotations

from collections.abc import Mapping

from dralint.allocator.devices import NANO, CapacityInfo, nano
from dralint.quantity import Quantity

# One requested or consumed amount: (nano units, the quantity to report).
Amount = tuple[int, Quantity]


def go_value(value: int) -> int:
    """``Quantity.Value()`` of a nano amount: rounded up, away from zero."""
    whole, rest = divmod(abs(value), NANO)
    whole += 1 if rest else 0
    return whole if value >= 0 else -whole


def requested_amounts(requests: Mapping[str, Quantity]) -> dict[str, Amount]:
    """A request's ``capacity.requests`` in the form the functions below take."""
    return {name: (nano(q), q) for name, q in requests.items()}


def consumed_amount(requested: Amount | None, capacity: CapacityInfo) -> tuple[Amount, bool]:
    """``calculateConsumedCapacity``; the flag says the amount is the policy default itself."""
    policy = capacity.policy
    if requested is None:
        if capacity.default is not None:
            return (nano(capacity.default), capacity.default), True
        return (capacity.value, capacity.quantity), False
    if policy is None:
        return requested, False
    valid_range = policy.valid_range
    if valid_range is not None and valid_range.min is not None:
        return _round_up_range(requested, valid_range.min, valid_range.step), False
    if policy.valid_values:
        for valid in policy.valid_values:  # ascending, by API validation
            if requested[0] <= nano(valid):
                return (nano(valid), valid), False
    return requested, False


def _round_up_range(requested: Amount, minimum: Quantity, step: Quantity | None) -> Amount:
    """``roundUpRange``: at least ``min``, then up to ``min + n*step`` in whole units."""
    min_nano = nano(minimum)
    if requested[0] < min_nano:
        return min_nano, minimum
    if step is None:
        return requested
    step_int, min_int = go_value(nano(step)), go_value(min_nano)
    added = go_value(requested[0]) - min_int
    n = _go_div(added, step_int)
    if _go_mod(added, step_int) != 0:
        n += 1
    value = min_int + step_int * n
    return value * NANO, Quantity(value, "BinarySI")


def _go_div(a: int, b: int) -> int:
    """Go integer division (truncates towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _go_mod(a: int, b: int) -> int:
    """Go ``%`` (sign of the dividend)."""
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def violates_policy(amount: Amount, is_default: bool, capacity: CapacityInfo) -> bool:
    """``violatesPolicy``: the amount is not allowed by the capacity's request policy.

    Upstream skips the check when the amount is (Go-identical to) the default; dralint skips it
    when the amount came from the default, which differs only for policies whose default is
    itself invalid (spec §8.2).
    """
    policy = capacity.policy
    if policy is None or is_default:
        return False
    valid_range = policy.valid_range
    if valid_range is not None:
        if valid_range.max is not None and amount[0] > nano(valid_range.max):
            return True
        if valid_range.step is not None:
            minimum = go_value(nano(valid_range.min)) if valid_range.min is not None else 0
            if _go_mod(go_value(amount[0]) - minimum, go_value(nano(valid_range.step))) != 0:
                return True
        return False
    if policy.valid_values:
        return all(amount[0] != nano(valid) for valid in policy.valid_values)
    return False


def capacity_fits(
    requests: Mapping[str, Amount] | None,
    capacities: tuple[CapacityInfo, ...],
    aggregated: Mapping[str, int] | None,
    allocating: Mapping[str, int] | None,
) -> bool | None:
    """``CmpRequestOverCapacity``: ``None`` (an error upstream) when a requested capacity is
    missing on the device, ``False`` on a policy violation or when the device's remaining
    capacity is too small, else ``True``."""
    if requests:
        names = {c.name for c in capacities}
        if any(name not in names for name in requests):
            return None
    for capacity in capacities:
        amount, is_default = consumed_amount(requests.get(capacity.name) if requests else None, capacity)
        if violates_policy(amount, is_default, capacity):
            return False
        total = amount[0]
        if aggregated is not None:
            total += aggregated.get(capacity.name, 0)
        if allocating is not None:
            total += allocating.get(capacity.name, 0)
        if total > capacity.value:
            return False
    return True


def consumed_capacity(requests: Mapping[str, Amount] | None, capacities: tuple[CapacityInfo, ...]) -> dict[str, Amount]:
    """``GetConsumedCapacityFromRequest``: the amount of every capacity of the device."""
    return {
        capacity.name: consumed_amount(requests.get(capacity.name) if requests else None, capacity)[0]
        for capacity in capacities
    }
