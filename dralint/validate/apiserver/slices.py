"""ResourceSlice spec validation (spec/api.md §3.5): driver, pool, node selection, devices, counters.

Per-device checks live in :mod:`devices`; this module holds the slice-level rules, both counter
models (1.33–1.34 and 1.35+), ``partitionTypeAttribute`` and ``skipNodeOperations``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.api import read
from dralint.apimachinery.fieldpath import Key, Path
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.devices import LIST_KINDS, counters, device
from dralint.validate.apiserver.errors import (
    ONE_OF,
    TOO_MANY,
    FieldError,
    GoValue,
    duplicate,
    go_quote,
    invalid,
    not_supported,
    required,
)
from dralint.validate.apiserver.formats import (
    dns_label,
    driver_name,
    fully_qualified_name,
    node_name,
    node_selector,
    pool_name,
)
from dralint.validate.apiserver.lists import check_set

MAX_DEVICES = 128
MAX_COUNTER_SETS = 8
OLD_MAX_SHARED_COUNTERS = 32
OLD_MAX_COUNTERS_PER_DEVICE = 32
OLD_MAX_DEVICE_COUNTERS_PER_SLICE = 1024
SKIP_NODE_OPERATIONS = ("*", "NodePrepareResources", "NodeUnprepareResources")
SPEC: Path = ("spec",)


def resource_slice(data: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    spec = read.mapping_or_empty(data, "spec")
    out = driver_name(read.text(spec, "driver"), (*SPEC, "driver"), b)
    out += _pool(read.mapping_or_empty(spec, "pool"), b)
    out += _node_selection(spec, b)
    devices = read.opt_items(spec, "devices")
    shared = read.opt_items(spec, "sharedCounters")
    if b.counter_model == "new" and devices is not None and shared is not None:
        out.append(
            invalid(
                SPEC,
                "",
                "only one of `sharedCounters` or `devices` is allowed",
                kind=ONE_OF,
                hint="publish the counter sets in a ResourceSlice of their own, without devices",
            )
        )
    per_device = read.flag(spec, "perDeviceNodeSelection") is True
    out += check_set(
        devices or [],
        _max_devices(devices or [], b),
        lambda d, at: device(d, at, b, per_device_node_selection=per_device),
        lambda d: read.opt_text(d, "name"),
        (*SPEC, "devices"),
        b,
        too_many_hint="split the pool's devices over several ResourceSlices (set pool.resourceSliceCount)",
        duplicate_hint="give every device of the slice a unique name",
    )
    if b.counter_model == "new":
        out += check_set(
            shared or [],
            MAX_COUNTER_SETS,
            lambda s, at: _counter_set(s, at, b),
            lambda s: read.opt_text(s, "name"),
            (*SPEC, "sharedCounters"),
            b,
            duplicate_hint="give every counter set a unique name",
        )
    elif b.counter_model == "old":
        out += _old_counters(devices or [], shared or [], b)
    partition = read.opt_text(spec, "partitionTypeAttribute")
    if partition is not None:
        out += _partition_type(spec, partition, devices or [], b)
    out += _skip_node_operations(read.opt_items(spec, "skipNodeOperations"), (*SPEC, "skipNodeOperations"))
    return out


def _pool(pool: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    path = (*SPEC, "pool")
    out = pool_name(read.text(pool, "name"), (*path, "name"), b)
    count = read.integer(pool, "resourceSliceCount")
    if count is not None and count <= 0:
        out.append(
            invalid(
                (*path, "resourceSliceCount"),
                count,
                "must be greater than zero",
                hint="set it to the number of ResourceSlices that make up the pool (usually 1)",
            )
        )
    generation = read.integer(pool, "generation")
    if generation is not None and generation < 0:
        out.append(
            invalid(
                (*path, "generation"),
                generation,
                "must be greater than or equal to zero",
                hint="start at 0 and increase it whenever the pool's slices change",
            )
        )
    return out


def _node_selection(spec: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    """Exactly one of nodeName, nodeSelector, allNodes (and perDeviceNodeSelection from 1.33)."""
    out: list[FieldError] = []
    chosen: list[str] = []
    name = read.opt_text(spec, "nodeName")
    if name is not None:
        if name:
            chosen.append("`nodeName`")
            out += node_name(name, (*SPEC, "nodeName"))
        else:
            out.append(
                invalid(
                    (*SPEC, "nodeName"),
                    "",
                    "must be either unset or set to a non-empty string",
                    hint="remove nodeName, or name the node",
                )
            )
    selector = read.mapping(spec, "nodeSelector")
    if selector is not None:
        chosen.append("`nodeSelector`")
        out += node_selector(selector, (*SPEC, "nodeSelector"))
        terms = read.items(selector, "nodeSelectorTerms")
        if len(terms) != 1:
            out.append(
                invalid(
                    (*SPEC, "nodeSelector", "nodeSelectorTerms"),
                    terms,
                    "must have exactly one node selector term",
                    hint="combine the requirements into a single term",
                )
            )
    fields = [("allNodes", "`allNodes`")]
    if b.per_device_node_selection:
        fields.append(("perDeviceNodeSelection", "`perDeviceNodeSelection`"))
    for key, shown in fields:
        value = read.flag(spec, key)
        if value is True:
            chosen.append(shown)
        elif value is False:
            out.append(
                invalid((*SPEC, key), False, "must be either unset or set to true", hint=f"remove `{key}: false`")
            )
    members = (
        "`nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection`"
        if b.per_device_node_selection
        else "`nodeName`, `nodeSelector`, or `allNodes`"
    )
    hint = "set exactly one of " + members.replace(", or ", ", ")
    if not chosen:
        out.append(required(SPEC, f"exactly one of {members} is required", kind=ONE_OF, hint=hint))
    elif len(chosen) > 1:
        out.append(
            invalid(
                SPEC,
                "{" + ", ".join(chosen) + "}",
                f"exactly one of {members} is required, but multiple fields are set",
                kind=ONE_OF,
                hint=hint,
            )
        )
    return out


def _max_devices(devices: list[Any], b: Behaviour) -> int:
    if b.max_devices_advanced is None:
        return MAX_DEVICES
    list_attributes = b.max_attribute_values is not None  # list attributes count from 1.36
    for item in devices:
        if not isinstance(item, Mapping):
            continue
        if item.get("taints") or item.get("consumesCounters"):
            return b.max_devices_advanced
        attributes = item.get("attributes")
        if list_attributes and isinstance(attributes, Mapping):
            for value in attributes.values():
                if isinstance(value, Mapping) and any(isinstance(value.get(k), list) for k in LIST_KINDS):
                    return b.max_devices_advanced
    return MAX_DEVICES


def _counter_set(data: Any, path: Path, b: Behaviour) -> list[FieldError]:
    name = read.text(data, "name")
    out = [required((*path, "name"), hint="name the counter set")] if not name else dns_label(name, (*path, "name"))
    return out + counters(data, path, b)


def _old_counters(devices: list[Any], shared: list[Any], b: Behaviour) -> list[FieldError]:
    """The 1.33–1.34 counter model (RS-C1…RS-C6): devices consume sets defined in the same slice."""
    out: list[FieldError] = []
    shared_path = (*SPEC, "sharedCounters")
    total = sum(len(read.mapping_or_empty(s, "counters")) for s in shared)
    if total > OLD_MAX_SHARED_COUNTERS:
        out.append(
            invalid(
                shared_path,
                total,
                f"the total number of shared counters must not exceed {OLD_MAX_SHARED_COUNTERS}",
                kind=TOO_MANY,
            )
        )
    defined: dict[str, set[str]] = {}
    for index, counter_set in enumerate(shared):
        path = (*shared_path, index)
        name = read.text(counter_set, "name")
        if name in defined:
            out.append(duplicate((*path, "name"), name, hint="give every counter set a unique name"))
        out += [required((*path, "name"))] if not name else dns_label(name, (*path, "name"))
        out += counters(counter_set, path, b, maximum=-1)  # the old model limits the total instead
        defined.setdefault(name, set()).update(str(k) for k in read.mapping_or_empty(counter_set, "counters"))
    consumed_in_slice = 0
    for index, item in enumerate(devices):
        device_path = (*SPEC, "devices", index)
        consumed_by_device = 0
        for k, consumption in enumerate(read.items(item, "consumesCounters")):
            path = (*device_path, "consumesCounters", k)
            counter_set = read.text(consumption, "counterSet")
            entries = read.mapping_or_empty(consumption, "counters")
            consumed_by_device += len(entries)
            if not counter_set:
                out.append(required((*path, "counterSet")))
            elif counter_set not in defined:
                out.append(
                    invalid(
                        (*path, "counterSet"),
                        counter_set,
                        "must reference a counterSet defined in the ResourceSlice sharedCounters",
                        hint="define the counter set in spec.sharedCounters of this slice",
                    )
                )
            if not entries:
                out.append(required((*path, "counters")))
            elif counter_set in defined:
                for counter in entries:
                    if str(counter) not in defined[counter_set]:
                        out.append(
                            invalid(
                                (*path, "counters"),
                                str(counter),
                                "must reference a counter defined in the ResourceSlice sharedCounters",
                                at=(*path, "counters", Key(str(counter))),
                            )
                        )
        if consumed_by_device > OLD_MAX_COUNTERS_PER_DEVICE:
            out.append(
                invalid(
                    device_path,
                    consumed_by_device,
                    f"the total number of counters must not exceed {OLD_MAX_COUNTERS_PER_DEVICE}",
                    kind=TOO_MANY,
                )
            )
        consumed_in_slice += consumed_by_device
    if consumed_in_slice > OLD_MAX_DEVICE_COUNTERS_PER_SLICE:
        out.append(
            invalid(
                (*SPEC, "devices"),
                consumed_in_slice,
                f"the total number of counters in devices must not exceed {OLD_MAX_DEVICE_COUNTERS_PER_SLICE}",
                kind=TOO_MANY,
            )
        )
    return out


def _partition_type(spec: Mapping[str, Any], name: str, devices: list[Any], b: Behaviour) -> list[FieldError]:
    """``partitionTypeAttribute`` (1.37): only with counter-consuming devices, each carrying it as a string."""
    path = (*SPEC, "partitionTypeAttribute")
    out = fully_qualified_name(name, path, b)
    consumers = [(i, d) for i, d in enumerate(devices) if read.items(d, "consumesCounters")]
    if not consumers:
        return [
            *out,
            invalid(
                path,
                name,
                "may only be set on a slice which declares devices that consume counters",
                hint="remove partitionTypeAttribute, or publish it on the slice with the partitions",
            ),
        ]
    if out:
        return out
    bare = name.removeprefix(read.text(spec, "driver") + "/")
    bare = bare if bare != name else ""
    for index, item in consumers:
        attributes = read.mapping_or_empty(item, "attributes")
        attribute_path = (*SPEC, "devices", index, "attributes", Key(name))
        key = name if name in attributes else (bare if bare and bare in attributes else None)
        if key is None:
            out.append(
                required(
                    attribute_path,
                    "device consumes counters and `partitionTypeAttribute` names this attribute, so it must be set",
                    hint=f"add the string attribute `{name}` to the device",
                )
            )
            continue
        attribute = attributes[key]
        if not isinstance(attribute, Mapping) or not isinstance(attribute.get("string"), str):
            out.append(
                invalid(
                    attribute_path,
                    attribute,
                    "must be a string value because `partitionTypeAttribute` names this attribute",
                    hint="publish the partition type as a `string` attribute",
                )
            )
    return out


def _skip_node_operations(items: list[Any] | None, path: Path) -> list[FieldError]:
    """RS-75 / RCS-13: known operations, no duplicates, prepare only with unprepare (or ``*``)."""
    if items is None:
        return []
    out: list[FieldError] = []
    seen: set[str] = set()
    values = [v for v in items if isinstance(v, str)]
    for index, value in enumerate(values):
        if value not in SKIP_NODE_OPERATIONS:
            out.append(not_supported((*path, index), value, SKIP_NODE_OPERATIONS))
        if value in seen:
            out.append(duplicate((*path, index), value))
        seen.add(value)
    if "NodePrepareResources" in seen and "NodeUnprepareResources" not in seen and "*" not in seen:
        shown = GoValue("[]resource.SkipNodeOperation{" + ", ".join(go_quote(v) for v in values) + "}")
        out.append(
            invalid(
                path,
                shown,
                "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped",
                hint="also skip NodeUnprepareResources",
            )
        )
    return out


skip_node_operations = _skip_node_operations


def legacy_basic_required(raw: Mapping[str, Any] | None, b: Behaviour) -> list[FieldError]:
    """Up to 1.32 a v1alpha3/v1beta1 device needed its ``basic`` block (it could not be empty)."""
    if raw is None or not b.flat_requests:
        return []
    devices = read.items(read.mapping(raw, "spec"), "devices")
    return [
        required((*SPEC, "devices", index, "basic"), hint="put the device's attributes and capacity under `basic:`")
        for index, item in enumerate(devices)
        if isinstance(item, Mapping) and item.get("basic") is None
    ]
