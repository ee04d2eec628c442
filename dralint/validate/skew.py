"""What a target cluster serves and what it silently drops (spec/api.md §1.1 and §4).

Two questions, answered from :mod:`dralint.api.versions` and the v1-shaped object: is this
``resource.k8s.io`` version available on the target (served, enabled by default, deprecated),
and which fields would the API server clear on create because their feature gate is off, and
what does the object turn into then. Nothing here reads files or yields findings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal

from dralint.api.versions import CORE_KINDS, GATES, GROUP, LIFECYCLE, RELEASES, SERVED, VERSIONS, Target
from dralint.apimachinery.fieldpath import Key, Path, value_at
from dralint.dataclass import dataclass

# --- API versions ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Availability:
    """How a (kind, version) stands on the target release."""

    served: bool  # compiled into the release's API server
    needs: tuple[str, ...] = ()  # what must be switched on before it is served: runtime-config, gates
    deprecated: str | None = None  # the release that deprecated it, when the target is at or past it
    removed: str | None = None  # the release planned to remove it
    replacement: str | None = None  # the version the API itself names as replacement


def serving_gate(kind: str, release: str) -> str | None:
    """The feature gate without which the API server does not install ``kind`` at all."""
    if kind in CORE_KINDS:
        return "DynamicResourceAllocation"
    if kind == "DeviceTaintRule":
        return "DRADeviceTaints" if release in ("1.33", "1.34") else "DRADeviceTaintRules"
    if kind == "ResourcePoolStatusRequest":
        return "DRAResourcePoolStatus"
    if kind == "PodSchedulingContext":
        return "DRAControlPlaneController"
    return None


def availability(target: Target, kind: str, version: str) -> Availability:
    """Whether ``resource.k8s.io/<version>`` ``kind`` is served by the target, and on what terms."""
    if target.release not in SERVED.get((kind, version), ()):
        return Availability(served=False)
    needs: list[str] = []
    if version != "v1":  # every beta and alpha version is off by default (KEP-3136)
        needs.append(f"--runtime-config={GROUP}/{version}=true")
    gate = serving_gate(kind, target.release)
    if gate is not None and not target.enabled(gate):
        needs.append(f"feature gate {gate}=true")
    lifecycle = LIFECYCLE.get((kind, version))
    deprecated = None
    if lifecycle is not None and lifecycle.deprecated is not None and target.at_least(lifecycle.deprecated):
        deprecated = lifecycle.deprecated
    return Availability(
        served=True,
        needs=tuple(needs),
        deprecated=deprecated,
        removed=lifecycle.removed if lifecycle and deprecated else None,
        replacement=lifecycle.replacement if lifecycle and deprecated else None,
    )


def preferred_version(target: Target, kind: str) -> str | None:
    """The version to recommend for ``kind`` on the target: served, not deprecated, on by default if any."""
    candidates = [
        version
        for version in reversed(VERSIONS)
        if (info := availability(target, kind, version)).served and info.deprecated is None
    ]
    return candidates[0] if candidates else None


def default_on_from(gate: str) -> str | None:
    """The first release 1.31-1.37 in which ``gate`` is on by default."""
    for release in RELEASES:
        state = GATES.get(gate, {}).get(release)
        if state is not None and state.default:
            return release
    return None


# --- gated fields ------------------------------------------------------------------------------

Outcome = Literal["rejected", "changed", "ignored"]
Pattern = tuple[str, ...]  # field names, "*" for every list item, "{}" for every map entry


@dataclass(frozen=True, slots=True)
class Drop:
    """A field the target clears on create, and what that does to the object."""

    path: Path  # where the field is, in the v1 shape (relative to the object)
    gates: tuple[str, ...]  # the gates that are off
    outcome: Outcome  # "rejected": validation then fails; "changed": the meaning changes; "ignored": minor
    effect: str  # what the object turns into


# (field, parent) -> outcome, or None when the field is present but dropping it changes nothing.
Condition = Callable[[Any, Mapping[str, Any]], "Outcome | None"]


@dataclass(frozen=True, slots=True)
class GatedField:
    pattern: Pattern
    gates: tuple[str, ...]  # all must be on for the field to be kept
    outcome: Outcome
    effect: str
    condition: Condition | None = None
    otherwise: str = ""  # the effect when the condition gives another outcome than ``outcome``
    ungated_in: tuple[str, ...] = ()  # releases where the field exists without the gate


def _only_if_true(value: Any, parent: Mapping[str, Any]) -> Outcome | None:
    return "changed" if value is True else None


def _first_available(value: Any, parent: Mapping[str, Any]) -> Outcome | None:
    return "changed" if _is_set(parent.get("exactly")) else "rejected"


def _distinct_attribute(value: Any, parent: Mapping[str, Any]) -> Outcome | None:
    return "changed" if _is_set(parent.get("matchAttribute")) else "rejected"


def _per_device_node_selection(value: Any, parent: Mapping[str, Any]) -> Outcome | None:
    if value is not True:
        return None
    others = ("nodeName", "nodeSelector", "allNodes")
    return "changed" if any(_is_set(parent.get(name)) for name in others) else "rejected"


_SCALAR_ATTRIBUTE_VALUES = ("bool", "int", "string", "version")


def _list_attribute(value: Any, parent: Mapping[str, Any]) -> Outcome | None:
    return "changed" if any(parent.get(name) is not None for name in _SCALAR_ATTRIBUTE_VALUES) else "rejected"


def _requests(*rest: str) -> list[Pattern]:
    return [("devices", "requests", "*", "exactly", *rest), ("devices", "requests", "*", "firstAvailable", "*", *rest)]


_TOLERATIONS = "the request tolerates no device taint"
_CAPACITY = "the request consumes a whole device exclusively"
_DERIVED = "constraints naming these attributes compare the devices' own attributes of that name instead"

# spec/api.md §4.1, relative to a ResourceClaim spec (ResourceClaimTemplate: spec.spec).
CLAIM_SPEC: tuple[GatedField, ...] = (
    GatedField(
        ("devices", "requests", "*", "firstAvailable"),
        ("DRAPrioritizedList",),
        "rejected",
        "the request is left with neither exactly nor firstAvailable, which the API server rejects "
        "(Required value: exactly one of `exactly` or `firstAvailable` is required)",
        _first_available,
        "the request keeps only its exactly block",
    ),
    *(GatedField(p, ("DRADeviceTaints",), "ignored", _TOLERATIONS) for p in _requests("tolerations")),
    GatedField(
        ("devices", "requests", "*", "exactly", "adminAccess"),
        ("DRAAdminAccess",),
        "changed",
        "the request becomes an ordinary one and only gets devices nobody else uses",
        _only_if_true,
        ungated_in=("1.31",),  # a plain bool of v1alpha3, before DRAAdminAccess existed
    ),
    GatedField(
        ("devices", "constraints", "*", "distinctAttribute"),
        ("DRAConsumableCapacity",),
        "rejected",
        "the constraint is left without matchAttribute, which the API server rejects (matchAttribute: Required value)",
        _distinct_attribute,
        "the constraint keeps only matchAttribute",
    ),
    *(GatedField(p, ("DRAConsumableCapacity",), "changed", _CAPACITY) for p in _requests("capacity")),
    *(GatedField(p, ("DRADerivedAttributes",), "changed", _DERIVED) for p in _requests("derivedAttributes")),
    GatedField(
        ("controller",),
        ("DRAControlPlaneController",),
        "changed",
        "the scheduler allocates the claim from ResourceSlices instead of the named controller",
    ),
)

_STATUS = "the API server does not store it when the status is written"

# spec/api.md §4.2 (status is cleared on create, but allocated claims are inventory).
CLAIM_STATUS: tuple[GatedField, ...] = (
    GatedField(("status", "devices"), ("DRAResourceClaimDeviceStatus",), "ignored", _STATUS),
    GatedField(("status", "devices", "*", "shareID"), ("DRAConsumableCapacity",), "ignored", _STATUS),
    GatedField(
        ("status", "allocation", "devices", "results", "*", "adminAccess"),
        ("DRAAdminAccess",),
        "ignored",
        _STATUS,
        ungated_in=("1.31",),
    ),
    *(
        GatedField(("status", "allocation", "devices", "results", "*", name), (gate,), "ignored", _STATUS)
        for name, gate in (
            ("shareID", "DRAConsumableCapacity"),
            ("consumedCapacity", "DRAConsumableCapacity"),
            ("bindingConditions", "DRADeviceBindingConditions"),
            ("bindingFailureConditions", "DRADeviceBindingConditions"),
            ("tolerations", "DRADeviceTaints"),
            ("skipNodeOperations", "DRAOptionalNodeOperations"),
        )
    ),
    GatedField(("status", "allocation", "allocationTimestamp"), ("DRADeviceBindingConditions",), "ignored", _STATUS),
    GatedField(("status", "allocation", "controller"), ("DRAControlPlaneController",), "ignored", _STATUS),
    GatedField(("status", "deallocationRequested"), ("DRAControlPlaneController",), "ignored", _STATUS),
)

# spec/api.md §4.3
DEVICE_CLASS: tuple[GatedField, ...] = (
    GatedField(
        ("spec", "extendedResourceName"),
        ("DRAExtendedResource",),
        "ignored",
        "pods cannot request the class as an extended resource (claims still work)",
    ),
    GatedField(
        ("spec", "suitableNodes"),
        ("DRAControlPlaneController",),
        "ignored",
        "the class no longer limits the nodes a control-plane controller considers",
    ),
)

_COUNTERS = "devices that share hardware can be allocated together beyond what it has"
_BINDING = "pods bind to the node without waiting for the device to be ready"
_MULTIPLE = "the device can only be allocated to one claim at a time"

# spec/api.md §4.4
RESOURCE_SLICE: tuple[GatedField, ...] = (
    GatedField(
        ("spec", "devices", "*", "taints"),
        ("DRADeviceTaints",),
        "changed",
        "the devices look healthy and are allocated despite the taints",
    ),
    GatedField(("spec", "sharedCounters"), ("DRAPartitionableDevices",), "changed", _COUNTERS),
    GatedField(("spec", "devices", "*", "consumesCounters"), ("DRAPartitionableDevices",), "changed", _COUNTERS),
    GatedField(
        ("spec", "perDeviceNodeSelection"),
        ("DRAPartitionableDevices",),
        "rejected",
        "the slice is left without node selection, which the API server rejects (Required value: exactly one of "
        "`nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required)",
        _per_device_node_selection,
        "the slice keeps only its other node selection",
    ),
    *(
        GatedField(
            ("spec", "devices", "*", name),
            ("DRAPartitionableDevices",),
            "changed",
            "the device is offered on every node the slice covers",
        )
        for name in ("nodeName", "nodeSelector", "allNodes")
    ),
    *(
        GatedField(
            ("spec", "devices", "*", name),
            ("DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus"),
            "ignored",
            _BINDING,
        )
        for name in ("bindsToNode", "bindingConditions", "bindingFailureConditions")
    ),
    GatedField(
        ("spec", "devices", "*", "allowMultipleAllocations"),
        ("DRAConsumableCapacity",),
        "changed",
        _MULTIPLE,
        _only_if_true,
    ),
    GatedField(
        ("spec", "devices", "*", "capacity", "{}", "requestPolicy"),
        ("DRAConsumableCapacity",),
        "changed",
        f"{_MULTIPLE}, whatever it requests",
    ),
    *(
        GatedField(
            ("spec", "devices", "*", name),
            ("DRANodeAllocatableResources",),
            "ignored",
            "the kubelet does not account the device's CPU or memory",
        )
        for name in ("nodeAllocatableResourceMappings", "nodeAllocatableResources")
    ),
    *(
        GatedField(
            ("spec", "devices", "*", "attributes", "{}", name),
            ("DRAListTypeAttributes",),
            "rejected",
            "the attribute is left without a value, which the API server rejects "
            '(Invalid value: "": exactly one value must be specified)',
            _list_attribute,
            "the attribute keeps only its single value",
        )
        for name in ("bools", "ints", "strings", "versions")
    ),
    GatedField(
        ("spec", "partitionTypeAttribute"),
        ("DRAPartitionableDevicesType",),
        "ignored",
        "pool status does not summarise partitions",
    ),
    GatedField(
        ("spec", "skipNodeOperations"),
        ("DRAOptionalNodeOperations",),
        "ignored",
        "the kubelet prepares and unprepares the devices as usual",
    ),
    GatedField(
        ("spec", "devices", "*", "consumesCounters", "*", "compatibilityGroups"),
        ("DRADeviceCompatibilityGroups",),
        "changed",
        "partitions that must not be combined can be allocated together",
    ),
)

_POD_CLAIMS = "the pod runs without its devices"

# spec/api.md §4.6, relative to a pod spec.
POD_SPEC: tuple[GatedField, ...] = (
    GatedField(("resourceClaims",), ("DynamicResourceAllocation",), "changed", _POD_CLAIMS),
    *(
        GatedField((containers, "*", "resources", "claims"), ("DynamicResourceAllocation",), "changed", _POD_CLAIMS)
        for containers in ("containers", "initContainers", "ephemeralContainers")
    ),
)
POD_STATUS: tuple[GatedField, ...] = (
    GatedField(("status", "resourceClaimStatuses"), ("DynamicResourceAllocation",), "ignored", _STATUS),
    GatedField(("status", "extendedResourceClaimStatus"), ("DRAExtendedResource",), "ignored", _STATUS),
    GatedField(
        ("status", "nodeAllocatableResourceClaimStatuses"), ("DRANodeAllocatableResources",), "ignored", _STATUS
    ),
)
_GROUP_CLAIMS = "the group's pods do not share its claims and get claims of their own"
POD_GROUP: tuple[GatedField, ...] = (
    GatedField(("spec", "resourceClaims"), ("DRAWorkloadResourceClaims",), "changed", _GROUP_CLAIMS),
    GatedField(("status", "resourceClaimStatuses"), ("DRAWorkloadResourceClaims",), "ignored", _STATUS),
)
WORKLOAD: tuple[GatedField, ...] = (
    GatedField(
        ("spec", "podGroupTemplates", "*", "resourceClaims"), ("DRAWorkloadResourceClaims",), "changed", _GROUP_CLAIMS
    ),
)


def dra_object_drops(target: Target, kind: str, data: Mapping[str, Any]) -> list[Drop]:
    """Fields of a v1-shaped ``resource.k8s.io`` object that the target clears on create."""
    if kind == "ResourceClaim":
        return [*_drops(target, CLAIM_SPEC, data, ("spec",)), *_drops(target, CLAIM_STATUS, data, ())]
    if kind == "ResourceClaimTemplate":
        return _drops(target, CLAIM_SPEC, data, ("spec", "spec"))
    if kind == "DeviceClass":
        return _drops(target, DEVICE_CLASS, data, ())
    if kind == "ResourceSlice":
        return _drops(target, RESOURCE_SLICE, data, ())
    return []


def pod_spec_drops(target: Target, owner: Mapping[str, Any], at: Path) -> list[Drop]:
    """Claim fields of the pod spec at path ``at`` of the object ``owner`` that the target clears."""
    return _drops(target, POD_SPEC, owner, at)


def other_object_drops(target: Target, group: str, kind: str, raw: Mapping[str, Any]) -> list[Drop]:
    """DRA-related fields of Pods (status) and of ``scheduling.k8s.io`` PodGroups and Workloads."""
    if group == "" and kind == "Pod":
        return _drops(target, POD_STATUS, raw, ())
    if group == "scheduling.k8s.io" and kind == "PodGroup":
        return _drops(target, POD_GROUP, raw, ())
    if group == "scheduling.k8s.io" and kind == "Workload":
        return _drops(target, WORKLOAD, raw, ())
    return []


def strip(target: Target, kind: str, data: dict[str, Any]) -> list[Path]:
    """Remove from a v1-shaped DRA object every field the target clears on create; returns their paths.

    What kube-apiserver validates is the object after this (validation runs after
    ``PrepareForCreate``). Unlike :func:`dra_object_drops`, zero values are removed too, and so are
    fields whose gate the release does not have at all (strict field validation rejects those).
    """
    tables: dict[str, tuple[tuple[GatedField, ...], Path]] = {
        "DeviceClass": (DEVICE_CLASS, ()),
        "ResourceSlice": (RESOURCE_SLICE, ()),
        "ResourceClaimTemplate": (CLAIM_SPEC, ("spec", "spec")),
    }
    if kind == "ResourceClaim":
        return [*_strip(target, CLAIM_SPEC, data, ("spec",)), *_strip(target, CLAIM_STATUS, data, ())]
    if kind not in tables:
        return []
    table, at = tables[kind]
    return _strip(target, table, data, at)


def _strip(target: Target, table: tuple[GatedField, ...], data: dict[str, Any], at: Path) -> list[Path]:
    removed: list[Path] = []
    base = value_at(data, at)
    if not isinstance(base, Mapping):
        return removed
    for entry in table:
        if all(target.enabled(gate) for gate in entry.gates) or target.release in entry.ungated_in:
            continue
        for path, parent, _ in list(_matches(base, entry.pattern, at)):
            if isinstance(parent, dict):
                del parent[path[-1]]
                removed.append(path)
    return removed


def _drops(target: Target, table: tuple[GatedField, ...], data: Mapping[str, Any], at: Path) -> list[Drop]:
    found: list[Drop] = []
    base = value_at(data, at)
    if not isinstance(base, Mapping):
        return found
    for entry, off in _gated_off(target, table):
        for path, parent, value in _matches(base, entry.pattern, at):
            if not _is_set(value):
                continue
            outcome = entry.condition(value, parent) if entry.condition else entry.outcome
            if outcome is None:
                continue
            effect = entry.effect if outcome == entry.outcome else entry.otherwise
            found.append(Drop(path, off, outcome, effect))
    return found


# The entries of a table whose gates are off in a target, with those gates, by (target, table):
# worked out once per run instead of once per object (most gates are on in a recent release).
_OFF: dict[tuple[int, int], tuple[Target, tuple[GatedField, ...], list[tuple[GatedField, tuple[str, ...]]]]] = {}


def _gated_off(target: Target, table: tuple[GatedField, ...]) -> list[tuple[GatedField, tuple[str, ...]]]:
    known = _OFF.get((id(target), id(table)))
    if known is not None and known[0] is target and known[1] is table:
        return known[2]
    entries = []
    for entry in table:
        # A gate the release does not have means the field does not exist there either: that is an
        # unknown field for the schema rules, not a drop.
        if not all(gate in target.gates for gate in entry.gates):
            continue
        off = tuple(gate for gate in entry.gates if not target.enabled(gate))
        if off:
            entries.append((entry, off))
    if len(_OFF) >= 64:  # a long-lived process (the language server, tests) makes many targets
        _OFF.clear()
    _OFF[id(target), id(table)] = (target, table, entries)
    return entries


def _matches(data: Any, pattern: Pattern, at: Path) -> Iterator[tuple[Path, Mapping[str, Any], Any]]:
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        if isinstance(data, list):
            for index, item in enumerate(data):
                yield from _matches_in(item, rest, (*at, index))
        return
    if head == "{}":
        if isinstance(data, Mapping):
            for key, item in data.items():
                yield from _matches_in(item, rest, (*at, Key(key)))
        return
    if isinstance(data, Mapping) and head in data:
        if rest:
            yield from _matches(data[head], rest, (*at, head))
        else:
            yield (*at, head), data, data[head]


def _matches_in(item: Any, rest: Pattern, at: Path) -> Iterator[tuple[Path, Mapping[str, Any], Any]]:
    if rest:
        yield from _matches(item, rest, at)


def _is_set(value: Any) -> bool:
    """Whether the API server would see a non-zero value (zero values are nothing to drop)."""
    return value is not None and value is not False and value != "" and value != [] and value != {}
