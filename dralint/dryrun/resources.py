"""NodeResourcesFit: a pod's requests, computed as kube-scheduler computes them, against a Node's
``status.allocatable`` minus what the pods placed on it before request.

Amounts are integers in the scheduler's units: millicores for ``cpu`` (``MilliValue``), the
value rounded up for everything else (``Value``). Only the resources the plugin checks count:
``cpu``, ``memory``, ``ephemeral-storage``, ``hugepages-*`` and names with a ``/`` (extended
and prefixed native resources); ``pods`` is the number of pods a node may hold.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import lru_cache

from dralint.api.workloads import Container, PodSpec
from dralint.apimachinery.quantity import QuantityError, parse_quantity
from dralint.dataclass import dataclass

Amounts = dict[str, int]
PODS = "pods"
_NATIVE = ("cpu", "memory", "ephemeral-storage")
_BYTES = ("memory", "ephemeral-storage")


def checked(name: str) -> bool:
    """Whether NodeResourcesFit looks at resource ``name`` (others are not scheduled on)."""
    return name in _NATIVE or name.startswith("hugepages-") or "/" in name


@lru_cache(maxsize=4096)
def _amount(name: str, text: str) -> int | None:
    """(Memoised: the nodes of a pool and the replicas of a workload repeat the same few quantities.)"""
    try:
        quantity = parse_quantity(text)
    except QuantityError:
        return None  # the API server rejects the object; schema validation says so
    return quantity.milli_value() if name == "cpu" else quantity.ceil_int()


def extended(name: str) -> bool:
    """Whether ``name`` is a resource a device plugin or DeviceClass provides (a name with a domain:
    ``example.com/gpu``, ``deviceclass.resource.kubernetes.io/gpu``), not a node's own."""
    return "/" in name and not name.startswith("hugepages-")


def amounts(values: Mapping[str, str]) -> Amounts:
    """The checked resources of a requests or allocatable map, in scheduler units."""
    out: Amounts = {}
    for name, text in values.items():
        if checked(name) or name == PODS:
            value = _amount(name, text)
            if value is not None:
                out[name] = value
    return out


def container_requests(container: Container) -> Amounts:
    """The container's requests; a resource with only a limit requests its limit (API defaulting)."""
    return amounts({**container.limits, **container.requests})


def add(into: Amounts, more: Mapping[str, int]) -> None:
    for name, value in more.items():
        into[name] = into.get(name, 0) + value


def _max(into: Amounts, other: Mapping[str, int]) -> None:
    for name, value in other.items():
        if value > into.get(name, 0):
            into[name] = value


def pod_requests(spec: PodSpec) -> Amounts:
    """``resourcehelper.PodRequests``: the larger of what the app containers (with the sidecars) and
    what each init container (with the sidecars started before it) need, plus ``spec.overhead``."""
    total: Amounts = {}
    for container in spec.containers:
        if container.kind == "containers":
            add(total, container_requests(container))
    sidecars: Amounts = {}
    init_peak: Amounts = {}
    for container in spec.containers:
        if container.kind != "initContainers":
            continue
        own = container_requests(container)
        if container.restart_policy == "Always":
            add(total, own)  # a sidecar keeps running next to the app containers
            add(sidecars, own)
            _max(init_peak, sidecars)
        else:
            running = dict(sidecars)
            add(running, own)
            _max(init_peak, running)
    _max(total, init_peak)
    add(total, amounts(spec.scheduling.overhead))
    total.pop(PODS, None)
    return {name: value for name, value in total.items() if value > 0}


@dataclass(frozen=True, slots=True)
class Shortage:
    """One resource a node cannot give the pod (kube-scheduler's ``InsufficientResource``)."""

    resource: str
    requested: int
    free: int
    allocatable: int

    @property
    def reason(self) -> str:
        """NodeResourcesFit's reason, as its status says it: ``insufficient cpu``, ``too many pods``."""
        return "too many pods" if self.resource == PODS else f"insufficient {self.resource}"

    def text(self) -> str:
        """The reason with the numbers: ``insufficient cpu: 16 requested, 14 of 30 allocatable free``."""
        name = self.resource
        if name == PODS:
            return f"too many pods: {self.allocatable} allowed, all taken"
        if not self.allocatable:
            return f"{self.reason}: {show(name, self.requested)} requested, none allocatable"
        free, allocatable = show(name, self.free), show(name, self.allocatable)
        return f"{self.reason}: {show(name, self.requested)} requested, {free} of {allocatable} allocatable free"


def listed_at_zero_is_device_plugins(release: str) -> bool:
    """Whether on ``release`` a node listing an extended resource at 0 keeps it for the device plugin.

    Kubernetes 1.34's ``fitsRequest`` hands a DRA-backed resource to DynamicResources only when
    the node's allocatable lacks the name (``okScalar``), so a listed 0 (a device plugin stopped,
    its resource still in the node's status) is counted here and fits no pod. From 1.35 on
    (kubernetes#133784, ``shouldDelegateResourceToDRA``) only an amount above 0 keeps it.
    """
    return release == "1.34"


def shortages(
    requests: Mapping[str, int],
    allocatable: Mapping[str, int],
    used: Mapping[str, int],
    pods_on_node: int,
    dra_backed: Collection[str] = (),
    zero_is_listed: bool = False,
) -> list[Shortage]:
    """``fitsRequest``: the resources (in name order, ``pods`` first) the node lacks for the pod.

    An extended resource that a DeviceClass backs and the node does not advertise (or advertises
    none of) is left to the DRA allocator (the scheduler's DRA extended-resource handling); one
    the node advertises is the device plugin's and counted here. ``zero_is_listed``: a name the
    node lists at 0 counts as advertised (:func:`listed_at_zero_is_device_plugins`).
    """
    out: list[Shortage] = []
    if PODS in allocatable and pods_on_node + 1 > allocatable[PODS]:
        out.append(Shortage(PODS, 1, max(allocatable[PODS] - pods_on_node, 0), allocatable[PODS]))
    for name in sorted(requests):
        if name in dra_backed and (name not in allocatable if zero_is_listed else not allocatable.get(name)):
            continue  # no device plugin serves it here: DynamicResources allocates it (KEP-5004)
        free = allocatable.get(name, 0) - used.get(name, 0)
        if requests[name] > free:
            out.append(Shortage(name, requests[name], max(free, 0), allocatable.get(name, 0)))
    return out


_BINARY = (("Ti", 1 << 40), ("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10))


def show(name: str, value: int) -> str:
    """An amount as a person writes it: ``500m`` or ``8`` cores, ``16Gi`` of memory."""
    if name == "cpu":
        return str(value // 1000) if value % 1000 == 0 else f"{value}m"
    if name in _BYTES or name.startswith("hugepages-"):
        for suffix, unit in _BINARY:
            if value and value % unit == 0:
                return f"{value // unit}{suffix}"
    return str(value)
