"""Consumable capacity: consumed amounts and request-policy violations (spec §8.1, §8.2)."""

from __future__ import annotations

import pytest

from dralint.allocator.capacity import consumed_amount, requested_amounts, violates_policy
from dralint.allocator.devices import CapacityInfo
from dralint.api import model
from dralint.apimachinery.quantity import parse_quantity


def _capacity(value: str, policy: dict[str, object] | None = None) -> CapacityInfo:
    data: dict[str, object] = {"value": value}
    if policy is not None:
        data["requestPolicy"] = policy
    device = model.device({"name": "d", "capacity": {"c": data}})
    return CapacityInfo("c", device.capacity["c"])


RANGE = {"default": "2", "validRange": {"min": "2", "step": "2", "max": "4"}}
VALUES = {"default": "1", "validValues": ["1", "3", "8"]}


@pytest.mark.parametrize(
    ("policy", "requested", "expected"),
    [
        (None, None, "10"),  # nothing requested, no policy: the whole capacity
        (RANGE, None, "2"),  # nothing requested: the default
        (None, "3", "3"),  # no policy: as requested
        (RANGE, "1", "2"),  # below min: min
        (RANGE, "3", "4"),  # step round-up: 2 + 1*2
        (RANGE, "500m", "2"),  # fractional below min
        ({"validRange": {"min": "2"}}, "3", "3"),  # no step: as requested
        (VALUES, "2", "3"),  # first valid value above
        (VALUES, "9", "9"),  # above every valid value: unchanged
    ],
)
def test_consumed_amount_follows_the_request_policy(policy: object, requested: str | None, expected: str) -> None:
    capacity = _capacity("10", policy)  # type: ignore[arg-type]
    wanted = requested_amounts({"c": parse_quantity(requested)})["c"] if requested is not None else None
    amount, _ = consumed_amount(wanted, capacity)
    assert amount[1].value == parse_quantity(expected).value


def test_consumed_amount_from_step_rounding_is_a_binary_si_integer() -> None:
    amount, _ = consumed_amount(requested_amounts({"c": parse_quantity("3")})["c"], _capacity("10", RANGE))
    assert amount[1].format == "BinarySI" and amount[1].canonical() == "4"


@pytest.mark.parametrize(
    ("policy", "amount", "violates"),
    [
        (None, "7", False),
        (RANGE, "6", True),  # above max
        (RANGE, "3", True),  # not on a step
        (RANGE, "4", False),
        (VALUES, "3", False),
        (VALUES, "5", True),  # not a valid value
    ],
)
def test_violates_policy(policy: object, amount: str, violates: bool) -> None:
    capacity = _capacity("10", policy)  # type: ignore[arg-type]
    assert violates_policy(requested_amounts({"c": parse_quantity(amount)})["c"], False, capacity) is violates


def test_default_amount_is_never_a_violation() -> None:
    capacity = _capacity("10", {"default": "5", "validValues": ["1"]})
    amount, is_default = consumed_amount(None, capacity)
    assert is_default and not violates_policy(amount, is_default, capacity)
