"""Typed model values → their ``resource.k8s.io/v1`` JSON form (what the API server would print).

Only what the allocator produces: ``AllocationResult`` and its parts. Optional fields are
omitted when unset, like Go's ``omitempty``; quantities print in canonical form.
"""

from __future__ import annotations

from typing import Any

from dralint.api import model


def allocation_result(result: model.AllocationResult) -> dict[str, Any]:
    devices: dict[str, Any] = {"results": [device_result(r) for r in result.results]}
    if result.config:
        devices["config"] = [_config(c) for c in result.config]
    out: dict[str, Any] = {"devices": devices}
    if result.node_selector is not None:
        out["nodeSelector"] = node_selector(result.node_selector)
    return out


def device_result(result: model.DeviceRequestAllocationResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "request": result.request,
        "driver": result.driver,
        "pool": result.pool,
        "device": result.device,
    }
    if result.admin_access is not None:
        out["adminAccess"] = result.admin_access
    if result.tolerations:
        out["tolerations"] = [toleration(t) for t in result.tolerations]
    if result.binding_conditions:
        out["bindingConditions"] = list(result.binding_conditions)
    if result.binding_failure_conditions:
        out["bindingFailureConditions"] = list(result.binding_failure_conditions)
    if result.share_id is not None:
        out["shareID"] = result.share_id
    if result.consumed_capacity:
        out["consumedCapacity"] = {name: q.canonical() for name, q in result.consumed_capacity.items()}
    return out


def toleration(value: model.DeviceToleration) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, item in (
        ("key", value.key),
        ("operator", value.operator),
        ("value", value.value),
        ("effect", value.effect),
    ):
        if item:
            out[key] = item
    if value.toleration_seconds is not None:
        out["tolerationSeconds"] = value.toleration_seconds
    return out


def node_selector(selector: model.NodeSelector) -> dict[str, Any]:
    terms = []
    for term in selector.terms:
        out: dict[str, Any] = {}
        if term.match_expressions:
            out["matchExpressions"] = [_requirement(r) for r in term.match_expressions]
        if term.match_fields:
            out["matchFields"] = [_requirement(r) for r in term.match_fields]
        terms.append(out)
    return {"nodeSelectorTerms": terms}


def _requirement(requirement: model.NodeSelectorRequirement) -> dict[str, Any]:
    out: dict[str, Any] = {"key": requirement.key, "operator": requirement.operator}
    if requirement.values:
        out["values"] = list(requirement.values)
    return out


def _config(config: model.DeviceAllocationConfiguration) -> dict[str, Any]:
    out: dict[str, Any] = {"source": config.source}
    if config.requests:
        out["requests"] = list(config.requests)
    if config.opaque is not None:
        out["opaque"] = {"driver": config.opaque.driver, "parameters": config.opaque.parameters}
    return out
