"""What kube-scheduler prepares before it calls the allocator (spec §1.3, §9, §11).

The allocated state from already-allocated claims, DeviceTaintRules merged into the slices (the
slice tracker's job upstream), and the allocator flags of a target cluster. API defaulting is
:mod:`dralint.api.defaults`; extended-resource claims belong to the simulation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Literal

from dralint.allocator.types import AllocatedState, DeviceID, Features
from dralint.api import model
from dralint.api.versions import Target
from dralint.apimachinery.quantity import Quantity


def features_for(target: Target) -> Features:
    """The allocator flags the target cluster's scheduler runs with (gate mapping of spec §11)."""
    return Features(
        admin_access=target.enabled("DRAAdminAccess"),
        consumable_capacity=target.enabled("DRAConsumableCapacity"),
        device_binding_and_status=target.enabled("DRADeviceBindingConditions")
        and target.enabled("DRAResourceClaimDeviceStatus"),
        device_taints=target.enabled("DRADeviceTaints"),
        list_type_attributes=target.enabled("DRAListTypeAttributes"),
        partitionable_devices=target.enabled("DRAPartitionableDevices"),
        prioritized_list=target.enabled("DRAPrioritizedList"),
    )


def taint_rules_apply(target: Target) -> bool:
    """Whether the scheduler merges DeviceTaintRules into the slices it sees."""
    return target.enabled("DRADeviceTaints") and target.enabled("DRADeviceTaintRules")


def holds(
    result: model.DeviceRequestAllocationResult, *, consumable_capacity: bool
) -> Literal["shared", "exclusive"] | None:
    """How an allocation result holds its device: ``"shared"`` (a share of consumable capacity),
    ``"exclusive"``, or ``None`` (admin access holds nothing)."""
    if result.admin_access is True:
        return None
    return "shared" if consumable_capacity and result.share_id is not None else "exclusive"


def allocated_state(claims: Iterable[model.ResourceClaim], *, consumable_capacity: bool) -> AllocatedState:
    """The devices held by allocated claims: admin results ignored, shares and capacity aggregated."""
    exclusive: set[DeviceID] = set()
    shared: set[tuple[DeviceID, str]] = set()
    aggregated: dict[DeviceID, dict[str, Quantity]] = {}
    for claim in claims:
        if claim.allocation is None:
            continue
        for result in claim.allocation.results:
            holding = holds(result, consumable_capacity=consumable_capacity)
            if holding is None:
                continue
            device_id = (result.driver, result.pool, result.device)
            if holding == "shared" and result.share_id is not None:  # (holds says it is set; for the type)
                shared.add((device_id, result.share_id))
                if result.consumed_capacity is not None:
                    totals = aggregated.setdefault(device_id, {})
                    for name, amount in result.consumed_capacity.items():
                        totals[name] = totals[name].add(amount) if name in totals else amount
            else:
                exclusive.add(device_id)
    return AllocatedState(frozenset(exclusive), frozenset(shared), aggregated)


def selects_slice(selector: model.DeviceTaintSelector | None, resource_slice: model.ResourceSlice) -> bool:
    """Whether a DeviceTaintRule's selector can match devices of ``resource_slice`` (driver and pool)."""
    if selector is None:
        return True
    if selector.driver is not None and selector.driver != resource_slice.driver:
        return False
    return selector.pool is None or selector.pool == resource_slice.pool.name


def selects_device(selector: model.DeviceTaintSelector | None, device: model.Device) -> bool:
    """Whether a DeviceTaintRule's selector matches ``device`` of a slice it can match (by name)."""
    return selector is None or selector.device is None or selector.device == device.name


def apply_taint_rules(
    slices: Sequence[model.ResourceSlice], rules: Sequence[model.DeviceTaintRule]
) -> list[model.ResourceSlice]:
    """Every rule's taint appended to the devices its selector matches, rules in order (tracker)."""
    if not rules:
        return list(slices)
    out = []
    for resource_slice in slices:
        devices = list(resource_slice.devices)
        changed = False
        for rule in rules:
            if not selects_slice(rule.selector, resource_slice):
                continue
            for index, device in enumerate(devices):
                if not selects_device(rule.selector, device):
                    continue
                devices[index] = dataclasses.replace(device, taints=(*device.taints, rule.taint))
                changed = True
        out.append(dataclasses.replace(resource_slice, devices=tuple(devices)) if changed else resource_slice)
    return out
