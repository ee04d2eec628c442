"""Turning a successful search into one ``AllocationResult`` per claim (spec §1.4, §10.2, §10.3).

Counterparts: the result assembly at the end of ``Allocate``, ``internalDeviceResult.lookupRequest``
and ``createNodeSelector`` / ``addNewNodeSelectorRequirements`` in ``allocator_experimental.go``.
Share IDs are deterministic here (a UUIDv5 of claim, request and device); upstream's are random.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from dralint.allocator.requests import RequestData, claim_ref
from dralint.allocator.search import Pick, Search
from dralint.allocator.types import AllocatorError, Cause, device_id_text
from dralint.api import model

_SHARE_NAMESPACE = uuid.UUID("6f1d4c36-6a51-4c1e-9d8e-2f7a3b0c5e11")


def share_id(claim: model.ResourceClaim, request_name: str, device_text: str) -> str:
    """A stable shareID for one shared pick (upstream draws a random UUID)."""
    return str(uuid.uuid5(_SHARE_NAMESPACE, f"{claim_ref(claim)}\x00{request_name}\x00{device_text}"))


def build_results(search: Search, node: model.Node) -> list[model.AllocationResult]:
    """The result assembly at the end of ``Allocate``: one AllocationResult per claim, in claim order."""
    out = []
    binding = search.features.device_binding_and_status
    for claim_index, claim in enumerate(search.claims):
        picks = search.results[claim_index]
        results = tuple(_device_result(claim, pick, binding) for pick in picks)
        chosen = [_chosen(search, claim_index, r) for r in range(len(search.requests[claim_index]))]
        config = _config(claim, chosen)
        try:
            selector = _node_selector(picks, node.name)
        except ValueError as error:
            raise AllocatorError(
                f"create NodeSelector for claim {claim.name}: {error}", cause=Cause.NODE_SELECTION
            ) from None
        out.append(model.AllocationResult(results=results, config=config, node_selector=selector))
    return out


def _chosen(search: Search, claim_index: int, request_index: int) -> RequestData:
    entries = search.requests[claim_index][request_index]
    return entries[search.selected.get((claim_index, request_index), 0)]


def _device_result(claim: model.ResourceClaim, pick: Pick, binding: bool) -> model.DeviceRequestAllocationResult:
    data, device = pick.request, pick.device
    driver, pool, name = device.id
    return model.DeviceRequestAllocationResult(
        request=data.result_name,
        driver=driver,
        pool=pool,
        device=name,
        admin_access=True if data.admin else None,
        tolerations=_tolerations(claim, data),
        binding_conditions=(device.binding_conditions or ()) if binding else (),
        binding_failure_conditions=(device.binding_failure_conditions or ()) if binding else (),
        share_id=share_id(claim, data.result_name, device_id_text(device.id)) if pick.shared else None,
        consumed_capacity={n: amount[1] for n, amount in pick.consumed.items()} if pick.consumed else None,
    )


def _tolerations(claim: model.ResourceClaim, data: RequestData) -> tuple[model.DeviceToleration, ...] | None:
    """``lookupRequest(claim).tolerations()``: the first request (and entry) with that name."""
    found = model.find_part(claim.spec.requests, data.name if data.parent is None else f"{data.parent}/{data.name}")
    return found[1].spec.tolerations if found is not None and found[1] is not None else None


def _config(claim: model.ResourceClaim, chosen: list[RequestData]) -> tuple[model.DeviceAllocationConfiguration, ...]:
    """The "populate configs" part of ``Allocate``: class configs once per class, then matching claim
    configs; a config covering every request gets its ``requests`` cleared."""
    entries: list[model.DeviceAllocationConfiguration] = []
    by_class: dict[str, tuple[int, int]] = {}
    for data in chosen:
        device_class = data.device_class
        span = by_class.get(device_class.name)
        if span is not None:
            for i in range(*span):
                entries[i] = model.DeviceAllocationConfiguration(
                    entries[i].source, (*entries[i].requests, data.result_name), entries[i].opaque
                )
            continue
        first = len(entries)
        for config in device_class.config:
            entries.append(model.DeviceAllocationConfiguration("FromClass", (data.result_name,), config.opaque))
        by_class[device_class.name] = (first, len(entries))
    requests = claim.spec.requests
    for claim_config in claim.spec.config:
        names = claim_config.requests
        if not names:
            entries.append(model.DeviceAllocationConfiguration("FromClaim", names, claim_config.opaque))
            continue
        for request, data in zip(requests, chosen, strict=True):
            if request.name in names or (data.parent is not None and data.result_name in names):
                entries.append(model.DeviceAllocationConfiguration("FromClaim", names, claim_config.opaque))
                break
    for i, entry in enumerate(entries):
        if entry.requests and all(
            request.name in entry.requests or (data.parent is not None and data.result_name in entry.requests)
            for request, data in zip(requests, chosen, strict=True)
        ):
            entries[i] = model.DeviceAllocationConfiguration(entry.source, (), entry.opaque)
    return tuple(entries)


def _node_selector(picks: Sequence[Pick], node_name: str) -> model.NodeSelector | None:
    """``createNodeSelector``: pinned to the node, or the union of single-term selectors, or none."""
    fields: list[model.NodeSelectorRequirement] = []
    expressions: list[model.NodeSelectorRequirement] = []
    for pick in picks:
        device, slice_info = pick.device, pick.device.slice
        if slice_info.per_device_node_selection:
            node, selector = device.device.node_name, device.device.node_selector
        else:
            node, selector = slice_info.node_name, slice_info.node_selector
        if node is not None or device.device.binds_to_node:
            return pinned_to(node_name)
        if selector is None or not selector.terms:
            continue
        if len(selector.terms) > 1:
            raise ValueError(f"unsupported ResourceSlice.NodeSelector with {len(selector.terms)} terms")
        _add_new(selector.terms[0].match_fields, fields)
        _add_new(selector.terms[0].match_expressions, expressions)
    if fields or expressions:
        return model.NodeSelector((model.NodeSelectorTerm(tuple(expressions), tuple(fields)),))
    return None


def pinned_to(node_name: str) -> model.NodeSelector:
    """The node selector ``createNodeSelector`` gives an allocation with a device local to ``node_name``."""
    requirement = model.NodeSelectorRequirement("metadata.name", "In", (node_name,))
    return model.NodeSelector((model.NodeSelectorTerm(match_fields=(requirement,)),))


def _add_new(requirements: Sequence[model.NodeSelectorRequirement], into: list[model.NodeSelectorRequirement]) -> None:
    """``addNewNodeSelectorRequirements``: skip requirements present with the same value set."""
    for requirement in requirements:
        values = set(requirement.values)
        if not any(
            r.key == requirement.key and r.operator == requirement.operator and set(r.values) == values for r in into
        ):
            into.append(requirement)
