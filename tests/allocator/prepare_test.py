"""What the scheduler prepares: allocated state, DeviceTaintRules merged into slices, feature flags."""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML

from dralint.allocator import Features, Release
from dralint.allocator.prepare import (
    allocated_state,
    apply_taint_rules,
    features_for,
    release_for,
    taint_rules_apply,
)
from dralint.api import model
from dralint.api.versions import make_target
from dralint.apimachinery.quantity import parse_quantity

DATA = YAML(typ="safe").load(
    (Path(__file__).resolve().parent.parent / "fixtures" / "allocator" / "prepare.yaml").read_text()
)


def test_allocated_state_ignores_admin_and_aggregates_shares() -> None:
    claims = [model.resource_claim(c) for c in DATA["allocatedClaims"]]
    state = allocated_state(claims, consumable_capacity=True)
    assert state.allocated_devices == {("gpu.example.com", "p", "gpu-0")}
    assert state.allocated_shared_device_ids == {
        (("nic.example.com", "p", "nic-0"), "s1"),
        (("nic.example.com", "p", "nic-0"), "s2"),
        (("nic.example.com", "p", "nic-1"), "s3"),
    }
    assert dict(state.aggregated_capacity) == {("nic.example.com", "p", "nic-0"): {"bandwidth": parse_quantity("15G")}}


def test_allocated_state_without_consumable_capacity_treats_shares_as_exclusive() -> None:
    claims = [model.resource_claim(c) for c in DATA["allocatedClaims"]]
    state = allocated_state(claims, consumable_capacity=False)
    assert state.allocated_devices == {
        ("gpu.example.com", "p", "gpu-0"),
        ("nic.example.com", "p", "nic-0"),
        ("nic.example.com", "p", "nic-1"),
    }
    assert not state.allocated_shared_device_ids and not state.aggregated_capacity


def test_apply_taint_rules_appends_in_rule_order_to_matching_devices() -> None:
    slices = [model.resource_slice(s) for s in DATA["slices"]]
    rules = [model.device_taint_rule(r) for r in DATA["taintRules"]]
    patched = apply_taint_rules(slices, rules)
    taints = {(s.driver, d.name): [(t.key, t.effect) for t in d.taints] for s in patched for d in s.devices}
    assert taints == {
        ("gpu.example.com", "gpu-0"): [("own", "NoSchedule"), ("maintenance", "NoExecute"), ("all", "None")],
        ("gpu.example.com", "gpu-1"): [("maintenance", "NoExecute"), ("broken", "NoSchedule"), ("all", "None")],
        ("nic.example.com", "nic-0"): [("all", "None")],
    }
    assert [d.taints for d in slices[0].devices][1] == ()  # inputs untouched


def test_features_for_a_default_1_37_cluster() -> None:
    # DRAFractionalCapacityRange is beta and on in 1.37; derived attributes and compatibility groups alpha
    assert features_for(make_target("1.37")) == Features(
        admin_access=True,
        consumable_capacity=True,
        device_binding_and_status=True,
        device_taints=True,
        fractional_capacity_range=True,
        list_type_attributes=False,
        partitionable_devices=True,
        prioritized_list=True,
    )
    assert taint_rules_apply(make_target("1.37"))
    assert release_for(make_target("1.37")) == Release()


def test_features_for_1_37_alpha_gates() -> None:
    target = make_target("1.37", {"DRADerivedAttributes": True, "DRADeviceCompatibilityGroups": True})
    features = features_for(target)
    assert features.derived_attributes and features.device_compatibility_groups


def test_features_for_1_31_honour_admin_access_without_a_gate() -> None:
    # release-1.31's allocator reads request.AdminAccess (a plain bool) with no feature check
    target = make_target("1.31", {"DynamicResourceAllocation": True})
    assert features_for(target) == Features(admin_access=True)
    assert release_for(target) == Release(all_may_match_nothing=True, all_failure_stops_search=True)


def test_release_for_1_33_and_1_34_counts_counters_per_slice() -> None:
    for release in ("1.33", "1.34"):
        assert release_for(make_target(release)) == Release(counters_in_device_slice=True)
    assert release_for(make_target("1.32")).all_may_match_nothing
    assert release_for(make_target("1.35")) == Release()


def test_taint_rules_apply_under_device_taints_alone_before_1_35() -> None:
    # DRADeviceTaintRules exists from 1.35; before, the tracker merges rules when DRADeviceTaints is on
    assert taint_rules_apply(make_target("1.33", {"DRADeviceTaints": True}))
    assert taint_rules_apply(make_target("1.34", {"DRADeviceTaints": True}))
    assert not taint_rules_apply(make_target("1.34"))
    assert not taint_rules_apply(make_target("1.35", {"DRADeviceTaints": True}))
    assert taint_rules_apply(make_target("1.35", {"DRADeviceTaints": True, "DRADeviceTaintRules": True}))


def test_apply_taint_rules_by_device_class_and_cel_selectors() -> None:
    # release-1.34 tracker applyPatches: a rule naming a missing class applies to nothing; a device on
    # which a selector fails at run time is left alone
    slices = [model.resource_slice(s) for s in DATA["classSlices"]]
    classes = {c["metadata"]["name"]: model.device_class(c) for c in DATA["classes"]}
    rules = [model.device_taint_rule(r) for r in DATA["classRules"]]
    patched = apply_taint_rules(slices, rules, classes)
    taints = {d.name: [t.key for t in d.taints] for s in patched for d in s.devices}
    assert taints == {
        "gpu-0": ["class-a100", "cel-80gb"],
        "gpu-1": ["class-a100"],
        "gpu-2": [],
        "nic-0": [],
    }


def test_features_for_1_34_with_gates() -> None:
    target = make_target("1.34", {"DRAConsumableCapacity": True, "DRADeviceBindingConditions": True})
    assert features_for(target) == Features(
        admin_access=True,
        consumable_capacity=True,
        device_binding_and_status=True,
        prioritized_list=True,
    )
    assert not taint_rules_apply(target)  # DRADeviceTaints is off by default in 1.34
