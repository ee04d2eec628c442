"""Consumable capacity: consumed amounts, request policies and the capacity fit (spec §8).

Counterpart: ``consumable_capacity.go`` (``CmpRequestOverCapacity``, ``calculateConsumedCapacity``,
``fillEmptyRequest``, ``roundUpRange``, ``roundUpValidValues``, ``GetConsumedCapacityFromRequest``,
``violatesPolicy``, and with DRAFractionalCapacityRange ``useMilli``, ``safeMilliValue``). Pure
functions; amounts are exact integers in nano units, each paired with the quantity upstream would
record. What a request asks of a device does not change during an allocation, so it is worked out
once (:class:`Demand`) and only the sums are redone per check.

A request the milli-unit arithmetic cannot represent (finer than 1m) is a fatal error upstream
(``errCapacityRequestNotRepresentable``); here it only fails the policy, so the device is skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from dralint.allocator.devices import NANO, CapacityInfo, nano
from dralint.apimachinery.quantity import Quantity

# One requested or consumed amount: (nano units, the quantity to report).
Amount = tuple[int, Quantity]
_NANO_PER_MILLI = NANO // 1000
_INT64 = (-(2**63), 2**63 - 1)


def go_value(value: int) -> int:
    """``Quantity.Value()`` of a nano amount: rounded up, away from zero."""
    whole, rest = divmod(abs(value), NANO)
    whole += 1 if rest else 0
    return whole if value >= 0 else -whole


def requested_amounts(requests: Mapping[str, Quantity]) -> dict[str, Amount]:
    """A request's ``capacity.requests`` in the form the functions below take."""
    return {name: (nano(q), q) for name, q in requests.items()}


def safe_milli(value: int) -> int | None:
    """``safeMilliValue`` of a nano amount: its milli value when that is exact and an int64."""
    milli, rest = divmod(value, _NANO_PER_MILLI)
    if rest or not _INT64[0] <= milli <= _INT64[1]:
        return None
    return milli


def use_milli(capacity: CapacityInfo, fractional: bool) -> bool:
    """``useMilli``: DRAFractionalCapacityRange is on, min, max and step are exact int64 milli values
    and the step is at least 1m."""
    if not fractional:
        return False
    for value in (capacity.min, capacity.max, capacity.step):
        if value is not None and safe_milli(value) is None:
            return False
    step = safe_milli(capacity.step) if capacity.step is not None else None
    return step is None or step >= 1


def consumed_amount(
    requested: Amount | None, capacity: CapacityInfo, *, fractional: bool = False
) -> tuple[Amount, bool]:
    """``calculateConsumedCapacity``; the flag says the amount is the policy default itself.
    ``fractional``: DRAFractionalCapacityRange is on."""
    if requested is None:
        if capacity.default is not None:
            return (nano(capacity.default), capacity.default), True
        return (capacity.value, capacity.quantity), False
    policy = capacity.policy
    if policy is None:
        return requested, False
    if capacity.min is not None:
        return _round_up_range(requested, capacity, fractional), False
    for valid in capacity.valid_values:  # ascending, by API validation
        if requested[0] <= valid[0]:
            return valid, False
    return requested, False


def _round_up_range(requested: Amount, capacity: CapacityInfo, fractional: bool) -> Amount:
    """``roundUpRange``: at least ``min``, then up to ``min + n*step`` in whole units (milli units when
    :func:`use_milli`)."""
    minimum = capacity.min
    assert minimum is not None and capacity.policy is not None and capacity.policy.valid_range is not None
    if requested[0] < minimum:
        assert capacity.policy.valid_range.min is not None
        return minimum, capacity.policy.valid_range.min
    if capacity.step is None:
        return requested
    step_format = capacity.policy.valid_range.step.format if capacity.policy.valid_range.step else "BinarySI"
    if use_milli(capacity, fractional):
        requested_milli = safe_milli(requested[0])
        if requested_milli is None:
            return requested  # not representable (see the module docstring): the policy check refuses it
        step_milli, min_milli = safe_milli(capacity.step), safe_milli(minimum)
        assert step_milli is not None and min_milli is not None
        added = requested_milli - min_milli
        n = _go_div(added, step_milli) + (1 if _go_mod(added, step_milli) != 0 else 0)
        milli = min_milli + step_milli * n
        # NewQuantity for whole values (compact), NewMilliQuantity otherwise; the step's format
        return milli * _NANO_PER_MILLI, Quantity(Fraction(milli, 1000), step_format)
    step_int, min_int = go_value(capacity.step), go_value(minimum)
    added = go_value(requested[0]) - min_int
    n = _go_div(added, step_int)
    if _go_mod(added, step_int) != 0:
        n += 1
    value = min_int + step_int * n
    # (the 1.37 code, which has DRAFractionalCapacityRange, formats like the step; before, BinarySI)
    return value * NANO, Quantity(value, step_format if fractional else "BinarySI")


def _go_div(a: int, b: int) -> int:
    """Go integer division (truncates towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _go_mod(a: int, b: int) -> int:
    """Go ``%`` (sign of the dividend)."""
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def violates_policy(amount: Amount, is_default: bool, capacity: CapacityInfo, *, fractional: bool = False) -> bool:
    """``violatesPolicy``: the amount is not allowed by the capacity's request policy.

    Upstream skips the check when the amount is (Go-identical to) the default; dralint skips it
    when the amount came from the default, which differs only for policies whose default is
    itself invalid (spec §8.2).
    """
    policy = capacity.policy
    if policy is None or is_default:
        return False
    if policy.valid_range is not None:
        if capacity.max is not None and amount[0] > capacity.max:
            return True
        if capacity.step is not None and use_milli(capacity, fractional):
            requested = safe_milli(amount[0])
            step, minimum = safe_milli(capacity.step), safe_milli(capacity.min or 0)
            assert step is not None and minimum is not None
            return requested is None or _go_mod(requested - minimum, step) != 0
        if capacity.step is not None:
            minimum = go_value(capacity.min) if capacity.min is not None else 0
            if _go_mod(go_value(amount[0]) - minimum, go_value(capacity.step)) != 0:
                return True
        return False
    if capacity.valid_values:
        return all(amount[0] != valid[0] for valid in capacity.valid_values)
    return False


class Demand:
    """What one request asks of one device, independent of what is already in use.

    ``missing``: the request names a capacity the device lacks (upstream's error);
    ``violation``: an amount breaks the device's request policy; ``items``: per capacity
    (name, amount in nano units, capacity value in nano units); ``amounts``: per capacity the
    amount as recorded in ``consumedCapacity``.
    """

    __slots__ = ("amounts", "items", "missing", "violation")

    def __init__(
        self,
        requests: Mapping[str, Amount] | None,
        capacities: tuple[CapacityInfo, ...],
        *,
        fractional: bool = False,
    ) -> None:
        self.missing = bool(requests) and any(name not in {c.name for c in capacities} for name in requests or ())
        self.violation = False
        self.amounts: dict[str, Amount] = {}
        items = []
        for capacity in capacities:
            requested = requests.get(capacity.name) if requests else None
            amount, is_default = consumed_amount(requested, capacity, fractional=fractional)
            self.amounts[capacity.name] = amount
            if violates_policy(amount, is_default, capacity, fractional=fractional):
                self.violation = True
            items.append((capacity.name, amount[0], capacity.value))
        self.items = tuple(items)


def demand_fits(
    demand: Demand, aggregated: Mapping[str, int] | None, allocating: Mapping[str, int] | None
) -> bool | None:
    """``CmpRequestOverCapacity``: ``None`` for a missing capacity (an error upstream), ``False``
    on a policy violation or when the remaining capacity is too small, else ``True``."""
    if demand.missing:
        return None
    if demand.violation:
        return False
    for name, amount, value in demand.items:
        total = amount
        if aggregated is not None:
            total += aggregated.get(name, 0)
        if allocating is not None:
            total += allocating.get(name, 0)
        if total > value:
            return False
    return True
