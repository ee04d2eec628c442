"""Demand against supply for oversubscribed devices: the arithmetic behind "devices are exhausted".

The figures are the allocator's: supply is the devices a failing request can use (its class's and its
own selectors' devices); demand is, per workload in document order, what its placed pods hold of them
(the devices each got, whichever ``firstAvailable`` alternative it was; the share of a device a
request policy rounded up, for consumable capacity) plus what its unplaced pods that compete for them
still need (the count of a request for the same devices). A ResourceClaim shared by pods counts once.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TypeVar

from dralint.allocator.capacity import consumed_amount
from dralint.allocator.devices import CapacityInfo, nano
from dralint.api import model
from dralint.apimachinery.quantity import Quantity
from dralint.dataclass import dataclass
from dralint.dryrun.placement import Placement
from dralint.findings import Details

DeviceId = tuple[str, str, str]  # driver, pool, device
RequestKey = tuple[str, tuple[str, ...]]  # what a request can use: its class, its CEL selectors
Spec = model.ExactDeviceRequest | model.DeviceSubRequest


def request_key(spec: Spec) -> RequestKey:
    return (spec.device_class_name, tuple(s.cel.expression for s in spec.selectors if s.cel is not None))


def describe(key: RequestKey, request: str) -> str:
    """``class gpu.example.com``, or ``class gpu.example.com with the selectors of request gpus``."""
    return f"class {key[0]}" + (f" with the selectors of request {request}" if key[1] else "")


@dataclass(frozen=True, slots=True)
class WorkloadDemand:
    workload: str  # "Deployment ml/trainer"
    counts: tuple[tuple[int, int], ...]  # (pods, devices each), in the order first seen
    shared: int = 0  # devices of the shared ResourceClaims its pods use (counted once per claim)

    @property
    def pods(self) -> int:
        return sum(pods for pods, _ in self.counts)

    @property
    def total(self) -> int:
        return sum(pods * each for pods, each in self.counts) + self.shared

    def text(self) -> str:
        """``Deployment ml/trainer 12 pods × 8 = 96``; ``Job ml/x 1 pod × 1 + 1 pod × 2 = 3``; ``... + 1 shared``."""
        terms = [f"{pods} pod{'s' if pods != 1 else ''} × {each}" for pods, each in self.counts]
        shared = f" + {self.shared} shared" if self.shared else ""
        return f"{self.workload} {' + '.join(terms)}{shared} = {self.total}"


MAX_NAMED = 5  # workloads a demand text names; the rest are counted, and listed in full in the JSON details


@dataclass(frozen=True, slots=True)
class ClassDemand:
    what: str  # "class gpu.example.com" (with the selectors of a request)
    device_class: str
    workloads: tuple[WorkloadDemand, ...]
    supply: int  # devices the request can use

    @property
    def total(self) -> int:
        return sum(w.total for w in self.workloads)

    def text(self) -> str:
        """``demand for class gpu: Deployment ml/trainer 12 pods × 8 = 96; matching devices = 64``.

        Names the largest :data:`MAX_NAMED` workloads (by devices, then document order) and counts
        the rest, so the message stays short however many workloads compete.
        """
        total = f" (total {self.total})" if len(self.workloads) > 1 else ""
        return f"demand for {self.what}: {self.named()}{total}; matching devices = {self.supply}"

    def named(self) -> str:
        """The workloads' demands, the largest :data:`MAX_NAMED` named and the rest counted."""
        named = _largest(self.workloads, lambda w: w.total)
        parts = [w.text() for w in named]
        rest = len(self.workloads) - len(named)
        if rest:
            parts.append(_more(rest, sum(w.pods for w in self.workloads) - sum(w.pods for w in named)))
        return ", ".join(parts)

    def summary(self) -> Summary:
        """The texts and numbers, worked out once (every failing workload of a request shape reports them)."""
        return Summary(self.what, self.total, self.supply, self.named(), self.text(), self.details())

    def details(self) -> Details:
        """The numbers behind the text, for machine-readable output: totals, and the workloads it names.

        Bounded like the text: every failing workload of a class gets these, so listing every
        workload here would make the report grow with the square of the workloads.
        """
        return (
            ("deviceClass", self.device_class),
            ("supply", self.supply),
            ("demand", self.total),
            ("demandingWorkloads", len(self.workloads)),
            ("demandingPods", sum(w.pods for w in self.workloads)),
            (
                "largestDemands",
                [
                    {"workload": w.workload, "pods": w.pods, "devices": w.total}
                    | ({"perPod": w.counts[0][1]} if len(w.counts) == 1 else {})
                    | ({"sharedDevices": w.shared} if w.shared else {})
                    for w in _largest(self.workloads, lambda w: w.total)
                ],
            ),
        )


@dataclass(frozen=True, slots=True)
class Summary:
    """A :class:`ClassDemand` as findings use it."""

    what: str
    total: int
    supply: int
    named: str  # the workloads' demands, the largest named
    text: str
    details: Details

    def in_any_order(self, said: str = "") -> str:
        """The demand as the reason no order fits: ``no order fits them: pods that can use no other devices
        need 25 of the 16 devices of class gpu (...)``; without the workloads when ``said`` (the demand as
        placed) already names the same ones."""
        workloads = f" ({self.named})" if self.named != said else ""
        return f"no order fits them: pods that can use no other devices need {self.total} of {self.what}{workloads}"


_T = TypeVar("_T")


def _largest(items: Sequence[_T], size: Callable[[_T], int]) -> list[_T]:
    """The :data:`MAX_NAMED` largest of ``items`` by ``size`` (ties: the earlier), in their own order."""
    if len(items) <= MAX_NAMED:
        return list(items)
    picked = set(heapq.nsmallest(MAX_NAMED, range(len(items)), key=lambda i: (-size(items[i]), i)))
    return [item for i, item in enumerate(items) if i in picked]


def _more(workloads: int, pods: int) -> str:
    return f"and {workloads} more workload{'s' if workloads != 1 else ''} ({pods} pod{'s' if pods != 1 else ''})"


def needed(claims: Iterable[model.ResourceClaim], key: RequestKey) -> int:
    """Devices that ``claims`` ask for with ExactCount requests (or ``firstAvailable`` entries) for the
    devices of ``key``: what a pod that got none yet still needs of them."""
    total = 0
    for claim in claims:
        for request in claim.spec.requests:
            counts = [
                part.spec.count
                for part in request.alternatives()
                if request_key(part.spec) == key and part.spec.allocation_mode != "All"
            ]
            total += min(counts, default=0)
    return total


def class_demand(
    placements: Sequence[Placement],
    competing: Collection[int],
    key: RequestKey,
    request: str,
    devices: Collection[DeviceId],
) -> ClassDemand:
    """Demand for the ``devices`` a request of ``key`` can use, per workload in document order: what the placed
    pods hold of them, and what the unplaced ones of ``competing`` (ids of placements) need."""
    workloads: dict[int, tuple[str, dict[int, int], int]] = {}  # template -> (workload, per-pod count -> pods, shared)
    seen_shared: set[tuple[str, str]] = set()
    holding: set[tuple[str, str]] = set()  # shared claims that hold (or need) some of the devices
    for placement in placements:
        pod = placement.pod
        own, shared = 0, 0
        if placement.outcome == "placed":
            for use, allocation in placement.allocations:
                held = sum(
                    1 for r in allocation.results if (r.driver, r.pool, r.device) in devices and not r.admin_access
                )
                if not use.shared:
                    own += held
                elif use.key not in seen_shared:
                    seen_shared.add(use.key)
                    shared += held
                    holding.update((use.key,) if held else ())
        elif id(placement) in competing:
            own = needed((u.claim for u in pod.claims if u.claim is not None and not u.shared), key)
            for use in pod.claims:
                if use.claim is not None and use.shared and use.key not in seen_shared:
                    seen_shared.add(use.key)
                    added = needed((use.claim,), key)
                    shared += added
                    holding.update((use.key,) if added else ())
        else:
            continue
        if not own and not any(use.shared and use.claim is not None and use.key in holding for use in pod.claims):
            continue
        name, counts, total_shared = workloads.get(pod.template_index, (pod.workload, {}, 0))
        counts[own] = counts.get(own, 0) + 1
        workloads[pod.template_index] = (name, counts, total_shared + shared)
    return ClassDemand(
        describe(key, request),
        key[0],
        tuple(
            WorkloadDemand(name, tuple((pods, each) for each, pods in counts.items()), shared)
            for name, counts, shared in workloads.values()
            if sum(each * pods for each, pods in counts.items()) + shared
        ),
        len(devices),
    )


@dataclass(frozen=True, slots=True)
class CapacityDemand:
    device_class: str
    capacity: str
    demand: Quantity  # what the placed pods' shares consume and the competing unplaced pods' would
    requested: Quantity  # the same as written, before request policies round the shares up
    supply: Quantity
    pods: int

    def text(self) -> str:
        rounded = (
            f"take {self.demand} in total ({self.requested} requested, rounded up by the devices' request policies)"
            if self.demand != self.requested
            else f"request {self.demand} in total"
        )
        return (
            f"demand for capacity {self.capacity} of class {self.device_class}: {self.pods} pods {rounded}; "
            f"shareable matching devices hold {self.supply}"
        )


def capacity_demand(
    placements: Sequence[Placement],
    competing: Collection[int],
    key: RequestKey,
    capacity: str,
    devices: Sequence[tuple[DeviceId, model.Device]],
) -> CapacityDemand:
    """Demand for ``capacity`` of the shareable ``devices`` a request of ``key`` can use: the shares the placed
    pods got (as the request policies rounded them), and the least the competing unplaced pods would take."""
    shareable = {ident: device for ident, device in devices if device.allow_multiple_allocations}
    demand, requested, pods = Quantity(0), Quantity(0), 0
    for placement in placements:
        if placement.outcome == "placed":
            took = False
            for use, allocation in placement.allocations:
                for result in allocation.results:
                    amount = (result.consumed_capacity or {}).get(capacity)
                    if amount is None or (result.driver, result.pool, result.device) not in shareable:
                        continue
                    demand, took = demand.add(amount), True
                    written = _written(use.claim, result.request, capacity)
                    requested = requested.add(written if written is not None else amount)
            pods += took
        elif id(placement) in competing:
            for use in placement.pod.claims:
                for spec in _specs(use.claim, key):
                    wanted = spec.capacity.requests.get(capacity) if spec.capacity is not None else None
                    if wanted is None:
                        continue
                    demand = demand.add(_least_share(wanted, capacity, shareable.values()))
                    requested, pods = requested.add(wanted), pods + 1
    supply = Quantity(0)
    for device in shareable.values():
        entry = device.capacity.get(capacity)
        if entry is not None:
            supply = supply.add(entry.value)
    return CapacityDemand(key[0], capacity, demand, requested, supply, pods)


def _specs(claim: model.ResourceClaim | None, key: RequestKey) -> list[Spec]:
    if claim is None:
        return []
    return [p.spec for r in claim.spec.requests for p in r.alternatives()[:1] if request_key(p.spec) == key]


def _written(claim: model.ResourceClaim | None, label: str, capacity: str) -> Quantity | None:
    """The amount of ``capacity`` request ``label`` of ``claim`` asks for, as written."""
    found = model.find_part(claim.spec.requests, label) if claim is not None else None
    part = found[1] if found is not None else None
    if part is None or part.spec.capacity is None:
        return None
    return part.spec.capacity.requests.get(capacity)


def _least_share(wanted: Quantity, capacity: str, devices: Iterable[model.Device]) -> Quantity:
    """The least a share of ``wanted`` takes on any of the devices, after their request policies."""
    least: Quantity | None = None
    for device in devices:
        entry = device.capacity.get(capacity)
        if entry is None:
            continue
        amount = consumed_amount((nano(wanted), wanted), CapacityInfo(capacity, entry))[0][1]
        if least is None or amount < least:
            least = amount
    return least if least is not None else wanted


def must_take(
    placements: Sequence[Placement], counted: Collection[int], inside: Callable[[RequestKey], bool]
) -> tuple[WorkloadDemand, ...]:
    """Per workload, the devices its pods (the placed ones and those of ``counted``) must take from a set of
    devices in any order: the requests (every alternative of a ``firstAvailable`` one) that can use no device
    outside it, as ``inside`` says of each request's key. A ResourceClaim shared by pods counts once."""
    workloads: dict[int, tuple[str, dict[int, int], int]] = {}
    seen_shared: set[tuple[str, str]] = set()
    holding: set[tuple[str, str]] = set()  # shared claims that need some of the devices
    for placement in placements:
        if placement.outcome != "placed" and id(placement) not in counted:
            continue
        pod = placement.pod
        own, shared = 0, 0
        for use in pod.claims:
            if use.claim is None or (use.shared and use.key in seen_shared):
                continue
            need = 0
            for request in use.claim.spec.requests:
                parts = request.alternatives()
                if all(p.spec.allocation_mode != "All" and inside(request_key(p.spec)) for p in parts):
                    need += min(p.spec.count for p in parts)
            if not use.shared:
                own += need
                continue
            seen_shared.add(use.key)
            shared += need
            holding.update((use.key,) if need else ())
        if own or any(use.shared and use.claim is not None and use.key in holding for use in pod.claims):
            name, counts, total_shared = workloads.get(pod.template_index, (pod.workload, {}, 0))
            counts[own] = counts.get(own, 0) + 1
            workloads[pod.template_index] = (name, counts, total_shared + shared)
    return tuple(
        WorkloadDemand(name, tuple((pods, each) for each, pods in counts.items()), shared)
        for name, counts, shared in workloads.values()
    )
