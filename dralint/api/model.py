"""The typed DRA object model, in the v1 shape, built from v1-shaped dicts.

Everything after ``api/`` works on these values, never on raw dicts. Builders are lenient
(fields read through ``api/read.py``): a field of the wrong type becomes its zero value (schema
validation reports the type error), so later stages never crash on malformed input. Presence is
kept where the API gives it meaning: ``None`` is "not set", an empty tuple is "set but empty"
only where the server distinguishes.

Longer than 500 lines on purpose: it is one idea, the v1 type tree (as k8s.io/api/resource/v1
types.go is one file), each type followed by the builder that makes it from a dict. Splitting it
by kind would scatter the types the kinds share; splitting builders from types would put each
field list in two files that must change together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

from dralint.api import read
from dralint.api.meta import NodeSelector as NodeSelector
from dralint.api.meta import NodeSelectorRequirement as NodeSelectorRequirement
from dralint.api.meta import NodeSelectorTerm as NodeSelectorTerm
from dralint.api.meta import ObjectMeta as ObjectMeta
from dralint.api.meta import _quantities
from dralint.api.meta import node_selector as node_selector
from dralint.api.meta import object_meta as object_meta
from dralint.api.meta import quantity as quantity
from dralint.apimachinery.quantity import Quantity
from dralint.dataclass import dataclass


@dataclass(frozen=True, slots=True)
class CELDeviceSelector:
    expression: str


@dataclass(frozen=True, slots=True)
class DeviceSelector:
    cel: CELDeviceSelector | None


def _selectors(data: Any, key: str = "selectors") -> tuple[DeviceSelector, ...]:
    out = []
    for item in read.items(data, key):
        cel = read.mapping(item, "cel")
        out.append(DeviceSelector(CELDeviceSelector(read.text(cel, "expression")) if cel is not None else None))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class OpaqueDeviceConfiguration:
    driver: str
    parameters: Any


def _opaque(data: Any) -> OpaqueDeviceConfiguration | None:
    opaque = read.mapping(data, "opaque")
    if opaque is None:
        return None
    return OpaqueDeviceConfiguration(read.text(opaque, "driver"), opaque.get("parameters"))


# --- DeviceClass ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeviceClassConfiguration:
    opaque: OpaqueDeviceConfiguration | None


@dataclass(frozen=True, slots=True)
class DeviceClass:
    meta: ObjectMeta
    selectors: tuple[DeviceSelector, ...] = ()
    config: tuple[DeviceClassConfiguration, ...] = ()
    extended_resource_name: str | None = None

    @property
    def name(self) -> str:
        return self.meta.name


def device_class(data: Mapping[str, Any]) -> DeviceClass:
    spec = read.mapping_or_empty(data, "spec")
    return DeviceClass(
        meta=object_meta(read.mapping_or_empty(data, "metadata")),
        selectors=_selectors(spec),
        config=tuple(DeviceClassConfiguration(_opaque(c)) for c in read.items(spec, "config")),
        extended_resource_name=read.opt_text(spec, "extendedResourceName"),
    )


# --- ResourceClaim --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeviceToleration:
    key: str = ""
    operator: str = "Equal"
    value: str = ""
    effect: str = ""
    toleration_seconds: int | None = None


def _tolerations(data: Any) -> tuple[DeviceToleration, ...] | None:
    items = read.opt_items(data, "tolerations")
    if items is None:
        return None
    return tuple(
        DeviceToleration(
            key=read.text(t, "key"),
            operator=read.text(t, "operator") or "Equal",
            value=read.text(t, "value"),
            effect=read.text(t, "effect"),
            toleration_seconds=read.opt_integer(t, "tolerationSeconds"),
        )
        for t in items
    )


@dataclass(frozen=True, slots=True)
class CapacityRequirements:
    requests: Mapping[str, Quantity] = field(default_factory=dict)


def _capacity_requirements(data: Any) -> CapacityRequirements | None:
    capacity = read.mapping(data, "capacity")
    if capacity is None:
        return None
    return CapacityRequirements(_quantities(capacity.get("requests")))


@dataclass(frozen=True, slots=True)
class DeviceDerivedAttribute:
    """A virtual attribute a request computes per candidate device (1.37, DRADerivedAttributes)."""

    name: str
    expression: str


def _derived_attributes(data: Any) -> tuple[DeviceDerivedAttribute, ...]:
    return tuple(
        DeviceDerivedAttribute(read.text(item, "name"), read.text(item, "expression"))
        for item in read.items(data, "derivedAttributes")
    )


@dataclass(frozen=True, slots=True)
class ExactDeviceRequest:
    device_class_name: str = ""
    selectors: tuple[DeviceSelector, ...] = ()
    allocation_mode: str = ""
    count: int = 0
    admin_access: bool | None = None
    tolerations: tuple[DeviceToleration, ...] | None = None
    capacity: CapacityRequirements | None = None
    derived_attributes: tuple[DeviceDerivedAttribute, ...] = ()


@dataclass(frozen=True, slots=True)
class DeviceSubRequest:
    name: str = ""
    device_class_name: str = ""
    selectors: tuple[DeviceSelector, ...] = ()
    allocation_mode: str = ""
    count: int = 0
    tolerations: tuple[DeviceToleration, ...] | None = None
    capacity: CapacityRequirements | None = None
    derived_attributes: tuple[DeviceDerivedAttribute, ...] = ()


@dataclass(frozen=True, slots=True)
class DeviceRequest:
    name: str
    exactly: ExactDeviceRequest | None = None
    first_available: tuple[DeviceSubRequest, ...] | None = None

    def parts(self) -> tuple[RequestPart, ...]:
        """What the request asks for as written: its ``exactly`` block, then its ``firstAvailable`` entries."""
        exactly = (RequestPart(self, self.exactly),) if self.exactly is not None else ()
        return exactly + tuple(RequestPart(self, entry, i) for i, entry in enumerate(self.first_available or ()))

    def alternatives(self) -> tuple[RequestPart, ...]:
        """What the allocator tries, in order: the ``firstAvailable`` entries if there are any, else ``exactly``."""
        parts = self.parts()
        return tuple(p for p in parts if p.entry is not None) or parts[:1]


@dataclass(frozen=True, slots=True)
class RequestPart:
    """One thing a request asks for: its ``exactly`` block or one of its ``firstAvailable`` entries.

    The one walk over requests and their entries (:meth:`DeviceRequest.parts`): callers read the
    name, the label and the path here instead of writing the traversal again.
    """

    request: DeviceRequest
    spec: ExactDeviceRequest | DeviceSubRequest
    entry: int | None = None  # position in firstAvailable; None for the exactly block

    @property
    def name(self) -> str:
        """The request's name, or the entry's (the allocator's request name for results)."""
        return self.spec.name if isinstance(self.spec, DeviceSubRequest) else self.request.name

    @property
    def parent(self) -> str | None:
        """The request's name for an entry, ``None`` for the exactly block."""
        return None if self.entry is None else self.request.name

    @property
    def label(self) -> str:
        """``gpu`` or ``gpu/small``, as findings name it."""
        return self.request.name if self.entry is None else f"{self.request.name}/{self.name}"

    @property
    def path(self) -> tuple[str | int, ...]:
        """Where the part is, relative to the request."""
        return ("exactly",) if self.entry is None else ("firstAvailable", self.entry)


def find_part(requests: Sequence[DeviceRequest], label: str) -> tuple[int, RequestPart | None] | None:
    """Request ``label`` (``name`` or ``name/entry``) the way upstream looks requests up: the index of
    the first request of that name with its exactly block or that entry (``None`` when it has no
    such part), or ``None`` when no request has that name."""
    index = next((i for i, request in enumerate(requests) if request.name == label.partition("/")[0]), None)
    if index is None:
        return None
    return index, next((p for p in requests[index].parts() if p.label == label), None)


@dataclass(frozen=True, slots=True)
class DeviceConstraint:
    requests: tuple[str, ...] = ()
    match_attribute: str | None = None
    distinct_attribute: str | None = None


@dataclass(frozen=True, slots=True)
class DeviceClaimConfiguration:
    requests: tuple[str, ...] = ()
    opaque: OpaqueDeviceConfiguration | None = None


@dataclass(frozen=True, slots=True)
class DeviceRequestAllocationResult:
    request: str
    driver: str
    pool: str
    device: str
    admin_access: bool | None = None
    tolerations: tuple[DeviceToleration, ...] | None = None
    binding_conditions: tuple[str, ...] = ()
    binding_failure_conditions: tuple[str, ...] = ()
    share_id: str | None = None
    consumed_capacity: Mapping[str, Quantity] | None = None


@dataclass(frozen=True, slots=True)
class DeviceAllocationConfiguration:
    source: str
    requests: tuple[str, ...] = ()
    opaque: OpaqueDeviceConfiguration | None = None


@dataclass(frozen=True, slots=True)
class AllocationResult:
    results: tuple[DeviceRequestAllocationResult, ...] = ()
    config: tuple[DeviceAllocationConfiguration, ...] = ()
    node_selector: NodeSelector | None = None


@dataclass(frozen=True, slots=True)
class ResourceClaimSpec:
    requests: tuple[DeviceRequest, ...] = ()
    constraints: tuple[DeviceConstraint, ...] = ()
    config: tuple[DeviceClaimConfiguration, ...] = ()


@dataclass(frozen=True, slots=True)
class ResourceClaim:
    meta: ObjectMeta
    spec: ResourceClaimSpec
    allocation: AllocationResult | None = None
    reserved_for: int = 0  # number of consumers recorded in status.reservedFor

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def namespace(self) -> str:
        return self.meta.namespace


def _exact(data: Mapping[str, Any]) -> ExactDeviceRequest:
    return ExactDeviceRequest(
        device_class_name=read.text(data, "deviceClassName"),
        selectors=_selectors(data),
        allocation_mode=read.text(data, "allocationMode"),
        count=(read.integer(data, "count") or 0),
        admin_access=read.flag(data, "adminAccess"),
        tolerations=_tolerations(data),
        capacity=_capacity_requirements(data),
        derived_attributes=_derived_attributes(data),
    )


def _subrequest(data: Any) -> DeviceSubRequest:
    return DeviceSubRequest(
        name=read.text(data, "name"),
        device_class_name=read.text(data, "deviceClassName"),
        selectors=_selectors(data),
        allocation_mode=read.text(data, "allocationMode"),
        count=(read.integer(data, "count") or 0),
        tolerations=_tolerations(data),
        capacity=_capacity_requirements(data),
        derived_attributes=_derived_attributes(data),
    )


def claim_spec(spec: Any) -> ResourceClaimSpec:
    devices = read.mapping_or_empty(spec, "devices")
    requests = []
    for item in read.items(devices, "requests"):
        exactly = read.mapping(item, "exactly")
        entries = read.opt_items(item, "firstAvailable")
        requests.append(
            DeviceRequest(
                name=read.text(item, "name"),
                exactly=_exact(exactly) if exactly is not None else None,
                first_available=tuple(_subrequest(e) for e in entries) if entries is not None else None,
            )
        )
    constraints = tuple(
        DeviceConstraint(
            requests=read.strings(c, "requests"),
            match_attribute=read.opt_text(c, "matchAttribute"),
            distinct_attribute=read.opt_text(c, "distinctAttribute"),
        )
        for c in read.items(devices, "constraints")
    )
    config = tuple(
        DeviceClaimConfiguration(read.strings(c, "requests"), _opaque(c)) for c in read.items(devices, "config")
    )
    return ResourceClaimSpec(tuple(requests), constraints, config)


def allocation_result(data: Any) -> AllocationResult | None:
    if not isinstance(data, Mapping):
        return None
    devices = read.mapping_or_empty(data, "devices")
    results = tuple(
        DeviceRequestAllocationResult(
            request=read.text(r, "request"),
            driver=read.text(r, "driver"),
            pool=read.text(r, "pool"),
            device=read.text(r, "device"),
            admin_access=read.flag(r, "adminAccess"),
            tolerations=_tolerations(r),
            binding_conditions=read.strings(r, "bindingConditions"),
            binding_failure_conditions=read.strings(r, "bindingFailureConditions"),
            share_id=read.opt_text(r, "shareID"),
            consumed_capacity=_quantities(r.get("consumedCapacity"))
            if isinstance(r, Mapping) and "consumedCapacity" in r
            else None,
        )
        for r in read.items(devices, "results")
    )
    config = tuple(
        DeviceAllocationConfiguration(read.text(c, "source"), read.strings(c, "requests"), _opaque(c))
        for c in read.items(devices, "config")
    )
    return AllocationResult(results, config, node_selector(data.get("nodeSelector")))


def resource_claim(data: Mapping[str, Any]) -> ResourceClaim:
    status = read.mapping_or_empty(data, "status")
    return ResourceClaim(
        meta=object_meta(read.mapping_or_empty(data, "metadata")),
        spec=claim_spec(read.mapping_or_empty(data, "spec")),
        allocation=allocation_result(status.get("allocation")),
        reserved_for=len(read.items(status, "reservedFor")),
    )


@dataclass(frozen=True, slots=True)
class ResourceClaimTemplate:
    meta: ObjectMeta
    claim_meta: ObjectMeta
    spec: ResourceClaimSpec

    @property
    def name(self) -> str:
        return self.meta.name


def resource_claim_template(data: Mapping[str, Any]) -> ResourceClaimTemplate:
    spec = read.mapping_or_empty(data, "spec")
    return ResourceClaimTemplate(
        meta=object_meta(read.mapping_or_empty(data, "metadata")),
        claim_meta=object_meta(read.mapping_or_empty(spec, "metadata")),
        spec=claim_spec(read.mapping_or_empty(spec, "spec")),
    )


# --- ResourceSlice --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeviceAttribute:
    """One attribute value; exactly one field should be set (``kind`` says which, or ``""``)."""

    kind: str  # "int", "bool", "string", "version", "ints", "bools", "strings", "versions" or ""
    value: Any  # int | bool | str | tuple of those; None when no value is set


_ATTRIBUTE_KINDS = ("ints", "bools", "strings", "versions", "int", "bool", "string", "version")
_SCALAR_TYPES: dict[str, type] = {"int": int, "bool": bool, "string": str, "version": str}


def _attribute(data: Any) -> DeviceAttribute:
    if isinstance(data, Mapping):
        # The allocator's order of checks (spec/allocator.md §4.3): lists first, then scalars.
        for kind in _ATTRIBUTE_KINDS:
            if kind not in data or data[kind] is None:
                continue
            value = data[kind]
            if kind.endswith("s") and isinstance(value, list):
                item_type = _SCALAR_TYPES[kind[:-1]]
                return DeviceAttribute(kind, tuple(v for v in value if _is_type(v, item_type)))
            if kind in _SCALAR_TYPES and _is_type(value, _SCALAR_TYPES[kind]):
                return DeviceAttribute(kind, value)
    return DeviceAttribute("", None)


def _is_type(value: Any, expected: type) -> bool:
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, expected)


@dataclass(frozen=True, slots=True)
class CapacityRequestPolicyRange:
    min: Quantity | None
    max: Quantity | None = None
    step: Quantity | None = None


@dataclass(frozen=True, slots=True)
class CapacityRequestPolicy:
    default: Quantity | None = None
    valid_values: tuple[Quantity, ...] = ()
    valid_range: CapacityRequestPolicyRange | None = None


@dataclass(frozen=True, slots=True)
class DeviceCapacity:
    value: Quantity
    request_policy: CapacityRequestPolicy | None = None


def _capacity(data: Any) -> dict[str, DeviceCapacity]:
    out = {}
    for key, entry in data.items() if isinstance(data, Mapping) else ():
        value = quantity(entry.get("value")) if isinstance(entry, Mapping) else None
        if value is None:
            continue
        policy_data = read.mapping(entry, "requestPolicy")
        policy = None
        if policy_data is not None:
            range_data = read.mapping(policy_data, "validRange")
            policy = CapacityRequestPolicy(
                default=quantity(policy_data.get("default")),
                valid_values=tuple(q for q in map(quantity, read.items(policy_data, "validValues")) if q is not None),
                valid_range=CapacityRequestPolicyRange(
                    quantity(range_data.get("min")), quantity(range_data.get("max")), quantity(range_data.get("step"))
                )
                if range_data is not None
                else None,
            )
        out[str(key)] = DeviceCapacity(value, policy)
    return out


@dataclass(frozen=True, slots=True)
class DeviceCounterConsumption:
    counter_set: str
    counters: Mapping[str, Quantity] = field(default_factory=dict)
    compatibility_groups: tuple[str, ...] = ()  # 1.37, DRADeviceCompatibilityGroups


@dataclass(frozen=True, slots=True)
class CounterSet:
    name: str
    counters: Mapping[str, Quantity] = field(default_factory=dict)


def _counters(data: Any) -> dict[str, Quantity]:
    out = {}
    for key, entry in data.items() if isinstance(data, Mapping) else ():
        value = quantity(entry.get("value")) if isinstance(entry, Mapping) else None
        if value is not None:
            out[str(key)] = value
    return out


@dataclass(frozen=True, slots=True)
class DeviceTaint:
    key: str
    value: str = ""
    effect: str = ""
    time_added: str | None = None


def _taint(data: Any) -> DeviceTaint:
    return DeviceTaint(
        read.text(data, "key"), read.text(data, "value"), read.text(data, "effect"), read.opt_text(data, "timeAdded")
    )


@dataclass(frozen=True, slots=True)
class NodeAllocatableMapping:
    """What one allocated device adds to a node resource: per device, or per unit of a consumed capacity."""

    capacity_key: str | None = None
    capacity_multiplier: Quantity | None = None
    device_multiplier: Quantity | None = None


@dataclass(frozen=True, slots=True)
class NodeAllocatableOverhead:
    """A node resource a device costs besides itself: once per pod, and per container using its claim."""

    per_pod: Quantity | None = None
    per_container: Quantity | None = None


@dataclass(frozen=True, slots=True)
class NodeAllocatableResource:
    """``nodeAllocatableResources[<resource>]`` of a device (1.37, DRANodeAllocatableResources)."""

    mapping: NodeAllocatableMapping | None = None
    overhead: NodeAllocatableOverhead | None = None


def _node_allocatable(data: Any) -> dict[str, NodeAllocatableResource]:
    out = {}
    for name, entry in read.mapping_or_empty(data, "nodeAllocatableResources").items():
        mapping = read.mapping(entry, "mapping")
        overhead = read.mapping(entry, "overhead")
        out[str(name)] = NodeAllocatableResource(
            NodeAllocatableMapping(
                read.opt_text(mapping, "capacityKey"),
                quantity(mapping.get("capacityMultiplier")),
                quantity(mapping.get("deviceMultiplier")),
            )
            if mapping is not None
            else None,
            NodeAllocatableOverhead(quantity(overhead.get("perPod")), quantity(overhead.get("perContainer")))
            if overhead is not None
            else None,
        )
    return out


@dataclass(frozen=True, slots=True)
class Device:
    name: str
    attributes: Mapping[str, DeviceAttribute] = field(default_factory=dict)
    capacity: Mapping[str, DeviceCapacity] = field(default_factory=dict)
    consumes_counters: tuple[DeviceCounterConsumption, ...] = ()
    node_name: str | None = None
    node_selector: NodeSelector | None = None
    all_nodes: bool | None = None
    taints: tuple[DeviceTaint, ...] = ()
    binds_to_node: bool | None = None
    binding_conditions: tuple[str, ...] | None = None
    binding_failure_conditions: tuple[str, ...] | None = None
    allow_multiple_allocations: bool | None = None
    node_allocatable_resources: Mapping[str, NodeAllocatableResource] = field(default_factory=dict)


def device(data: Any) -> Device:
    binding = read.opt_items(data, "bindingConditions")
    failure = read.opt_items(data, "bindingFailureConditions")
    return Device(
        name=read.text(data, "name"),
        attributes={str(k): _attribute(v) for k, v in read.mapping_or_empty(data, "attributes").items()},
        capacity=_capacity(data.get("capacity") if isinstance(data, Mapping) else None),
        consumes_counters=tuple(
            DeviceCounterConsumption(
                read.text(c, "counterSet"),
                _counters(c.get("counters") if isinstance(c, Mapping) else None),
                read.strings(c, "compatibilityGroups"),
            )
            for c in read.items(data, "consumesCounters")
        ),
        node_name=read.opt_text(data, "nodeName"),
        node_selector=node_selector(data.get("nodeSelector")) if isinstance(data, Mapping) else None,
        all_nodes=read.flag(data, "allNodes"),
        taints=tuple(_taint(t) for t in read.items(data, "taints")),
        binds_to_node=read.flag(data, "bindsToNode"),
        binding_conditions=tuple(v for v in binding if isinstance(v, str)) if binding is not None else None,
        binding_failure_conditions=tuple(v for v in failure if isinstance(v, str)) if failure is not None else None,
        allow_multiple_allocations=read.flag(data, "allowMultipleAllocations"),
        node_allocatable_resources=_node_allocatable(data),
    )


@dataclass(frozen=True, slots=True)
class ResourcePool:
    name: str
    generation: int = 0
    resource_slice_count: int = 0


@dataclass(frozen=True, slots=True)
class ResourceSlice:
    meta: ObjectMeta
    driver: str
    pool: ResourcePool
    node_name: str | None = None
    node_selector: NodeSelector | None = None
    all_nodes: bool | None = None
    per_device_node_selection: bool | None = None
    devices: tuple[Device, ...] = ()
    shared_counters: tuple[CounterSet, ...] = ()

    @property
    def name(self) -> str:
        return self.meta.name


def resource_slice(data: Mapping[str, Any]) -> ResourceSlice:
    spec = read.mapping_or_empty(data, "spec")
    pool = read.mapping_or_empty(spec, "pool")
    return ResourceSlice(
        meta=object_meta(read.mapping_or_empty(data, "metadata")),
        driver=read.text(spec, "driver"),
        pool=ResourcePool(
            read.text(pool, "name"),
            (read.integer(pool, "generation") or 0),
            (read.integer(pool, "resourceSliceCount") or 0),
        ),
        node_name=read.opt_text(spec, "nodeName"),
        node_selector=node_selector(spec.get("nodeSelector")),
        all_nodes=read.flag(spec, "allNodes"),
        per_device_node_selection=read.flag(spec, "perDeviceNodeSelection"),
        devices=tuple(device(d) for d in read.items(spec, "devices")),
        shared_counters=tuple(
            CounterSet(read.text(c, "name"), _counters(c.get("counters") if isinstance(c, Mapping) else None))
            for c in read.items(spec, "sharedCounters")
        ),
    )


# --- DeviceTaintRule ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeviceTaintSelector:
    driver: str | None = None
    pool: str | None = None
    device: str | None = None
    # v1alpha3 in 1.33-1.34 only: the devices of a class, and CEL selectors
    device_class_name: str | None = None
    selectors: tuple[DeviceSelector, ...] = ()


@dataclass(frozen=True, slots=True)
class DeviceTaintRule:
    meta: ObjectMeta
    selector: DeviceTaintSelector | None
    taint: DeviceTaint


def device_taint_rule(data: Mapping[str, Any]) -> DeviceTaintRule:
    spec = read.mapping_or_empty(data, "spec")
    selector = read.mapping(spec, "deviceSelector")
    return DeviceTaintRule(
        meta=object_meta(read.mapping_or_empty(data, "metadata")),
        selector=DeviceTaintSelector(
            read.opt_text(selector, "driver"),
            read.opt_text(selector, "pool"),
            read.opt_text(selector, "device"),
            read.opt_text(selector, "deviceClassName"),
            _selectors(selector),
        )
        if selector is not None
        else None,
        taint=_taint(read.mapping_or_empty(spec, "taint")),
    )


# --- core/v1 objects dralint needs ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NodeTaint:
    key: str
    value: str = ""
    effect: str = ""


@dataclass(frozen=True, slots=True)
class Node:
    meta: ObjectMeta
    taints: tuple[NodeTaint, ...] = ()
    unschedulable: bool = False
    # status.allocatable as written (raw quantities); None when the Node has none (or an empty one):
    # the dry-run then takes it as unconstrained, not as a node where nothing fits
    allocatable: Mapping[str, str] | None = None
    kubelet_version: str | None = None  # status.nodeInfo.kubeletVersion as written ("v1.33.2")

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def labels(self) -> Mapping[str, str]:
        return self.meta.labels


def node(data: Mapping[str, Any]) -> Node:
    spec = read.mapping_or_empty(data, "spec")
    status = read.mapping_or_empty(data, "status")
    return Node(
        meta=object_meta(read.mapping_or_empty(data, "metadata")),
        taints=tuple(
            NodeTaint(read.text(t, "key"), read.text(t, "value"), read.text(t, "effect"))
            for t in read.items(spec, "taints")
        ),
        unschedulable=read.flag(spec, "unschedulable") is True,
        allocatable=read.scalars(status, "allocatable") or None,
        kubelet_version=read.text(read.mapping_or_empty(status, "nodeInfo"), "kubeletVersion") or None,
    )
