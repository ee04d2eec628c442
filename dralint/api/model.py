"""The typed DRA object model, in the v1 shape, built from v1-shaped dicts.

Everything after ``api/`` works on these values, never on raw dicts. Builders are lenient: a
field of the wrong type becomes its zero value (schema validation reports the type error), so
later stages never crash on malformed input. Presence is kept where the API gives it meaning:
``None`` is "not set", an empty tuple is "set but empty" only where the server distinguishes.

Longer than 500 lines on purpose: it is the whole v1 type tree (as k8s.io/api/resource/v1
types.go is one file), and splitting it by kind would scatter the types the kinds share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dralint.quantity import Quantity, QuantityError, parse_quantity

# --- lenient field readers ------------------------------------------------------------------


def _map(data: Any, key: str) -> Mapping[str, Any]:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def _opt_map(data: Any, key: str) -> Mapping[str, Any] | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, Mapping) else None


def _list(data: Any, key: str) -> list[Any]:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, list) else []


def _opt_list(data: Any, key: str) -> list[Any] | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, list) else None


def _str(data: Any, key: str) -> str:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, str) else ""


def _opt_str(data: Any, key: str) -> str | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, str) else None


def _int(data: Any, key: str) -> int:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _opt_int(data: Any, key: str) -> int | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _opt_bool(data: Any, key: str) -> bool | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, bool) else None


def _strs(data: Any, key: str) -> tuple[str, ...]:
    return tuple(v for v in _list(data, key) if isinstance(v, str))


def quantity(value: Any) -> Quantity | None:
    """A quantity from YAML (a string or a number), or ``None`` when it does not parse."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        value = str(int(value)) if float(value).is_integer() else repr(value)
    if not isinstance(value, str):
        return None
    try:
        return parse_quantity(value)
    except QuantityError:
        return None


def _quantities(data: Any) -> dict[str, Quantity]:
    out = {}
    if isinstance(data, Mapping):
        for key, value in data.items():
            parsed = quantity(value)
            if parsed is not None:
                out[str(key)] = parsed
    return out


# --- shared ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ObjectMeta:
    name: str = ""
    namespace: str = ""
    generate_name: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    uid: str = ""


def object_meta(data: Any) -> ObjectMeta:
    return ObjectMeta(
        name=_str(data, "name"),
        namespace=_str(data, "namespace"),
        generate_name=_str(data, "generateName"),
        labels={str(k): v for k, v in _map(data, "labels").items() if isinstance(v, str)},
        annotations={str(k): v for k, v in _map(data, "annotations").items() if isinstance(v, str)},
        uid=_str(data, "uid"),
    )


@dataclass(frozen=True, slots=True)
class NodeSelectorRequirement:
    key: str
    operator: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NodeSelectorTerm:
    match_expressions: tuple[NodeSelectorRequirement, ...] = ()
    match_fields: tuple[NodeSelectorRequirement, ...] = ()


@dataclass(frozen=True, slots=True)
class NodeSelector:
    terms: tuple[NodeSelectorTerm, ...] = ()


def _requirement(data: Any) -> NodeSelectorRequirement:
    return NodeSelectorRequirement(_str(data, "key"), _str(data, "operator"), _strs(data, "values"))


def node_selector(data: Any) -> NodeSelector | None:
    if not isinstance(data, Mapping):
        return None
    terms = tuple(
        NodeSelectorTerm(
            tuple(_requirement(r) for r in _list(term, "matchExpressions")),
            tuple(_requirement(r) for r in _list(term, "matchFields")),
        )
        for term in _list(data, "nodeSelectorTerms")
    )
    return NodeSelector(terms)


@dataclass(frozen=True, slots=True)
class CELDeviceSelector:
    expression: str


@dataclass(frozen=True, slots=True)
class DeviceSelector:
    cel: CELDeviceSelector | None


def _selectors(data: Any, key: str = "selectors") -> tuple[DeviceSelector, ...]:
    out = []
    for item in _list(data, key):
        cel = _opt_map(item, "cel")
        out.append(DeviceSelector(CELDeviceSelector(_str(cel, "expression")) if cel is not None else None))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class OpaqueDeviceConfiguration:
    driver: str
    parameters: Any


def _opaque(data: Any) -> OpaqueDeviceConfiguration | None:
    opaque = _opt_map(data, "opaque")
    if opaque is None:
        return None
    return OpaqueDeviceConfiguration(_str(opaque, "driver"), opaque.get("parameters"))


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
    spec = _map(data, "spec")
    return DeviceClass(
        meta=object_meta(_map(data, "metadata")),
        selectors=_selectors(spec),
        config=tuple(DeviceClassConfiguration(_opaque(c)) for c in _list(spec, "config")),
        extended_resource_name=_opt_str(spec, "extendedResourceName"),
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
    items = _opt_list(data, "tolerations")
    if items is None:
        return None
    return tuple(
        DeviceToleration(
            key=_str(t, "key"),
            operator=_str(t, "operator") or "Equal",
            value=_str(t, "value"),
            effect=_str(t, "effect"),
            toleration_seconds=_opt_int(t, "tolerationSeconds"),
        )
        for t in items
    )


@dataclass(frozen=True, slots=True)
class CapacityRequirements:
    requests: Mapping[str, Quantity] = field(default_factory=dict)


def _capacity_requirements(data: Any) -> CapacityRequirements | None:
    capacity = _opt_map(data, "capacity")
    if capacity is None:
        return None
    return CapacityRequirements(_quantities(capacity.get("requests")))


@dataclass(frozen=True, slots=True)
class ExactDeviceRequest:
    device_class_name: str = ""
    selectors: tuple[DeviceSelector, ...] = ()
    allocation_mode: str = ""
    count: int = 0
    admin_access: bool | None = None
    tolerations: tuple[DeviceToleration, ...] | None = None
    capacity: CapacityRequirements | None = None


@dataclass(frozen=True, slots=True)
class DeviceSubRequest:
    name: str = ""
    device_class_name: str = ""
    selectors: tuple[DeviceSelector, ...] = ()
    allocation_mode: str = ""
    count: int = 0
    tolerations: tuple[DeviceToleration, ...] | None = None
    capacity: CapacityRequirements | None = None


@dataclass(frozen=True, slots=True)
class DeviceRequest:
    name: str
    exactly: ExactDeviceRequest | None = None
    first_available: tuple[DeviceSubRequest, ...] | None = None


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
        device_class_name=_str(data, "deviceClassName"),
        selectors=_selectors(data),
        allocation_mode=_str(data, "allocationMode"),
        count=_int(data, "count"),
        admin_access=_opt_bool(data, "adminAccess"),
        tolerations=_tolerations(data),
        capacity=_capacity_requirements(data),
    )


def _subrequest(data: Any) -> DeviceSubRequest:
    return DeviceSubRequest(
        name=_str(data, "name"),
        device_class_name=_str(data, "deviceClassName"),
        selectors=_selectors(data),
        allocation_mode=_str(data, "allocationMode"),
        count=_int(data, "count"),
        tolerations=_tolerations(data),
        capacity=_capacity_requirements(data),
    )


def claim_spec(spec: Any) -> ResourceClaimSpec:
    devices = _map(spec, "devices")
    requests = []
    for item in _list(devices, "requests"):
        exactly = _opt_map(item, "exactly")
        entries = _opt_list(item, "firstAvailable")
        requests.append(
            DeviceRequest(
                name=_str(item, "name"),
                exactly=_exact(exactly) if exactly is not None else None,
                first_available=tuple(_subrequest(e) for e in entries) if entries is not None else None,
            )
        )
    constraints = tuple(
        DeviceConstraint(
            requests=_strs(c, "requests"),
            match_attribute=_opt_str(c, "matchAttribute"),
            distinct_attribute=_opt_str(c, "distinctAttribute"),
        )
        for c in _list(devices, "constraints")
    )
    config = tuple(DeviceClaimConfiguration(_strs(c, "requests"), _opaque(c)) for c in _list(devices, "config"))
    return ResourceClaimSpec(tuple(requests), constraints, config)


def allocation_result(data: Any) -> AllocationResult | None:
    if not isinstance(data, Mapping):
        return None
    devices = _map(data, "devices")
    results = tuple(
        DeviceRequestAllocationResult(
            request=_str(r, "request"),
            driver=_str(r, "driver"),
            pool=_str(r, "pool"),
            device=_str(r, "device"),
            admin_access=_opt_bool(r, "adminAccess"),
            tolerations=_tolerations(r),
            binding_conditions=_strs(r, "bindingConditions"),
            binding_failure_conditions=_strs(r, "bindingFailureConditions"),
            share_id=_opt_str(r, "shareID"),
            consumed_capacity=_quantities(r.get("consumedCapacity"))
            if isinstance(r, Mapping) and "consumedCapacity" in r
            else None,
        )
        for r in _list(devices, "results")
    )
    config = tuple(
        DeviceAllocationConfiguration(_str(c, "source"), _strs(c, "requests"), _opaque(c))
        for c in _list(devices, "config")
    )
    return AllocationResult(results, config, node_selector(data.get("nodeSelector")))


def resource_claim(data: Mapping[str, Any]) -> ResourceClaim:
    status = _map(data, "status")
    return ResourceClaim(
        meta=object_meta(_map(data, "metadata")),
        spec=claim_spec(_map(data, "spec")),
        allocation=allocation_result(status.get("allocation")),
        reserved_for=len(_list(status, "reservedFor")),
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
    spec = _map(data, "spec")
    return ResourceClaimTemplate(
        meta=object_meta(_map(data, "metadata")),
        claim_meta=object_meta(_map(spec, "metadata")),
        spec=claim_spec(_map(spec, "spec")),
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
        policy_data = _opt_map(entry, "requestPolicy")
        policy = None
        if policy_data is not None:
            range_data = _opt_map(policy_data, "validRange")
            policy = CapacityRequestPolicy(
                default=quantity(policy_data.get("default")),
                valid_values=tuple(q for q in map(quantity, _list(policy_data, "validValues")) if q is not None),
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
    return DeviceTaint(_str(data, "key"), _str(data, "value"), _str(data, "effect"), _opt_str(data, "timeAdded"))


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


def device(data: Any) -> Device:
    binding = _opt_list(data, "bindingConditions")
    failure = _opt_list(data, "bindingFailureConditions")
    return Device(
        name=_str(data, "name"),
        attributes={str(k): _attribute(v) for k, v in _map(data, "attributes").items()},
        capacity=_capacity(data.get("capacity") if isinstance(data, Mapping) else None),
        consumes_counters=tuple(
            DeviceCounterConsumption(
                _str(c, "counterSet"), _counters(c.get("counters") if isinstance(c, Mapping) else None)
            )
            for c in _list(data, "consumesCounters")
        ),
        node_name=_opt_str(data, "nodeName"),
        node_selector=node_selector(data.get("nodeSelector")) if isinstance(data, Mapping) else None,
        all_nodes=_opt_bool(data, "allNodes"),
        taints=tuple(_taint(t) for t in _list(data, "taints")),
        binds_to_node=_opt_bool(data, "bindsToNode"),
        binding_conditions=tuple(v for v in binding if isinstance(v, str)) if binding is not None else None,
        binding_failure_conditions=tuple(v for v in failure if isinstance(v, str)) if failure is not None else None,
        allow_multiple_allocations=_opt_bool(data, "allowMultipleAllocations"),
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
    spec = _map(data, "spec")
    pool = _map(spec, "pool")
    return ResourceSlice(
        meta=object_meta(_map(data, "metadata")),
        driver=_str(spec, "driver"),
        pool=ResourcePool(_str(pool, "name"), _int(pool, "generation"), _int(pool, "resourceSliceCount")),
        node_name=_opt_str(spec, "nodeName"),
        node_selector=node_selector(spec.get("nodeSelector")),
        all_nodes=_opt_bool(spec, "allNodes"),
        per_device_node_selection=_opt_bool(spec, "perDeviceNodeSelection"),
        devices=tuple(device(d) for d in _list(spec, "devices")),
        shared_counters=tuple(
            CounterSet(_str(c, "name"), _counters(c.get("counters") if isinstance(c, Mapping) else None))
            for c in _list(spec, "sharedCounters")
        ),
    )


# --- DeviceTaintRule ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeviceTaintSelector:
    driver: str | None = None
    pool: str | None = None
    device: str | None = None


@dataclass(frozen=True, slots=True)
class DeviceTaintRule:
    meta: ObjectMeta
    selector: DeviceTaintSelector | None
    taint: DeviceTaint


def device_taint_rule(data: Mapping[str, Any]) -> DeviceTaintRule:
    spec = _map(data, "spec")
    selector = _opt_map(spec, "deviceSelector")
    return DeviceTaintRule(
        meta=object_meta(_map(data, "metadata")),
        selector=DeviceTaintSelector(
            _opt_str(selector, "driver"), _opt_str(selector, "pool"), _opt_str(selector, "device")
        )
        if selector is not None
        else None,
        taint=_taint(_map(spec, "taint")),
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

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def labels(self) -> Mapping[str, str]:
        return self.meta.labels


def node(data: Mapping[str, Any]) -> Node:
    spec = _map(data, "spec")
    return Node(
        meta=object_meta(_map(data, "metadata")),
        taints=tuple(NodeTaint(_str(t, "key"), _str(t, "value"), _str(t, "effect")) for t in _list(spec, "taints")),
        unschedulable=_opt_bool(spec, "unschedulable") is True,
    )
