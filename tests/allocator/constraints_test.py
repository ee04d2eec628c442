"""Constraint state machines (matchAttribute, distinctAttribute), including quirks Q1-Q3."""

from __future__ import annotations

from dralint.allocator.constraints import DistinctAttribute, MatchAttribute, as_set, lookup_attribute
from dralint.api import model


def _attrs(**values: object) -> dict[str, model.DeviceAttribute]:
    out = {}
    for name, value in values.items():
        kind = {int: "int", bool: "bool", str: "string", tuple: "strings"}[type(value)]
        out[name] = model.DeviceAttribute(kind, value)
    return out


def test_lookup_attribute_uses_bare_id_only_in_the_driver_domain() -> None:
    attributes = _attrs(numa=1)
    assert lookup_attribute(attributes, "gpu.example.com", "gpu.example.com/numa") == attributes["numa"]
    assert lookup_attribute(attributes, "gpu.example.com", "other.example.com/numa") is None


def test_as_set_treats_empty_lists_and_missing_values_as_unknown() -> None:
    assert as_set(model.DeviceAttribute("strings", ())) is None
    assert as_set(model.DeviceAttribute("", None)) is None
    assert as_set(model.DeviceAttribute("ints", (1, 2))) == ("int", frozenset({1, 2}))


def test_match_attribute_scalar_mode_refuses_lists_after_the_first_device() -> None:
    constraint = MatchAttribute((), "d/tags", set_mode=False)
    assert constraint.add("r", "", "d", _attrs(tags=("a",)))
    assert not constraint.add("r", "", "d", _attrs(tags=("a",)))


def test_match_attribute_set_mode_keeps_the_narrowed_intersection_after_removal() -> None:
    # Q1: {1,2} then {2,3} narrows to {2}; removing the second device keeps {2}, so {1} is refused
    # although only {1,2} is still chosen.
    constraint = MatchAttribute((), "d/v", set_mode=True)
    assert constraint.add("r", "", "d", _attrs(v=("1", "2")))
    assert constraint.add("r", "", "d", _attrs(v=("2", "3")))
    constraint.remove("r", "")
    assert constraint.count == 1
    assert not constraint.add("r", "", "d", _attrs(v=("1",)))


def test_match_attribute_ignores_uncovered_requests_and_covers_parent_or_entry() -> None:
    constraint = MatchAttribute(("p/s",), "d/v", set_mode=False)
    assert constraint.add("other", "", "d", {})  # not covered: accepted without an attribute
    assert not constraint.add("p", "s", "d", {})  # covered through parent/entry: attribute missing
    assert constraint.add("p", "t", "d", {})  # another entry of p is not covered


def test_distinct_attribute_compares_only_the_latest_value_of_a_request() -> None:
    # Q2: values 1, 2, 1 of one request are all accepted.
    constraint = DistinctAttribute((), "d/numa", set_mode=False)
    assert constraint.add("r", "", "d", _attrs(numa=1))
    assert constraint.add("r", "", "d", _attrs(numa=2))
    assert constraint.add("r", "", "d", _attrs(numa=1))


def test_distinct_attribute_removal_forgets_the_whole_request() -> None:
    # Q3: after removing one device of r, r's other value is forgotten; with an empty map the next
    # device is accepted unchecked.
    constraint = DistinctAttribute((), "d/numa", set_mode=False)
    assert constraint.add("r", "", "d", _attrs(numa=1))
    assert constraint.add("r", "", "d", _attrs(numa=2))
    constraint.remove("r", "")
    assert constraint.values == {} and constraint.count == 1
    assert constraint.add("r", "", "d", _attrs(numa=1))


def test_distinct_attribute_set_mode_refuses_overlapping_lists() -> None:
    constraint = DistinctAttribute((), "d/v", set_mode=True)
    assert constraint.add("a", "", "d", _attrs(v=("1", "2")))
    assert not constraint.add("b", "", "d", _attrs(v=("2", "3")))
    assert constraint.add("b", "", "d", _attrs(v=("3",)))
