"""A DRA object as later stages see it: defaulted, in the v1 shape, and typed.

The one place where a ``resource.k8s.io`` object of any version becomes the internal model;
everything downstream (validation rules, the cluster model, the allocator) reads the result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dralint.api import model
from dralint.api.convert import PathMap, to_v1
from dralint.api.defaults import apply_defaults
from dralint.api.objects import KubeObject

Typed = (
    model.DeviceClass | model.ResourceClaim | model.ResourceClaimTemplate | model.ResourceSlice | model.DeviceTaintRule
)

BUILDERS: dict[str, Callable[[Mapping[str, Any]], Typed]] = {
    "DeviceClass": model.device_class,
    "ResourceClaim": model.resource_claim,
    "ResourceClaimTemplate": model.resource_claim_template,
    "ResourceSlice": model.resource_slice,
    "DeviceTaintRule": model.device_taint_rule,
}
SUPPORTED_VERSIONS = frozenset({"v1alpha3", "v1beta1", "v1beta2", "v1"})


@dataclass(frozen=True, slots=True, eq=False)
class Normalised:
    """A DRA object after defaulting and conversion to v1, with its typed model."""

    obj: KubeObject
    data: dict[str, Any]  # v1-shaped, defaulted
    paths: PathMap  # canonical path -> the user's path
    typed: Typed | None  # None for kinds without a typed model (ResourcePoolStatusRequest, ...)


def normalise(obj: KubeObject) -> Normalised | None:
    """The normalised form of a current ``resource.k8s.io`` object; ``None`` for anything else."""
    if not obj.is_dra or obj.version not in SUPPORTED_VERSIONS:
        return None
    converted = to_v1(obj.kind, obj.version, obj.raw)
    apply_defaults(obj.kind, obj.version, converted.data)
    builder = BUILDERS.get(obj.kind)
    return Normalised(obj, converted.data, converted.paths, builder(converted.data) if builder else None)
