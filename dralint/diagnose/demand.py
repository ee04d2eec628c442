"""Demand against supply for oversubscribed devices: the arithmetic behind "devices are exhausted".

Demand is counted over every simulated pod (placed or not) per device class: replicas × devices
per pod, workload by workload, plus the devices of the ResourceClaims its pods share (once per
claim, however many pods use it); supply is the number of inventory devices the class (and the
request's own selectors) accept, or the summed capacity of shareable devices for capacity requests.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import TypeVar

from dralint.api import model
from dralint.apimachinery.quantity import Quantity
from dralint.cluster.pods import Pod
from dralint.dataclass import dataclass
from dralint.dryrun.placement import Placement
from dralint.findings import Details


@dataclass(frozen=True, slots=True)
class WorkloadDemand:
    workload: str  # "Deployment ml/trainer"
    pods: int
    per_pod: int  # devices (ExactCount requests) of the class per pod, in claims of its own
    shared: int = 0  # devices of the class in the shared ResourceClaims its pods use (counted once)

    @property
    def total(self) -> int:
        return self.pods * self.per_pod + self.shared

    def text(self) -> str:
        """``"Deployment ml/trainer 12 pods × 8 = 96"`` (``"... 2 pods × 2 + 1 shared = 5"`` with shared claims)."""
        shared = f" + {self.shared} shared" if self.shared else ""
        return f"{self.workload} {self.pods} pod{'s' if self.pods != 1 else ''} × {self.per_pod}{shared} = {self.total}"


MAX_NAMED = 5  # workloads a demand text names; the rest are counted, and listed in full in the JSON details


@dataclass(frozen=True, slots=True)
class ClassDemand:
    device_class: str
    workloads: tuple[WorkloadDemand, ...]
    supply: int  # devices of the inventory matching the class
    held_by_others: tuple[tuple[str, int, int], ...] = ()  # (workload, its placed pods, matching devices they hold)

    @property
    def total(self) -> int:
        return sum(w.total for w in self.workloads)

    def text(self) -> str:
        """``"... Deployment ml/trainer 12 pods × 8 = 96; matching devices = 64"``, plus who else holds them.

        Names the largest :data:`MAX_NAMED` workloads (by devices, then document order) and counts
        the rest, so the message stays short however many workloads compete.
        """
        named = _largest(self.workloads, lambda w: w.total)
        parts = [w.text() for w in named]
        rest = len(self.workloads) - len(named)
        if rest:
            parts.append(_more(rest, sum(w.pods for w in self.workloads) - sum(w.pods for w in named)))
        total = f" (total {self.total})" if len(self.workloads) > 1 else ""
        text = f"demand for class {self.device_class}: {', '.join(parts)}{total}; matching devices = {self.supply}"
        if self.held_by_others:
            held = sum(n for _, _, n in self.held_by_others)
            largest = _largest(self.held_by_others, lambda h: h[2])
            who = [f"{workload} {n}" for workload, _, n in largest]
            rest = len(self.held_by_others) - len(largest)
            if rest:
                who.append(_more(rest, sum(p for _, p, _ in self.held_by_others) - sum(p for _, p, _ in largest)))
            text += f", of which {held} are held by pods of other workloads ({', '.join(who)})"
        return text

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
                    {"workload": w.workload, "pods": w.pods, "perPod": w.per_pod}
                    | ({"sharedDevices": w.shared} if w.shared else {})
                    for w in _largest(self.workloads, lambda w: w.total)
                ],
            ),
            ("heldByOthers", sum(n for _, _, n in self.held_by_others)),
            ("holdingWorkloads", len(self.held_by_others)),
            ("holdingPods", sum(p for _, p, _ in self.held_by_others)),
            (
                "largestHolders",
                [{"workload": w, "pods": p, "devices": n} for w, p, n in _largest(self.held_by_others, lambda h: h[2])],
            ),
        )


_T = TypeVar("_T")


def _largest(items: Sequence[_T], size: Callable[[_T], int]) -> list[_T]:
    """The :data:`MAX_NAMED` largest of ``items`` by ``size`` (ties: the earlier), in their own order."""
    if len(items) <= MAX_NAMED:
        return list(items)
    picked = set(heapq.nsmallest(MAX_NAMED, range(len(items)), key=lambda i: (-size(items[i]), i)))
    return [item for i, item in enumerate(items) if i in picked]


def _more(workloads: int, pods: int) -> str:
    return f"and {workloads} more workload{'s' if workloads != 1 else ''} ({pods} pod{'s' if pods != 1 else ''})"


def per_pod_devices(claims: Sequence[model.ResourceClaim], device_class: str) -> int:
    """Devices of ``device_class`` one pod asks for with ExactCount requests (first alternative of a list)."""
    total = 0
    for claim in claims:
        for request in claim.spec.requests:
            parts = request.parts()
            spec = parts[0].spec if parts else None  # the exactly block, else the first entry
            if spec is not None and spec.device_class_name == device_class and spec.allocation_mode != "All":
                total += spec.count
    return total


def class_demand(
    pods: Sequence[Pod],
    device_class: str,
    devices: Sequence[tuple[str, str, str]],
    placements: Sequence[Placement] = (),
) -> ClassDemand:
    """Demand for ``device_class`` by workload, in document order (shared claims count once), the
    matching ``devices`` (driver, pool, device), and which other workloads' placed pods hold them."""
    # template index -> (workload, pods, devices per pod in its own claims, devices of shared claims)
    workloads: dict[int, tuple[str, int, int, int]] = {}
    seen_shared: set[tuple[str, str]] = set()
    for pod in pods:
        own = [use.claim for use in pod.claims if use.claim is not None and not use.shared]
        shared = [(use.key, use.claim) for use in pod.claims if use.claim is not None and use.shared]
        # An allocated shared claim already holds its devices; one not seen yet adds them once.
        new = [claim for key, claim in shared if key not in seen_shared and claim.allocation is None]
        seen_shared.update(key for key, _ in shared)
        count, added = per_pod_devices(own, device_class), per_pod_devices(new, device_class)
        if count == 0 and per_pod_devices([claim for _, claim in shared], device_class) == 0:
            continue
        name, n, per_pod, total_shared = workloads.get(pod.template_index, (pod.workload, 0, count, 0))
        workloads[pod.template_index] = (name, n + 1, max(per_pod, count), total_shared + added)
    demanding = {name for name, _, _, _ in workloads.values()}
    matching = set(devices)
    held: dict[str, set[tuple[str, str, str]]] = {}
    holders: dict[str, int] = {}  # workload -> its placed pods holding matching devices
    for placement in placements:
        if placement.pod.workload in demanding:
            continue
        mine = False
        for _, allocation in placement.allocations:
            for result in allocation.results:
                device = (result.driver, result.pool, result.device)
                if device in matching and not result.admin_access:
                    held.setdefault(placement.pod.workload, set()).add(device)
                    mine = True
        if mine:
            holders[placement.pod.workload] = holders.get(placement.pod.workload, 0) + 1
    return ClassDemand(
        device_class,
        tuple(WorkloadDemand(*w) for w in workloads.values()),
        len(matching),
        tuple((workload, holders[workload], len(ids)) for workload, ids in held.items()),
    )


@dataclass(frozen=True, slots=True)
class CapacityDemand:
    device_class: str
    capacity: str
    demand: Quantity
    supply: Quantity
    pods: int

    def text(self) -> str:
        return (
            f"demand for capacity {self.capacity} of class {self.device_class}: {self.pods} pods request "
            f"{self.demand} in total; shareable matching devices hold {self.supply}"
        )


def capacity_demand(
    pods: Sequence[Pod], device_class: str, capacity: str, devices: Sequence[tuple[str, model.Device]]
) -> CapacityDemand:
    demand = Quantity(0)
    count = 0
    for pod in pods:
        for use in pod.claims:
            if use.claim is None:
                continue
            for request in use.claim.spec.requests:
                spec = request.exactly
                if spec is None or spec.device_class_name != device_class or spec.capacity is None:
                    continue
                amount = spec.capacity.requests.get(capacity)
                if amount is not None:
                    demand = demand.add(amount)
                    count += 1
    supply = Quantity(0)
    for _, device in devices:
        entry = device.capacity.get(capacity)
        if entry is not None and device.allow_multiple_allocations:
            supply = supply.add(entry.value)
    return CapacityDemand(device_class, capacity, demand, supply, count)
