"""Fields the API server silently drops on create because their feature gate is off (spec/api.md §4).

Each registry strategy clears gated fields in ``PrepareForCreate`` before validation; on
create there is no old object, so a field whose gate is off is always dropped, without an
error or a warning. A gate that does not exist in the target release counts as off (the
field does not exist there either). :func:`drop_disabled_fields` does that to a v1-shaped
object and says what it dropped; validation then runs on what is left, as in the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dralint.api.versions import Target
from dralint.paths import Key, Path

ANY = "*"  # a pattern step matching every list item or map value

Pattern = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GatedField:
    pattern: Pattern  # canonical path with ``*`` for list items and map values
    gates: tuple[str, ...]  # all must be on to keep the field
    since: str | None = None  # release from which the gate applies (the field is ungated before)


def _claim_spec(prefix: Pattern) -> list[GatedField]:
    requests = (*prefix, "devices", "requests", ANY)
    sub = (*requests, "firstAvailable", ANY)
    return [
        GatedField((*requests, "firstAvailable"), ("DRAPrioritizedList",)),
        GatedField((*requests, "exactly", "tolerations"), ("DRADeviceTaints",)),
        GatedField((*sub, "tolerations"), ("DRADeviceTaints",)),
        GatedField((*requests, "exactly", "adminAccess"), ("DRAAdminAccess",), since="1.32"),
        GatedField((*prefix, "devices", "constraints", ANY, "distinctAttribute"), ("DRAConsumableCapacity",)),
        GatedField((*requests, "exactly", "capacity"), ("DRAConsumableCapacity",)),
        GatedField((*sub, "capacity"), ("DRAConsumableCapacity",)),
        GatedField((*requests, "exactly", "derivedAttributes"), ("DRADerivedAttributes",)),
        GatedField((*sub, "derivedAttributes"), ("DRADerivedAttributes",)),
        GatedField((*prefix, "controller"), ("DRAControlPlaneController",)),
    ]


_RESULTS = ("status", "allocation", "devices", "results", ANY)
_DEVICES = ("spec", "devices", ANY)
_BINDING = ("DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus")

GATED_FIELDS: dict[str, list[GatedField]] = {
    "ResourceClaim": [
        *_claim_spec(("spec",)),
        GatedField(("status", "devices"), ("DRAResourceClaimDeviceStatus",)),
        GatedField((*_RESULTS, "adminAccess"), ("DRAAdminAccess",), since="1.32"),
        GatedField((*_RESULTS, "shareID"), ("DRAConsumableCapacity",)),
        GatedField((*_RESULTS, "consumedCapacity"), ("DRAConsumableCapacity",)),
        GatedField(("status", "devices", ANY, "shareID"), ("DRAConsumableCapacity",)),
        GatedField((*_RESULTS, "bindingConditions"), ("DRADeviceBindingConditions",)),
        GatedField((*_RESULTS, "bindingFailureConditions"), ("DRADeviceBindingConditions",)),
        GatedField(("status", "allocation", "allocationTimestamp"), ("DRADeviceBindingConditions",)),
        GatedField((*_RESULTS, "tolerations"), ("DRADeviceTaints",)),
        GatedField((*_RESULTS, "skipNodeOperations"), ("DRAOptionalNodeOperations",)),
        GatedField(("status", "allocation", "controller"), ("DRAControlPlaneController",)),
        GatedField(("status", "deallocationRequested"), ("DRAControlPlaneController",)),
    ],
    "ResourceClaimTemplate": _claim_spec(("spec", "spec")),
    "DeviceClass": [
        GatedField(("spec", "extendedResourceName"), ("DRAExtendedResource",)),
        GatedField(("spec", "suitableNodes"), ("DRAControlPlaneController",)),
    ],
    "ResourceSlice": [
        GatedField((*_DEVICES, "taints"), ("DRADeviceTaints",)),
        GatedField(("spec", "sharedCounters"), ("DRAPartitionableDevices",)),
        GatedField(("spec", "perDeviceNodeSelection"), ("DRAPartitionableDevices",)),
        GatedField((*_DEVICES, "consumesCounters"), ("DRAPartitionableDevices",)),
        GatedField((*_DEVICES, "nodeName"), ("DRAPartitionableDevices",)),
        GatedField((*_DEVICES, "nodeSelector"), ("DRAPartitionableDevices",)),
        GatedField((*_DEVICES, "allNodes"), ("DRAPartitionableDevices",)),
        GatedField((*_DEVICES, "bindsToNode"), _BINDING),
        GatedField((*_DEVICES, "bindingConditions"), _BINDING),
        GatedField((*_DEVICES, "bindingFailureConditions"), _BINDING),
        GatedField((*_DEVICES, "allowMultipleAllocations"), ("DRAConsumableCapacity",)),
        GatedField((*_DEVICES, "capacity", ANY, "requestPolicy"), ("DRAConsumableCapacity",)),
        GatedField((*_DEVICES, "nodeAllocatableResourceMappings"), ("DRANodeAllocatableResources",)),
        GatedField((*_DEVICES, "nodeAllocatableResources"), ("DRANodeAllocatableResources",)),
        *(
            GatedField((*_DEVICES, "attributes", ANY, kind), ("DRAListTypeAttributes",))
            for kind in ("bools", "ints", "strings", "versions")
        ),
        GatedField(("spec", "partitionTypeAttribute"), ("DRAPartitionableDevicesType",)),
        GatedField(("spec", "skipNodeOperations"), ("DRAOptionalNodeOperations",)),
        GatedField((*_DEVICES, "consumesCounters", ANY, "compatibilityGroups"), ("DRADeviceCompatibilityGroups",)),
    ],
    "ResourcePoolStatusRequest": [
        GatedField(("spec", "defaultPartitionTypeAttribute"), ("DRAPartitionableDevicesType",)),
    ],
}

# Relative to a pod spec (``spec`` of a Pod, ``spec.template.spec`` of a Deployment, ...).
POD_SPEC_GATED_FIELDS: list[GatedField] = [
    GatedField(("resourceClaims",), ("DynamicResourceAllocation",)),
    *(
        GatedField((kind, ANY, "resources", "claims"), ("DynamicResourceAllocation",))
        for kind in ("containers", "initContainers", "ephemeralContainers")
    ),
    GatedField(("resources",), ("PodLevelResources",)),
]


@dataclass(frozen=True, slots=True)
class Dropped:
    """A field the target would drop: where it was and the gates that would have kept it."""

    path: Path
    gates: tuple[str, ...]


def _kept(gated: GatedField, target: Target) -> bool:
    if gated.since is not None and not target.at_least(gated.since):
        return True
    return all(target.enabled(gate) for gate in gated.gates)


def drop_disabled_fields(kind: str, data: dict[str, Any], target: Target) -> list[Dropped]:
    """Remove, in place, the fields of a v1-shaped ``kind`` object that ``target`` drops on create."""
    return _drop(GATED_FIELDS.get(kind, []), data, target)


def drop_disabled_pod_fields(pod_spec: dict[str, Any], target: Target) -> list[Dropped]:
    """Remove, in place, the DRA-related pod spec fields that ``target`` drops on create."""
    return _drop(POD_SPEC_GATED_FIELDS, pod_spec, target)


def disabled_fields(kind: str, data: Any, target: Target) -> list[Dropped]:
    """What :func:`drop_disabled_fields` would drop, without changing ``data``."""
    return _drop(GATED_FIELDS.get(kind, []), data, target, remove=False)


def _drop(fields: list[GatedField], data: Any, target: Target, *, remove: bool = True) -> list[Dropped]:
    # One walk over a trie of the patterns whose gates are off: each object is visited once,
    # however many gated fields sit below it (a slice's devices carry a dozen).
    trie: dict[str, Any] = {}
    for gated in fields:
        if _kept(gated, target):
            continue
        node = trie
        *parents, last = gated.pattern
        for step in parents:
            node = node.setdefault(step, {})
        node.setdefault("", []).append((last, gated.gates))
    dropped: list[Dropped] = []
    if trie:
        _walk(data, trie, (), dropped, remove)
    return dropped


def _walk(data: Any, trie: dict[str, Any], path: Path, dropped: list[Dropped], remove: bool) -> None:
    if isinstance(data, dict):
        for name, gates in trie.get("", ()):
            if name in data:
                if remove:
                    del data[name]
                dropped.append(Dropped((*path, name), gates))
        for step, below in trie.items():
            if step == ANY:
                for key, item in data.items():
                    _walk(item, below, (*path, Key(str(key))), dropped, remove)
            elif step and step in data:
                _walk(data[step], below, (*path, step), dropped, remove)
    elif isinstance(data, list) and ANY in trie:
        for index, item in enumerate(data):
            _walk(item, trie[ANY], (*path, index), dropped, remove)
