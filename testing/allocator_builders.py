"""Small builders for the allocator catalogue fixtures (tests/fixtures/allocator/catalogue/*.yaml).

The fixture format is compact and mirrors the helpers of the upstream shared test suite:
``class-a`` is a class selecting ``driver-a``; a slice names its node (or ``all``, ``perDevice``,
a label ``selector``), its pool (``pool-1`` = one slice, generation 1) and driver; a device is a
name or a v1 device with shorthands (``capacity: {memory: 1Gi}``, counters as plain quantities);
a request defaults to ``ExactCount`` with ``count: 1``. Everything is turned into v1 dicts and
then into the typed model, so the allocator sees exactly what the API would give it (no
defaulting is applied, as in the upstream tests).
"""

from __future__ import annotations

from typing import Any

from dralint.allocator import NEWEST, AllocatedState, Features, Release
from dralint.allocator.prepare import release_for
from dralint.api import model
from dralint.api.versions import make_target
from dralint.apimachinery.quantity import parse_quantity

FLAGS = {
    "adminAccess": "admin_access",
    "consumableCapacity": "consumable_capacity",
    "derivedAttributes": "derived_attributes",
    "deviceBindingAndStatus": "device_binding_and_status",
    "deviceCompatibilityGroups": "device_compatibility_groups",
    "deviceTaints": "device_taints",
    "fractionalCapacityRange": "fractional_capacity_range",
    "listTypeAttributes": "list_type_attributes",
    "partitionableDevices": "partitionable_devices",
    "prioritizedList": "prioritized_list",
}


def features(names: list[str] | None) -> Features:
    unknown = set(names or ()) - set(FLAGS)
    assert not unknown, f"unknown feature flags {unknown}"
    return Features(**{FLAGS[name]: True for name in names or ()})


def release(version: str | None) -> Release:
    """The allocator of Kubernetes ``version`` (``"1.34"``) where it differs from the newest."""
    return release_for(make_target(version)) if version is not None else NEWEST


def node(spec: Any) -> model.Node:
    if spec is None:
        spec = "node-1"
    if isinstance(spec, str):
        spec = {"name": spec, "region": "region-" + spec.rsplit("-", 1)[-1]}
    labels = {"region": spec["region"], "planet": "earth"} if "region" in spec else {}
    labels.update(spec.get("labels", {}))
    return model.node({"metadata": {"name": spec["name"], "labels": labels}})


def device_class(spec: Any) -> model.DeviceClass:
    if isinstance(spec, str):
        spec = {"name": spec}
    name = spec["name"]
    driver = spec.get("driver", "driver-" + name.rsplit("-", 1)[-1])
    expression = f'device.driver == "{driver}"'
    if "multi" in spec:
        expression += f" && device.allowMultipleAllocations == {str(spec['multi']).lower()}"
    selectors = spec.get("selectors", [expression])
    data: dict[str, Any] = {
        "metadata": {"name": name},
        "spec": {"selectors": [{"cel": {"expression": e}} for e in selectors]},
    }
    if "config" in spec:
        data["spec"]["config"] = [configuration(driver, spec["config"])]
    return model.device_class(data)


def configuration(driver: str, attribute: str) -> dict[str, Any]:
    """``deviceConfiguration``: opaque parameters ``{attribute: attributeValue}``."""
    return {"opaque": {"driver": driver, "parameters": {attribute: attribute + "Value"}}}


def _selector(spec: dict[str, Any]) -> dict[str, Any]:
    """A one-term node selector from ``{labels: {k: [v]}, fields: {k: [v]}}``."""
    term: dict[str, Any] = {}
    for key, kind in (("labels", "matchExpressions"), ("fields", "matchFields")):
        if key in spec:
            term[kind] = [{"key": k, "operator": "In", "values": list(v)} for k, v in spec[key].items()]
    return {"nodeSelectorTerms": [term]}


def _node_selection(spec: dict[str, Any], out: dict[str, Any]) -> None:
    where = spec.get("node")
    if where == "all":
        out["allNodes"] = True
    elif where == "perDevice":
        out["perDeviceNodeSelection"] = True
    elif where is not None:
        out["nodeName"] = where
    if "selector" in spec:
        out["nodeSelector"] = _selector(spec["selector"])
    if "nodeSelector" in spec:
        out["nodeSelector"] = spec["nodeSelector"]


def _quantities(values: dict[str, Any]) -> dict[str, Any]:
    return {k: {"value": str(v)} for k, v in values.items()}


def device(spec: Any) -> dict[str, Any]:
    if isinstance(spec, str):
        return {"name": spec}
    out: dict[str, Any] = {"name": spec["name"]}
    if "attributes" in spec:
        out["attributes"] = spec["attributes"]
    capacity = {}
    for name, value in (spec.get("capacity") or {}).items():
        capacity[name] = value if isinstance(value, dict) else {"value": str(value)}
    if "consumesCounters" in spec:
        out["consumesCounters"] = [
            {
                "counterSet": c["counterSet"],
                "counters": _quantities(c["counters"]),
                **({"compatibilityGroups": c["groups"]} if "groups" in c else {}),
            }
            for c in spec["consumesCounters"]
        ]
        if spec.get("capacityFromCounters"):
            for consumption in spec["consumesCounters"]:
                capacity.update(_quantities(consumption["counters"]))
    for name, value in (spec.get("policyRange") or {}).items():  # withCapacityRequestPolicyRange
        policy = {"default": "2", "validRange": {"min": "2", "step": "2", "max": "4"}}
        capacity[name] = {"value": str(value), "requestPolicy": policy}
    values = spec.get("policyValues")  # withCapacityRequestPolicyValidValues
    if values is not None:
        valid = [str(values["default"]), *(str(v) for v in values.get("values", []))]
        for name, value in values["capacity"].items():
            capacity[name] = {
                "value": str(value),
                "requestPolicy": {"default": str(values["default"]), "validValues": valid},
            }
    if capacity:
        out["capacity"] = capacity
    for key in (
        "taints",
        "bindingConditions",
        "bindingFailureConditions",
        "bindsToNode",
        "allowMultipleAllocations",
        "nodeAllocatableResources",
    ):
        if key in spec:
            out[key] = spec[key]
    _node_selection(spec, out)
    return out


def resource_slice(spec: dict[str, Any]) -> model.ResourceSlice:
    pool = spec.get("pool", "pool-1")
    if isinstance(pool, str):
        pool = {"name": pool}
    body: dict[str, Any] = {
        "driver": spec.get("driver", "driver-a"),
        "pool": {
            "name": pool["name"],
            "generation": pool.get("generation", 1),
            "resourceSliceCount": pool.get("count", 1),
        },
    }
    placed = any(key in spec for key in ("node", "selector", "nodeSelector"))
    _node_selection(spec if placed else {"node": "node-1", **spec}, body)
    if "perDeviceNodeSelection" in spec:
        body["perDeviceNodeSelection"] = spec["perDeviceNodeSelection"]
    devices = [device(d) for d in spec.get("devices", [])]
    devices += [{"name": f"device-{i}"} for i in range(spec.get("deviceCount", 0))]
    if devices:
        body["devices"] = devices
    if "counterSets" in spec:
        body["sharedCounters"] = [
            {"name": c["name"], "counters": _quantities(c["counters"])} for c in spec["counterSets"]
        ]
    return model.resource_slice({"metadata": {"name": spec.get("name", "slice-1")}, "spec": body})


def _exact(spec: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "deviceClassName": spec.get("class", "class-a"),
        "allocationMode": spec.get("mode", "ExactCount"),
    }
    if "count" in spec or out["allocationMode"] == "ExactCount":
        out["count"] = spec.get("count", 1)
    if "selectors" in spec:
        out["selectors"] = [{"cel": {"expression": e}} if e is not None else {} for e in spec["selectors"]]
    if "tolerations" in spec:
        out["tolerations"] = spec["tolerations"]
    if "capacity" in spec:
        out["capacity"] = {"requests": {k: str(v) for k, v in (spec["capacity"] or {}).items()}}
    if "adminAccess" in spec:
        out["adminAccess"] = spec["adminAccess"]
    if "derived" in spec:  # {name: expression}
        out["derivedAttributes"] = [{"name": n, "expression": e} for n, e in spec["derived"].items()]
    return out


def claim(spec: Any) -> model.ResourceClaim:
    if isinstance(spec, str):
        spec = {"name": spec}
    requests = []
    for request in spec.get("requests", [{"name": "req-0"}]):
        if "firstAvailable" in request:
            entries = [{"name": e["name"], **_exact(e)} for e in request["firstAvailable"]]
            requests.append({"name": request["name"], "firstAvailable": entries})
        else:
            requests.append({"name": request["name"], "exactly": _exact(request)})
    devices: dict[str, Any] = {"requests": requests}
    if "constraints" in spec:
        devices["constraints"] = spec["constraints"]
    if "config" in spec:
        devices["config"] = [
            {**({"requests": c["requests"]} if "requests" in c else {}), **configuration(c["driver"], c["attribute"])}
            for c in spec["config"]
        ]
    meta = {"name": spec["name"], **({"namespace": spec["namespace"]} if "namespace" in spec else {})}
    return model.resource_claim({"metadata": meta, "spec": {"devices": devices}})


def _device_id(text: str) -> tuple[str, str, str]:
    driver, pool, name = text.split("/")
    return driver, pool, name


def allocated_state(case: dict[str, Any]) -> AllocatedState:
    shared = frozenset(
        (_device_id(text.rsplit("/", 1)[0]), text.rsplit("/", 1)[1]) for text in case.get("allocatedShared", [])
    )
    capacity = {
        _device_id(key): {name: parse_quantity(str(q)) for name, q in values.items()}
        for key, values in (case.get("allocatedCapacity") or {}).items()
    }
    return AllocatedState(frozenset(_device_id(t) for t in case.get("allocated", [])), shared, capacity)
