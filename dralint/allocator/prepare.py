"""What kube-scheduler prepares before it calls the allocator (spec §1.3, §9, §11).

The allocated state from already-allocated claims, DeviceTaintRules merged into the slices (the
slice tracker's job upstream, ``resourceslice/tracker``), and the allocator flags and release
behaviour of a target cluster. API defaulting is :mod:`dralint.api.defaults`; extended-resource
claims belong to the simulation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from dralint.allocator.devices import DeviceInfo, DeviceRegistry, SliceInfo
from dralint.allocator.selection import SelectorCache, selectors_match
from dralint.allocator.types import AllocatedState, AllocatorError, DeviceID, Features, Release
from dralint.api import model
from dralint.api.versions import GATES, Target
from dralint.apimachinery.quantity import Quantity


def features_for(target: Target) -> Features:
    """The allocator flags the target cluster's scheduler runs with (gate mapping of spec §11).

    Kubernetes 1.31 has no DRAAdminAccess gate: its allocator honours ``adminAccess`` (a plain
    bool of v1alpha3 then) unconditionally.
    """
    return Features(
        admin_access=target.enabled("DRAAdminAccess") or target.release == "1.31",
        consumable_capacity=target.enabled("DRAConsumableCapacity"),
        derived_attributes=target.enabled("DRADerivedAttributes"),
        device_binding_and_status=target.enabled("DRADeviceBindingConditions")
        and target.enabled("DRAResourceClaimDeviceStatus"),
        device_compatibility_groups=target.enabled("DRADeviceCompatibilityGroups"),
        device_taints=target.enabled("DRADeviceTaints"),
        fractional_capacity_range=target.enabled("DRAFractionalCapacityRange"),
        list_type_attributes=target.enabled("DRAListTypeAttributes"),
        partitionable_devices=target.enabled("DRAPartitionableDevices"),
        prioritized_list=target.enabled("DRAPrioritizedList"),
    )


def release_for(target: Target) -> Release:
    """How the target release's allocator differs from the newest (see :class:`Release`)."""
    return Release(
        all_may_match_nothing=not target.at_least("1.33"),
        all_failure_stops_search=not target.at_least("1.33"),
        counters_in_device_slice=target.at_least("1.33") and not target.at_least("1.35"),
    )


def taint_rules_apply(target: Target) -> bool:
    """Whether the scheduler merges DeviceTaintRules into the slices it sees: under DRADeviceTaints,
    and from 1.35 (where the rules got a gate of their own) also DRADeviceTaintRules."""
    if not target.enabled("DRADeviceTaints"):
        return False
    return target.release not in GATES["DRADeviceTaintRules"] or target.enabled("DRADeviceTaintRules")


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


class TaintRuleMatcher:
    """Which devices a DeviceTaintRule selects, with the 1.33-1.34 selector by ``deviceClassName`` and
    CEL ``selectors`` (``applyPatches`` of the tracker): a rule whose class does not exist applies to
    nothing; a device on which a selector fails at run time (or does not compile) is not tainted."""

    def __init__(self, classes: Mapping[str, model.DeviceClass] | None = None) -> None:
        self.classes = classes or {}
        self._cache = SelectorCache()
        self._registry = DeviceRegistry(AllocatedState(), self._cache.keys)

    def applies(self, rule: model.DeviceTaintRule) -> bool:
        """Whether the rule can select anything (its class, when it names one, exists)."""
        selector = rule.selector
        return selector is None or selector.device_class_name is None or selector.device_class_name in self.classes

    def devices(self, rule: model.DeviceTaintRule, resource_slice: SliceInfo) -> list[int]:
        """The positions in the slice of the devices the rule selects."""
        selector = rule.selector
        if not self.applies(rule) or not selects_slice(selector, resource_slice.slice):
            return []
        out = []
        for index, device in enumerate(resource_slice.devices(self._registry)):
            if not selects_device(selector, device.device):
                continue
            if selector is not None and not self._cel_matches(selector, device):
                continue
            out.append(index)
        return out

    def _cel_matches(self, selector: model.DeviceTaintSelector, device: DeviceInfo) -> bool:
        owner = _no_owner
        try:
            if selector.device_class_name is not None:
                device_class = self.classes[selector.device_class_name]
                if not selectors_match(self._cache, device_class.selectors, device, owner):
                    return False
            return selectors_match(self._cache, selector.selectors, device, owner)
        except AllocatorError:
            return False


def _no_owner() -> tuple[str, str | None]:
    return "DeviceTaintRule", None


def apply_taint_rules(
    slices: Sequence[model.ResourceSlice],
    rules: Sequence[model.DeviceTaintRule],
    classes: Mapping[str, model.DeviceClass] | None = None,
) -> list[model.ResourceSlice]:
    """Every rule's taint appended to the devices its selector matches, rules in order (tracker)."""
    if not rules:
        return list(slices)
    matcher = TaintRuleMatcher(classes)
    out = []
    for resource_slice in slices:
        info = SliceInfo(resource_slice)
        devices = list(resource_slice.devices)
        changed = False
        for rule in rules:
            for index in matcher.devices(rule, info):
                device = devices[index]
                devices[index] = dataclasses.replace(device, taints=(*device.taints, rule.taint))
                changed = True
        out.append(dataclasses.replace(resource_slice, devices=tuple(devices)) if changed else resource_slice)
    return out
