"""A DRA object as later stages see it: defaulted, in the v1 shape, and typed.

The one place where a ``resource.k8s.io`` object of any version becomes the internal model;
everything downstream (validation rules, the cluster model, the allocator) reads the result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any, TypeAlias

from dralint.api.convert import PathMap, to_v1
from dralint.api.defaults import apply_defaults
from dralint.api.objects import KubeObject
from dralint.api.versions import VERSIONS
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.api import model

    Typed: TypeAlias = (
        model.DeviceClass
        | model.ResourceClaim
        | model.ResourceClaimTemplate
        | model.ResourceSlice
        | model.DeviceTaintRule
    )

SUPPORTED_VERSIONS = frozenset(VERSIONS)


def __getattr__(name: str) -> Any:
    """``Typed`` and ``BUILDERS`` as before, importing the model only when asked for."""
    if name == "BUILDERS":
        return builders()
    if name == "Typed":
        from dralint.api import model

        return (
            model.DeviceClass
            | model.ResourceClaim
            | model.ResourceClaimTemplate
            | model.ResourceSlice
            | model.DeviceTaintRule
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def builders() -> dict[str, Callable[[Mapping[str, Any]], Typed]]:
    """The typed-model builder of each kind that has one."""
    from dralint.api import model

    return {
        "DeviceClass": model.device_class,
        "ResourceClaim": model.resource_claim,
        "ResourceClaimTemplate": model.resource_claim_template,
        "ResourceSlice": model.resource_slice,
        "DeviceTaintRule": model.device_taint_rule,
    }


@dataclass(frozen=True, slots=True, eq=False)
class Normalised:
    """A DRA object after defaulting and conversion to v1, with its typed model."""

    obj: KubeObject
    data: dict[str, Any]  # v1-shaped, defaulted
    paths: PathMap  # canonical path -> the user's path
    _typed: list[Typed | None] = field(default_factory=list, repr=False)  # filled on first use

    @property
    def typed(self) -> Typed | None:
        """The typed model; ``None`` for kinds without one (ResourcePoolStatusRequest, ...).

        Built on first use: only the dry-run reads it, and importing the model costs a tenth
        of a one-file run.
        """
        if not self._typed:
            builder = builders().get(self.obj.kind)
            self._typed.append(builder(self.data) if builder else None)
        return self._typed[0]


def normalise(obj: KubeObject) -> Normalised | None:
    """The normalised form of a current ``resource.k8s.io`` object; ``None`` for anything else."""
    if not obj.is_dra or obj.version not in SUPPORTED_VERSIONS:
        return None
    converted = to_v1(obj.kind, obj.version, obj.raw)
    apply_defaults(obj.kind, obj.version, converted.data)
    return Normalised(obj, converted.data, converted.paths)
