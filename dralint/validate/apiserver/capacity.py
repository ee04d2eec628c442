"""Device capacities of a ResourceSlice and their request policies (consumable capacity, RS-28…RS-39)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.api import read
from dralint.api.meta import quantity
from dralint.apimachinery.fieldpath import Path
from dralint.apimachinery.quantity import Quantity
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.errors import FieldError, duplicate, forbidden, invalid, required, too_many

MAX_VALID_VALUES = 10
_MAX_INT64 = 2**63 - 1


def capacity_item(entry: Any, path: Path, b: Behaviour, *, multiple: bool) -> list[FieldError]:
    """One ``capacity`` entry: a request policy needs ``allowMultipleAllocations: true``."""
    policy = read.mapping(entry, "requestPolicy")
    if policy is None:
        return []
    if not multiple:
        return [
            forbidden(
                (*path, "requestPolicy"),
                "allowMultipleAllocations must be true",
                hint="set allowMultipleAllocations: true on the device, or remove the requestPolicy",
            )
        ]
    value = quantity(entry.get("value")) if isinstance(entry, Mapping) else None
    if value is None:
        return []  # an unparsable quantity is a decoding error, reported by schema validation
    return _request_policy(value, policy, (*path, "requestPolicy"), b)


def _request_policy(capacity: Quantity, policy: Mapping[str, Any], path: Path, b: Behaviour) -> list[FieldError]:
    values = [quantity(v) for v in read.items(policy, "validValues")]
    valid_range = read.mapping(policy, "validRange")
    default = quantity(policy.get("default"))
    if values and valid_range is not None:
        return [
            forbidden(
                path,
                'exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time',
                hint="keep either validValues or validRange",
            )
        ]
    if values:
        if default is None:
            return [
                required((*path, "default"), "required when validValues is defined", hint="set the default request")
            ]
        return _valid_values(default, capacity, values, (*path, "validValues"), b)
    if valid_range is not None:
        if default is None:
            return [required((*path, "default"), "required when validRange is defined", hint="set the default request")]
        return _valid_range(default, capacity, valid_range, path, b)
    return []


def _valid_values(
    default: Quantity, capacity: Quantity, values: list[Quantity | None], path: Path, b: Behaviour
) -> list[FieldError]:
    out: list[FieldError] = []
    parsed = [v for v in values if v is not None]
    if len(parsed) != len(values):
        return out
    for index in range(len(parsed) - 1):
        if parsed[index] > parsed[index + 1]:
            out.append(
                invalid(
                    (*path, index + 1),
                    str(parsed[index + 1]),
                    "values must be sorted in ascending order",
                    hint="list the valid values from smallest to largest",
                )
            )
    not_listed = invalid(
        path,
        str(default),
        "default value is not valid according to the requestPolicy",
        hint="make the default one of the valid values",
    )
    if len(parsed) > MAX_VALID_VALUES and b.short_circuit_lists:
        # The oversized list is not walked, so the server never finds the default in it either.
        return [*out, too_many(path, len(parsed), MAX_VALID_VALUES), not_listed]
    fractional = b.enabled("DRAFractionalCapacityRange")
    seen: set[object] = set()
    for index, option in enumerate(parsed):
        if option > capacity:
            out.append(
                invalid(
                    (*path, index),
                    str(option),
                    f"option is larger than capacity value: {capacity}",
                    hint="every valid value must fit in the capacity",
                )
            )
        key: object = option.value if fractional else option.ceil_int()
        if key in seen:
            out.append(duplicate((*path, index), str(option)))
        seen.add(key)
    if len(parsed) > MAX_VALID_VALUES:
        out.append(too_many(path, len(parsed), MAX_VALID_VALUES))
    if default not in parsed:
        out.append(not_listed)
    return out


def _valid_range(
    default: Quantity, capacity: Quantity, valid_range: Mapping[str, Any], path: Path, b: Behaviour
) -> list[FieldError]:
    range_path = (*path, "validRange")
    minimum = quantity(valid_range.get("min"))
    maximum = quantity(valid_range.get("max")) if valid_range.get("max") is not None else None
    step = quantity(valid_range.get("step")) if valid_range.get("step") is not None else None
    if minimum is None:
        return [required((*range_path, "min"), "required when validRange is defined", hint="set the range's min")]
    out: list[FieldError] = []
    hint = "the range must lie within the capacity and contain the default"
    if minimum > capacity:
        out.append(
            invalid((*range_path, "min"), str(minimum), f"min is larger than capacity value: {capacity}", hint=hint)
        )
    default_low_at = (*range_path, "min") if b.range_default_errors_at_bound else (*range_path, "default")
    default_high_at = (*range_path, "max") if b.range_default_errors_at_bound else (*range_path, "default")
    if default < minimum:
        out.append(invalid(default_low_at, str(default), f"default is less than min: {minimum}", hint=hint))
    if maximum is not None:
        if minimum > maximum:
            out.append(invalid((*range_path, "max"), str(minimum), f"min is larger than max: {maximum}", hint=hint))
        if maximum > capacity:
            out.append(
                invalid((*range_path, "max"), str(maximum), f"max is larger than capacity value: {capacity}", hint=hint)
            )
        if default > maximum:
            out.append(invalid(default_high_at, str(default), f"default is more than max: {maximum}", hint=hint))
    use_milli = False
    named = {"default": default, "min": minimum, "max": maximum, "step": step}
    if b.range_guards and b.enabled("DRAFractionalCapacityRange"):
        use_milli = any(q is not None and not q.is_integer() for q in named.values())
        if use_milli:
            unsafe = [
                invalid(
                    (*range_path, name),
                    str(q),
                    "value cannot be represented as a milli value",
                    hint="use at most three decimal places (milli precision)",
                )
                for name, q in named.items()
                if q is not None and (q.value * 1000).denominator != 1
            ]
            if unsafe:
                return out + unsafe
    if step is None:
        return out
    step_path = (*range_path, "step")
    if step.sign() <= 0:
        if b.range_guards:
            out.append(invalid(step_path, str(step), "must be greater than zero", hint="use a positive step"))
            return out
        return out
    one_step = minimum.add(step)
    if one_step > capacity:
        out.append(
            invalid(
                step_path,
                str(step),
                f"one step {one_step} is larger than capacity value: {capacity}",
                hint="use a smaller step or a lower min",
            )
        )
    if b.range_guards and not use_milli:
        guards = []
        for name, q in named.items():
            if q is None:
                continue
            if q.sign() < 0:
                guards.append(
                    invalid((*range_path, name), str(q), "must be greater than or equal to 0", hint="use a value ≥ 0")
                )
            elif q.value > _MAX_INT64:
                guards.append(
                    invalid(
                        (*range_path, name),
                        str(q),
                        "must not be larger than 9223372036854775807",
                        hint="use a value that fits in 64 bits",
                    )
                )
        if guards:
            return out + guards
    for value in (default, maximum):
        if value is None:
            continue
        if use_milli:
            delta, unit = value.milli_value() - minimum.milli_value(), step.milli_value()
        else:
            delta, unit = value.ceil_int() - minimum.ceil_int(), step.ceil_int()
        if unit != 0 and delta % unit != 0:
            out.append(
                invalid(
                    step_path,
                    str(value),
                    f"value is not a multiple of a given step ({step}) from ({minimum})",
                    hint="default and max must be min plus a whole number of steps",
                )
            )
    return out
