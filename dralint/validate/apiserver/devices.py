"""One device of a ResourceSlice: name, attributes, capacity, taints, counters, node selection (RS-17…RS-70)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from dralint.api import read
from dralint.api.meta import quantity
from dralint.apimachinery.fieldpath import Key, Path
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.capacity import capacity_item
from dralint.validate.apiserver.errors import (
    ONE_OF,
    TOO_MANY,
    FieldError,
    go_slice,
    invalid,
    not_found,
    required,
    too_long,
    too_many,
)
from dralint.validate.apiserver.formats import (
    dns_label,
    is_semver,
    node_name,
    node_selector,
    qualified_name,
)
from dralint.validate.apiserver.lists import KeyCheck, check_list, check_map, check_set
from dralint.validate.apiserver.taints import binding_conditions, taint_errors

MAX_ATTRIBUTES_AND_CAPACITIES = 32
ATTRIBUTE_MAX_VALUE_LENGTH = 64
MAX_COUNTER_CONSUMPTIONS = 2
MAX_COUNTERS = 32
MAX_COMPATIBILITY_GROUPS = 2
KEY_TRUNCATE = 63 + 1 + 32
SCALAR_KINDS = ("bool", "int", "string", "version")
LIST_KINDS = ("bools", "ints", "strings", "versions")
_GO_LIST_TYPES = {"bools": "bool", "ints": "int64", "strings": "string", "versions": "string"}
_NODE_ALLOCATABLE = frozenset({"cpu", "memory", "ephemeral-storage"})


def device(data: Any, path: Path, b: Behaviour, *, per_device_node_selection: bool) -> list[FieldError]:
    """``validateDevice`` (new counter model; the 1.33–1.34 counter checks live in :mod:`slices`)."""
    out = dns_label(read.text(data, "name"), (*path, "name"))
    attributes = read.mapping_or_empty(data, "attributes")
    capacity = read.mapping_or_empty(data, "capacity")
    total = len(attributes) + len(capacity)
    if total > MAX_ATTRIBUTES_AND_CAPACITIES:
        out.append(
            invalid(
                path,
                total,
                f"the total number of attributes and capacities must not exceed {MAX_ATTRIBUTES_AND_CAPACITIES}",
                kind=TOO_MANY,
                hint="publish fewer attributes and capacities per device",
            )
        )
    if b.max_attribute_values is not None:
        values = attribute_value_count(attributes)
        if values > b.max_attribute_values:
            out.append(
                invalid(
                    path,
                    values,
                    f"the total number of attribute values must not exceed {b.max_attribute_values}",
                    kind=TOO_MANY,
                    hint="list attributes count every item; publish fewer values",
                )
            )
    out += check_map(
        attributes, -1, KEY_TRUNCATE, _qualified_key(b), lambda v, at: _attribute(v, at), (*path, "attributes"), b
    )
    multiple = read.flag(data, "allowMultipleAllocations") is True
    out += check_map(
        capacity,
        -1,
        KEY_TRUNCATE,
        _qualified_key(b),
        lambda v, at: capacity_item(v, at, b, multiple=multiple),
        (*path, "capacity"),
        b,
    )
    out += check_list(
        read.items(data, "taints"), b.max_taints, lambda t, at: taint_errors(t, at, b), (*path, "taints"), b
    )
    if b.counter_model == "new":
        out += check_set(
            read.items(data, "consumesCounters"),
            MAX_COUNTER_CONSUMPTIONS,
            lambda c, at: _consumption(c, at, b),
            lambda c: read.opt_text(c, "counterSet"),
            (*path, "consumesCounters"),
            b,
            name_field="counterSet",
            duplicate_hint="consume each counter set once per device",
        )
    out += _node_selection(data, path, per_device_node_selection)
    out += binding_conditions(data, path, b)
    out += _node_allocatable(
        read.mapping(data, "nodeAllocatableResources"), capacity, (*path, "nodeAllocatableResources")
    )
    return out


def attribute_value_count(attributes: Mapping[str, Any]) -> int:
    """``numEntriesDeviceAttribute``: scalars count once, list attributes count every item."""
    total = 0
    for value in attributes.values():
        items = 0
        if isinstance(value, Mapping):
            for kind in LIST_KINDS:
                entries = value.get(kind)
                if isinstance(entries, list):
                    items += len(entries)
        total += items or 1
    return total


def _qualified_key(b: Behaviour) -> KeyCheck:
    def check(key: str, printed: Path, at: Path) -> list[FieldError]:
        return qualified_name(key, printed, b, at=at)

    return check


def _attribute(value: Any, path: Path) -> list[FieldError]:
    """``validateDeviceAttribute``: exactly one value field; strings ≤ 64 bytes; versions semver."""
    if isinstance(value, dict) and len(value) == 1:
        # Fast path for the usual single scalar value.
        ((kind, item),) = value.items()
        if (kind == "int" or kind == "bool") and item is not None:
            return []
        if kind == "string" and isinstance(item, str) and len(item) <= ATTRIBUTE_MAX_VALUE_LENGTH and item.isascii():
            return []
    out: list[FieldError] = []
    data = value if isinstance(value, Mapping) else {}
    set_fields = [kind for kind in (*SCALAR_KINDS, *LIST_KINDS) if data.get(kind) is not None]
    if isinstance(data.get("string"), str):
        out += _string_value(data["string"], (*path, "string"))
    if isinstance(data.get("version"), str):
        out += _version_value(data["version"], (*path, "version"))
    for kind in LIST_KINDS:
        items = read.opt_items(data, kind)
        if items is None:
            continue
        if not items:
            out.append(
                invalid(
                    (*path, kind),
                    go_slice(_GO_LIST_TYPES[kind], []),
                    "must not be empty if specified",
                    hint=f"remove `{kind}` or list at least one value",
                )
            )
        for index, item in enumerate(items):
            if kind == "strings" and isinstance(item, str):
                out += _string_value(item, (*path, kind, index))
            elif kind == "versions" and isinstance(item, str):
                out += _version_value(item, (*path, kind, index))
    hint = "set exactly one of " + ", ".join(f"`{k}`" for k in (*SCALAR_KINDS, *LIST_KINDS))
    if not set_fields:
        out.append(invalid(path, "", "exactly one value must be specified", kind=ONE_OF, hint=hint))
    elif len(set_fields) > 1:
        shown = {k: data[k] for k in set_fields}
        out.append(invalid(path, shown, "exactly one value must be specified", kind=ONE_OF, hint=hint))
    return out


def _string_value(value: str, path: Path) -> list[FieldError]:
    if len(value.encode()) > ATTRIBUTE_MAX_VALUE_LENGTH:
        return [too_long(path, ATTRIBUTE_MAX_VALUE_LENGTH, hint="attribute strings hold at most 64 bytes")]
    return []


def _version_value(value: str, path: Path) -> list[FieldError]:
    out: list[FieldError] = []
    if not is_semver(value):
        hint = "write MAJOR.MINOR.PATCH without a `v` prefix, e.g. `1.2.3`"
        out.append(invalid(path, value, "must be a string compatible with semver.org spec 2.0.0", hint=hint))
    if len(value.encode()) > ATTRIBUTE_MAX_VALUE_LENGTH:
        out.append(too_long(path, ATTRIBUTE_MAX_VALUE_LENGTH, hint="versions hold at most 64 bytes"))
    return out


def _consumption(data: Any, path: Path, b: Behaviour) -> list[FieldError]:
    """``validateDeviceCounterConsumption`` (1.35+)."""
    out: list[FieldError] = []
    counter_set = read.text(data, "counterSet")
    if not counter_set:
        out.append(required((*path, "counterSet"), hint="name the counter set this device draws from"))
    else:
        out += dns_label(counter_set, (*path, "counterSet"))
    out += counters(data, path, b)
    groups = read.items(data, "compatibilityGroups")
    if len(groups) > MAX_COMPATIBILITY_GROUPS:
        out.append(
            too_many(
                (*path, "compatibilityGroups"),
                len(groups),
                MAX_COMPATIBILITY_GROUPS,
                hint="a counter consumption belongs to at most 2 compatibility groups",
            )
        )
    else:
        out += check_set(
            groups,
            -1,
            None,
            lambda g: g if isinstance(g, str) else None,
            (*path, "compatibilityGroups"),
            b,
            name_field=None,
        )
    return out


def counters(data: Any, path: Path, b: Behaviour, *, maximum: int = MAX_COUNTERS) -> list[FieldError]:
    """A ``counters`` map (counter sets and consumptions): non-empty, ≤ ``maximum``, DNS-label keys."""
    entries = read.mapping(data, "counters")
    if not entries:
        return [required((*path, "counters"), hint="list at least one counter")]

    def key(name: str, printed: Path, at: Path) -> list[FieldError]:
        return [replace(e, at=at) for e in dns_label(name, printed)]

    return check_map(entries, maximum, 63, key, None, (*path, "counters"), b)


def _node_selection(data: Any, path: Path, per_device: bool) -> list[FieldError]:
    """Per-device nodeName/nodeSelector/allNodes (RS-55…RS-59)."""
    name = read.opt_text(data, "nodeName")
    selector = read.mapping(data, "nodeSelector")
    all_nodes = read.flag(data, "allNodes")
    if not per_device:
        if name is not None or selector is not None or all_nodes is not None:
            return [
                invalid(
                    path,
                    None,
                    "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set "
                    "to true in the ResourceSlice spec",
                    kind=ONE_OF,
                    hint="set spec.perDeviceNodeSelection: true, or move the node selection to the slice",
                )
            ]
        return []
    out: list[FieldError] = []
    chosen = []
    if name is not None:
        if name:
            chosen.append("`nodeName`")
            out += node_name(name, (*path, "nodeName"))
        else:
            out.append(invalid((*path, "nodeName"), "", "must not be empty", hint="name the node, or remove nodeName"))
    if selector is not None:
        chosen.append("`nodeSelector`")
        out += node_selector(selector, (*path, "nodeSelector"))
    if all_nodes is not None:
        if all_nodes:
            chosen.append("`allNodes`")
        else:
            out.append(
                invalid(
                    (*path, "allNodes"), False, "must be either unset or set to true", hint="remove allNodes: false"
                )
            )
    detail = (
        "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set "
        "to true in the ResourceSlice spec"
    )
    hint = "give every device exactly one of nodeName, nodeSelector or allNodes: true"
    if not chosen:
        out.append(required(path, detail, kind=ONE_OF, hint=hint))
    elif len(chosen) > 1:
        out.append(invalid(path, "{" + ", ".join(chosen) + "}", detail, kind=ONE_OF, hint=hint))
    return out


def _node_allocatable(entries: Mapping[str, Any] | None, capacity: Mapping[str, Any], path: Path) -> list[FieldError]:
    """``validateNodeAllocatableResources`` (1.37)."""
    out: list[FieldError] = []
    for resource, entry in (entries or {}).items():
        key_path = (*path, Key(str(resource)))
        if not _is_node_allocatable(str(resource)):
            out.append(
                invalid(
                    key_path,
                    str(resource),
                    "must be a node allocatable resource name",
                    hint="use cpu, memory, ephemeral-storage or hugepages-<size>",
                )
            )
        mapping = read.mapping(entry, "mapping")
        overhead = read.mapping(entry, "overhead")
        if mapping is None and overhead is None:
            out.append(
                required(
                    key_path,
                    "at least one of mapping or overhead must be set",
                    kind=ONE_OF,
                    hint="add `mapping` (resource per device) or `overhead` (per pod or container)",
                )
            )
        if mapping is not None:
            out += _allocatable_mapping(mapping, capacity, (*key_path, "mapping"))
        if overhead is not None:
            out += _allocatable_overhead(overhead, (*key_path, "overhead"))
    return out


def _is_node_allocatable(name: str) -> bool:
    return name in _NODE_ALLOCATABLE or name.startswith("hugepages-")


def _allocatable_mapping(mapping: Mapping[str, Any], capacity: Mapping[str, Any], path: Path) -> list[FieldError]:
    out: list[FieldError] = []
    key = read.opt_text(mapping, "capacityKey")
    multiplier = quantity(mapping.get("capacityMultiplier")) if mapping.get("capacityMultiplier") is not None else None
    if key is not None:
        if not key:
            out.append(
                invalid(
                    (*path, "capacityKey"),
                    "",
                    "capacityKey must not be an empty string",
                    hint="name one of the device's capacities, or remove capacityKey",
                )
            )
        elif key not in capacity:
            out.append(not_found((*path, "capacityKey"), key, hint="name one of the device's capacities"))
        if mapping.get("capacityMultiplier") is None:
            out.append(
                required(
                    (*path, "capacityMultiplier"),
                    "capacityMultiplier is required when capacityKey is set",
                    hint="say how much node resource one unit of the capacity is",
                )
            )
        elif multiplier is not None and multiplier.sign() <= 0:
            out.append(
                invalid(
                    (*path, "capacityMultiplier"), str(multiplier), "must be positive", hint="use a positive quantity"
                )
            )
    device_multiplier = (
        quantity(mapping.get("deviceMultiplier")) if mapping.get("deviceMultiplier") is not None else None
    )
    if device_multiplier is not None and device_multiplier.sign() <= 0:
        out.append(
            invalid(
                (*path, "deviceMultiplier"), str(device_multiplier), "must be positive", hint="use a positive quantity"
            )
        )
    if mapping.get("capacityMultiplier") is not None and key is None:
        out.append(
            required(
                (*path, "capacityKey"),
                "capacityKey is required when capacityMultiplier is set",
                hint="name the capacity the multiplier applies to",
            )
        )
    return out


def _allocatable_overhead(overhead: Mapping[str, Any], path: Path) -> list[FieldError]:
    per_pod, per_container = overhead.get("perPod"), overhead.get("perContainer")
    if per_pod is None and per_container is None:
        return [
            invalid(
                path,
                "",
                "at least one of perPod or perContainer must be set",
                kind=ONE_OF,
                hint="set perPod or perContainer, or remove the overhead",
            )
        ]
    out: list[FieldError] = []
    for name, raw in (("perPod", per_pod), ("perContainer", per_container)):
        value = quantity(raw) if raw is not None else None
        if value is not None and value.sign() < 0:
            out.append(invalid((*path, name), str(value), "must be non-negative", hint="overheads cannot be negative"))
    return out
