"""API defaulting, applied the way kube-apiserver applies it before validation (spec/api.md §2.4).

Runs on the v1-shaped copy made by :mod:`dralint.api.convert`, knowing the version the user
wrote: flat v1alpha3/v1beta1 requests are defaulted only when they name a device class.
"""

from __future__ import annotations

from typing import Any

from dralint.api import read
from dralint.api.convert import FLAT_VERSIONS


def apply_defaults(kind: str, source_version: str, data: dict[str, Any]) -> None:
    """Fill in server defaults in place."""
    if kind == "ResourceClaim":
        _claim_spec(data.get("spec"), source_version)
        _allocation(data.get("status"))
    elif kind == "ResourceClaimTemplate":
        spec = data.get("spec")
        if isinstance(spec, dict):
            _claim_spec(spec.get("spec"), source_version)
    elif kind == "ResourcePoolStatusRequest":
        spec = data.get("spec")
        if isinstance(spec, dict) and spec.get("limit") is None:
            spec["limit"] = 100


def _claim_spec(spec: Any, source_version: str) -> None:
    devices = spec.get("devices") if isinstance(spec, dict) else None
    requests = devices.get("requests") if isinstance(devices, dict) else None
    if not isinstance(requests, list):
        return
    for request in requests:
        if not isinstance(request, dict):
            continue
        for path, part in read.request_parts(request):
            # Upstream defaults a flat (v1alpha3/v1beta1) request's count only when it names a class;
            # without one it lists firstAvailable alternatives instead.
            flat = path == ("exactly",) and source_version in FLAT_VERSIONS
            if not (flat and part.get("deviceClassName") in (None, "")):
                _count(part)
            _tolerations(part.get("tolerations"))


def _count(request: dict[str, Any]) -> None:
    if request.get("allocationMode") in (None, ""):
        request["allocationMode"] = "ExactCount"
    if request.get("allocationMode") == "ExactCount" and request.get("count") in (None, 0):
        request["count"] = 1


def _tolerations(tolerations: Any) -> None:
    if isinstance(tolerations, list):
        for toleration in tolerations:
            if isinstance(toleration, dict) and toleration.get("operator") in (None, ""):
                toleration["operator"] = "Equal"


def _allocation(status: Any) -> None:
    allocation = status.get("allocation") if isinstance(status, dict) else None
    devices = allocation.get("devices") if isinstance(allocation, dict) else None
    results = devices.get("results") if isinstance(devices, dict) else None
    if isinstance(results, list):
        for result in results:
            if isinstance(result, dict):
                _tolerations(result.get("tolerations"))
