"""The DeviceClasses that back device-plugin resources with DRA (``extendedResourceName``, KEP-5004)."""

from __future__ import annotations

from typing import Any

from dralint.api.versions import SERVED, VERSIONS, Target
from dralint.migrate.resolve import Mapped

__all__ = ["GATE", "class_version", "device_class", "gate_note"]

GATE = "DRAExtendedResource"
FIRST_RELEASE = "1.34"  # the first release whose DeviceClass has extendedResourceName


def class_version(target: Target) -> str | None:
    """The newest ``resource.k8s.io`` version of DeviceClass ``target`` serves; None before the field exists."""
    if not target.at_least(FIRST_RELEASE):
        return None
    return next(v for v in reversed(VERSIONS) if target.release in SERVED.get(("DeviceClass", v), ()))


def gate_note(target: Target) -> str | None:
    """Why ``target`` would not let such classes back a resource, if it would not."""
    if not target.at_least(FIRST_RELEASE):
        return (
            f"Kubernetes {target.release} has no extendedResourceName: DeviceClasses back extended resources "
            f"from {FIRST_RELEASE} on ({GATE})"
        )
    if not target.enabled(GATE):
        return (
            f"Kubernetes {target.release} leaves the {GATE} feature gate off: the API server drops "
            f"extendedResourceName and the scheduler ignores it until {GATE}=true is set"
        )
    return None


def device_class(mapped: Mapped, version: str) -> dict[str, Any]:
    """The DeviceClass selecting the devices of ``mapped`` and naming its resource, written in ``version``."""
    return {
        "apiVersion": f"resource.k8s.io/{version}",
        "kind": "DeviceClass",
        "metadata": {"name": mapped.own_class},
        "spec": {
            "selectors": [{"cel": {"expression": mapped.class_selector}}],
            "extendedResourceName": mapped.resource,
        },
    }
