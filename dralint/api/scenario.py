"""An allocator scenario (``shared/conformance`` format) → typed, defaulted objects.

A scenario is one pod's claims plus a cluster snapshot: nodes, DeviceClasses, ResourceSlices,
already-allocated claims, DeviceTaintRules, and the allocator feature flags (the seven of the
conformance cases default to on, those of 1.37 to off), plus optionally ``kubernetesVersion``,
whose allocator runs where it differs from the newest. Objects are v1 (DeviceTaintRules v1beta2,
same fields); claims get the API server defaults.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any, TypeVar

from dralint.api import model
from dralint.api.defaults import apply_defaults
from dralint.api.versions import normalise_release
from dralint.dataclass import dataclass
from dralint.errors import InputError, UsageError

# Scenario flag name -> allocator Features field, default: the seven flags of the conformance
# cases default to on; those of 1.37 to off (the cases predate them).
FEATURE_KEYS: dict[str, tuple[str, bool]] = {
    "adminAccess": ("admin_access", True),
    "consumableCapacity": ("consumable_capacity", True),
    "derivedAttributes": ("derived_attributes", False),
    "deviceBindingConditions": ("device_binding_and_status", True),
    "deviceCompatibilityGroups": ("device_compatibility_groups", False),
    "deviceTaints": ("device_taints", True),
    "fractionalCapacityRange": ("fractional_capacity_range", False),
    "listTypeAttributes": ("list_type_attributes", True),
    "partitionableDevices": ("partitionable_devices", True),
    "prioritizedList": ("prioritized_list", True),
}

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Scenario:
    features: Mapping[str, bool]  # Features field name -> value (every flag present)
    kubernetes_version: str | None = None  # "1.34": that release's allocator (None: the newest)
    nodes: tuple[model.Node, ...] = ()
    device_classes: tuple[model.DeviceClass, ...] = ()
    resource_slices: tuple[model.ResourceSlice, ...] = ()
    allocated_claims: tuple[model.ResourceClaim, ...] = ()
    device_taint_rules: tuple[model.DeviceTaintRule, ...] = ()
    claims: tuple[model.ResourceClaim, ...] = field(default=())


class ScenarioError(InputError):
    """The scenario file is not a scenario."""


def scenario(data: Any) -> Scenario:
    """Build a :class:`Scenario` from decoded JSON, or raise :class:`ScenarioError` (one line)."""
    if not isinstance(data, Mapping):
        raise ScenarioError("a scenario must be a JSON object")
    flags = data.get("features") or {}
    if not isinstance(flags, Mapping):
        raise ScenarioError("features must be an object of booleans")
    features = {}
    for key, (name, default) in FEATURE_KEYS.items():
        value = flags.get(key, default)
        if not isinstance(value, bool):
            raise ScenarioError(f"features.{key} must be true or false")
        features[name] = value
    version = data.get("kubernetesVersion")
    if version is not None:
        if not isinstance(version, str):
            raise ScenarioError('kubernetesVersion must be a string such as "1.34"')
        try:
            version = normalise_release(version)
        except UsageError as error:
            raise ScenarioError(str(error)) from None
    return Scenario(
        features=features,
        kubernetes_version=version,
        nodes=_objects(data, "nodes", model.node),
        device_classes=_objects(data, "deviceClasses", model.device_class),
        resource_slices=_objects(data, "resourceSlices", model.resource_slice),
        allocated_claims=_objects(data, "allocatedClaims", _claim),
        device_taint_rules=_objects(data, "deviceTaintRules", model.device_taint_rule),
        claims=_objects(data, "claims", _claim),
    )


def _claim(data: Mapping[str, Any]) -> model.ResourceClaim:
    defaulted = copy.deepcopy(dict(data))
    apply_defaults("ResourceClaim", "v1", defaulted)
    return model.resource_claim(defaulted)


def _objects(data: Mapping[str, Any], key: str, build: Callable[[Mapping[str, Any]], T]) -> tuple[T, ...]:
    items = data.get(key)
    if items is None:
        return ()
    if not isinstance(items, list):
        raise ScenarioError(f"{key} must be a list of objects")
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ScenarioError(f"{key}[{index}] must be an object")
    return tuple(build(item) for item in items)
