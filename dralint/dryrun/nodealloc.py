"""Node-allocatable resources of DRA devices (KEP-5517, DRANodeAllocatableResources): the CPU, memory,
... a pod's allocated devices take from its node, which the scheduler's DynamicResources plugin
checks against the node's allocatable with the pod's own requests.

Counterpart: ``nodeallocatabledynamicresources.go`` of kube-scheduler 1.37 (``addDeviceMapping``,
``addDeviceOverhead``, ``buildNodeAllocatableDRAInfo``; the pod's footprint is
``resourcehelper.PodRequests`` with the claim statuses). Pure: allocation results and the devices
they name in, amounts in scheduler units out (:mod:`dralint.dryrun.resources`).

Simplifications: the footprint adds every claim's amounts to the pod's requests (the helper
attributes them to the containers that reference the claim, which differs only when an init
container alone references one); a ``capacityKey`` mapping on an allocation without
``consumedCapacity`` is skipped instead of failing the pod.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction

from dralint.api import model
from dralint.api.workloads import PodSpec
from dralint.apimachinery.quantity import Quantity
from dralint.dataclass import dataclass
from dralint.dryrun import resources

# (driver, pool, device) -> the device, when it declares nodeAllocatableResources
DeviceLookup = Callable[[str, str, str], "model.Device | None"]


@dataclass(frozen=True, slots=True)
class ClaimStatus:
    """``NodeAllocatableResourceClaimStatus``: what one claim's devices take from the node."""

    claim: str  # the pod's name for the claim (spec.resourceClaims[].name)
    containers: tuple[str, ...]  # containers (init ones first) referencing the claim, once per reference
    mapping: Mapping[str, Fraction]  # resource -> amount, for the claim once
    per_pod: Mapping[str, Fraction]  # resource -> overhead once per pod
    per_container: Mapping[str, Fraction]  # resource -> overhead per container reference
    mapped: bool  # some device maps the resource itself (such a claim is not shared by pods)


def lookup(slices: Iterable[model.ResourceSlice]) -> DeviceLookup | None:
    """Find the devices that declare node-allocatable resources by id; ``None`` when no device does."""
    index = {(s.driver, s.pool.name, d.name): d for s in slices for d in s.devices if d.node_allocatable_resources}
    if not index:
        return None
    return lambda driver, pool, name: index.get((driver, pool, name))


def claim_status(
    name: str, allocation: model.AllocationResult, devices: DeviceLookup, spec: PodSpec
) -> ClaimStatus | None:
    """``buildNodeAllocatableDRAInfo`` for one claim the pod calls ``name``; ``None`` when none of its
    devices declares node-allocatable resources."""
    mapping: dict[str, Fraction] = {}
    per_pod: dict[str, Fraction] = {}
    per_container: dict[str, Fraction] = {}
    found = mapped = False
    for result in allocation.results:
        device = devices(result.driver, result.pool, result.device)
        if device is None:
            continue
        found = True
        for resource, entry in device.node_allocatable_resources.items():
            if entry.mapping is not None:
                amount = _mapped(entry.mapping, result)
                if amount is not None:
                    mapping[resource] = mapping.get(resource, Fraction(0)) + amount
                mapped = True
            if entry.overhead is not None:
                for into, value in ((per_pod, entry.overhead.per_pod), (per_container, entry.overhead.per_container)):
                    if value is not None:
                        into[resource] = into.get(resource, Fraction(0)) + value.value
    if not found:
        return None
    containers = tuple(
        container.name
        for kind in ("initContainers", "containers")
        for container in spec.containers
        if container.kind == kind
        for reference in container.claims
        if reference.name == name
    )
    return ClaimStatus(name, containers, mapping, per_pod, per_container, mapped)


def _mapped(mapping: model.NodeAllocatableMapping, result: model.DeviceRequestAllocationResult) -> Fraction | None:
    """``addDeviceMapping``: the consumed capacity times its multiplier, else the device multiplier."""
    if mapping.capacity_key:
        consumed = result.consumed_capacity
        if not consumed:
            return None  # (upstream: an error for the pod; see the module docstring)
        value = _by_qualified_name(consumed, mapping.capacity_key, result.driver)
        if value is None:
            return None  # the capacity is not part of this allocation: the mapping does not apply
        multiplier = mapping.capacity_multiplier.value if mapping.capacity_multiplier is not None else Fraction(1)
        return value * multiplier
    if mapping.device_multiplier is not None:
        return mapping.device_multiplier.value
    return None


def _by_qualified_name(values: Mapping[str, Quantity], name: str, driver: str) -> Fraction | None:
    """``LookupByQualifiedName``: the name as written, else without the domain when it is the driver's."""
    found = values.get(name)
    if found is None:
        domain, _, ident = name.partition("/")
        found = values.get(ident) if domain == driver else None
    return found.value if found is not None else None


def pod_demand(statuses: Sequence[ClaimStatus]) -> resources.Amounts:
    """What the claims add to the pod's requests, in scheduler units (cpu in millicores)."""
    total: dict[str, Fraction] = {}
    for status in statuses:
        parts = ((status.mapping, 1), (status.per_pod, 1), (status.per_container, len(status.containers)))
        for amounts, times in parts:
            for resource, value in amounts.items():
                total[resource] = total.get(resource, Fraction(0)) + value * times
    return {name: _units(name, value) for name, value in total.items() if value > 0}


def _units(name: str, value: Fraction) -> int:
    """``MilliValue`` for cpu, ``Value`` (rounded up) for the others, as the scheduler counts."""
    scaled = value * 1000 if name == "cpu" else value
    return -((-scaled.numerator) // scaled.denominator)
