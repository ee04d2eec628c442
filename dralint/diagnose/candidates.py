"""Each written request against the inventory devices it could get, without placing any pod.

For every request (and ``firstAvailable`` entry) of the ResourceClaims and ResourceClaimTemplates,
the devices its DeviceClass and its own selectors accept; then, per requested capacity, whether
any of them is large enough, whether their request policies allow the amount or round it up, and
whether the devices can be shared at all. These are the facts behind the capacity and sharing
findings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import Enum, auto

from dralint.allocator.capacity import consumed_amount, violates_policy
from dralint.allocator.devices import CapacityInfo, nano
from dralint.api import model
from dralint.api.requests import WrittenRequest
from dralint.apimachinery.fieldpath import Key, Path
from dralint.apimachinery.quantity import Quantity
from dralint.cel import CelError, compile_selector, device_value
from dralint.dataclass import dataclass
from dralint.suggest import closest


def matching_devices(
    request: WrittenRequest, class_devices: Sequence[tuple[str, model.Device]]
) -> list[tuple[str, model.Device]]:
    """The class's devices the request's own selectors accept (runtime errors count as no)."""
    return accepted_devices(request.spec.selectors, class_devices)


def accepted_devices(
    selectors: Sequence[model.DeviceSelector], devices: Iterable[tuple[str, model.Device]]
) -> list[tuple[str, model.Device]]:
    """The (driver, device) pairs every CEL selector accepts; a runtime error counts as no, and a
    selector that does not compile accepts nothing."""
    compiled = []
    for selector in selectors:
        if selector.cel is None:
            continue
        try:
            compiled.append(compile_selector(selector.cel.expression))
        except CelError:
            return []
    if not compiled:
        return list(devices)  # (no device value to build)
    out = []
    for driver, device in devices:
        value = device_value(driver, device)
        try:
            if all(c.matches(value) for c in compiled):
                out.append((driver, device))
        except CelError:
            continue
    return out


class CapacityKind(Enum):
    """What is wrong with a capacity request (``checks/capacity.py`` maps each kind to its rule)."""

    TOO_LARGE = auto()  # no matching device has the capacity, or enough of it
    POLICY_REFUSES = auto()  # every matching device's request policy refuses the amount
    POLICY_ROUNDS_UP = auto()  # the policies make the request consume more than written
    NOT_SHAREABLE = auto()  # no matching device can be shared: the pod gets a whole device


@dataclass(frozen=True, slots=True)
class CapacityProblem:
    kind: CapacityKind
    request: WrittenRequest
    capacity: str
    message: str
    hint: str | None = None

    @property
    def path(self) -> Path:
        return (*self.request.path, "capacity", "requests", Key(self.capacity))


def capacity_problems(
    request: WrittenRequest,
    devices: Sequence[tuple[str, model.Device]],
    offers: dict[str, list[Offer]] | None = None,
    *,
    fractional: bool = False,
) -> Iterator[CapacityProblem]:
    """Capacity requests no matching device can serve, that policies refuse or round up, or that take whole devices.

    ``offers`` keeps what :func:`_offers` finds in ``devices`` per capacity, for a caller that asks
    about many requests with the same devices (the requests of many claims of one class).
    ``fractional``: DRAFractionalCapacityRange is on (ranges round in milli units)."""
    if request.spec.capacity is None or not devices:
        return
    for name, wanted in sorted(request.spec.capacity.requests.items()):
        having = offers.get(name) if offers is not None else None
        if having is None:
            having = _offers(devices, name)
            if offers is not None:
                offers[name] = having
        if not having:
            known = sorted({c for _, d in devices for c in d.capacity})
            yield CapacityProblem(
                CapacityKind.TOO_LARGE,
                request,
                name,
                f"{request.owner} requests capacity {name} but none of the {len(devices)} matching devices has it",
                _capacity_hint(name, known),
            )
            continue
        largest = max(having, key=lambda offer: offer.capacity.value)
        big_enough = [offer for offer in having if offer.capacity.value >= wanted]
        if not big_enough:
            yield CapacityProblem(
                CapacityKind.TOO_LARGE,
                request,
                name,
                f"{request.owner} requests {wanted} of {name} but the largest matching device "
                f"({largest.device.name}) has {largest.capacity.value}",
            )
            continue
        # Once per distinct capacity: the devices of a large inventory share a handful.
        distinct: dict[model.DeviceCapacity, tuple[bool, Quantity | None, model.CapacityRequestPolicy | None]] = {}
        for offer in big_enough:
            if offer.capacity not in distinct:
                distinct[offer.capacity] = _policy(wanted, name, offer.capacity, fractional)
        verdicts = [distinct[offer.capacity] for offer in big_enough]
        allowed = [v for v in verdicts if v[0]]
        if not allowed:
            yield CapacityProblem(
                CapacityKind.POLICY_REFUSES,
                request,
                name,
                f"{request.owner} requests {wanted} of {name}, which the request policy of every matching device "
                f"refuses ({_describe(verdicts[0][2])})",
                "request an amount the policy allows",
            )
            continue
        rounded = [v for v in allowed if v[1] is not None and v[1] != wanted]
        if len(rounded) == len(allowed):
            consumed = rounded[0][1]
            yield CapacityProblem(
                CapacityKind.POLICY_ROUNDS_UP,
                request,
                name,
                f"{request.owner} requests {wanted} of {name} but the request policy makes it consume {consumed}",
                f"request {consumed} to make the amount explicit",
            )
        if not any(offer.shareable for offer in big_enough):
            yield CapacityProblem(
                CapacityKind.NOT_SHAREABLE,
                request,
                name,
                f"{request.owner} requests {wanted} of {name}, but no matching device allows multiple allocations: "
                f"the pod gets a whole device ({largest.capacity.value})",
                "drop the capacity request, or use devices with allowMultipleAllocations: true",
            )


@dataclass(slots=True)
class Offer:
    """The matching devices that publish one capacity object (generated devices share theirs)."""

    capacity: model.DeviceCapacity
    device: model.Device  # the first of them
    shareable: bool = False  # some of them allow multiple allocations


def _offers(devices: Sequence[tuple[str, model.Device]], name: str) -> list[Offer]:
    """The devices that have capacity ``name``, grouped by its object, in the order of their first device.

    The first device with some property of its capacity (the largest, the first large enough) is
    then the first device of the first group with that property.
    """
    groups: dict[int, Offer] = {}
    for _, device in devices:
        capacity = device.capacity.get(name)
        if capacity is None:
            continue
        offer = groups.get(id(capacity))
        if offer is None:
            offer = groups[id(capacity)] = Offer(capacity, device)
        offer.shareable = offer.shareable or device.allow_multiple_allocations is True
    return list(groups.values())


def _capacity_hint(name: str, known: list[str]) -> str | None:
    unqualified = name.partition("/")[2] or name
    same = [k for k in known if (k.partition("/")[2] or k) == unqualified]
    if same:
        return f"the allocator compares capacity names exactly, without domains: the devices publish {same[0]}"
    guess = closest(name, known)
    if guess:
        return f"did you mean {guess}?"
    return "devices have: " + ", ".join(known) if known else None


def _policy(
    wanted: Quantity, name: str, capacity: model.DeviceCapacity, fractional: bool
) -> tuple[bool, Quantity | None, model.CapacityRequestPolicy | None]:
    """(allowed, consumed amount, the policy): the policy is described only for a finding (see :func:`_describe`),
    not for every request of thousands that the policy allows."""
    info = CapacityInfo(name, capacity)
    amount, is_default = consumed_amount((nano(wanted), wanted), info, fractional=fractional)
    allowed = not violates_policy(amount, is_default, info, fractional=fractional)
    return allowed and amount[0] <= info.value, amount[1], capacity.request_policy


def _describe(policy: model.CapacityRequestPolicy | None) -> str:
    if policy is None:
        return "no policy"
    if policy.valid_range is not None:
        r = policy.valid_range
        parts = [f"min {r.min}"] if r.min is not None else []
        parts += [f"max {r.max}"] if r.max is not None else []
        parts += [f"step {r.step}"] if r.step is not None else []
        return "validRange " + ", ".join(parts)
    if policy.valid_values:
        return "validValues " + ", ".join(str(v) for v in policy.valid_values)
    return "no range or values"


def all_mode_on_shareable(request: WrittenRequest, devices: Sequence[tuple[str, model.Device]]) -> int:
    """How many matching devices allow multiple allocations, for an ``All`` request (0 otherwise)."""
    if request.spec.allocation_mode != "All":
        return 0
    return sum(1 for _, d in devices if d.allow_multiple_allocations)
