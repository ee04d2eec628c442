"""What the scheduler prepares: allocated state, DeviceTaintRules merged into slices, feature flags."""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML

from dralint.allocator import Features
from dralint.allocator.prepare import allocated_state, apply_taint_rules, features_for, taint_rules_apply
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
    assert features_for(make_target("1.37")) == Features(
        admin_access=True,
        consumable_capacity=True,
        device_binding_and_status=True,
        device_taints=True,
        list_type_attributes=False,
        partitionable_devices=True,
        prioritized_list=True,
    )
    assert taint_rules_apply(make_target("1.37"))


def test_features_for_1_34_with_gates() -> None:
    target = make_target("1.34", {"DRAConsumableCapacity": True, "DRADeviceBindingConditions": True})
    assert features_for(target) == Features(
        admin_access=True,
        consumable_capacity=True,
        device_binding_and_status=True,
        prioritized_list=True,
    )
    assert not taint_rules_apply(target)
