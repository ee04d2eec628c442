"""A starting profile for each driver of a real cluster's ResourceSlices (``dralint profile extract``).

What devices publish is evidence, not the driver's documentation: the profile gets every name
with its value type and a few values seen, and kinds of device where the devices fall into
groups that publish different names (told apart by an attribute whose value differs between the
groups, when there is one). Closed value sets, releases and configuration kinds are for the
author to add: the slices cannot tell them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dralint.api import model
from dralint.diagnose.hints import qualified

__all__ = ["EXAMPLES", "extract"]

EXAMPLES = 5  # values kept per attribute or capacity


@dataclass(slots=True)
class _Seen:
    """What the devices of one driver publish under one name."""

    types: Counter[str] = field(default_factory=Counter)
    values: set[Any] = field(default_factory=set)
    groups: set[int] = field(default_factory=set)  # the groups of devices that publish it
    devices: int = 0


def extract(slices: Iterable[model.ResourceSlice], sources: Sequence[str]) -> list[dict[str, Any]]:
    """One DriverProfile document (plain data) per driver of ``slices``, sorted by driver."""
    by_driver: dict[str, list[model.Device]] = {}
    for resource_slice in slices:
        by_driver.setdefault(resource_slice.driver, []).extend(resource_slice.devices)
    return [_profile(driver, devices, sources) for driver, devices in sorted(by_driver.items()) if driver]


def _profile(driver: str, devices: list[model.Device], sources: Sequence[str]) -> dict[str, Any]:
    # Devices that publish the same names form one group: a candidate kind of device.
    signatures = [_signature(device, driver) for device in devices]
    groups = sorted(set(signatures))
    group_of = [groups.index(s) for s in signatures]
    attributes: dict[tuple[str, str], _Seen] = {}
    capacities: dict[tuple[str, str], _Seen] = {}
    for device, group in zip(devices, group_of, strict=True):
        for key, attribute in device.attributes.items():
            seen = attributes.setdefault(qualified(key, driver), _Seen())
            seen.types[attribute.kind] += 1
            _note(seen, group, attribute.value)
        for key, capacity in device.capacity.items():
            _note(capacities.setdefault(qualified(key, driver), _Seen()), group, str(capacity.value))
    members = Counter(group_of)
    kinds = _kinds(attributes, len(groups), group_of, devices, driver) if len(groups) > 1 else []
    spec: dict[str, Any] = {
        "driver": driver,
        "description": f"extracted by dralint profile extract from {len(devices)} devices",
        "sources": [
            {"file": source, "facts": "the names, value types and values the devices publish"} for source in sources
        ],
    }
    if kinds:
        spec["deviceKinds"] = kinds
    names = [k["name"] for k in kinds]
    spec["attributes"] = [
        _entry(name, seen, driver, names, members, attribute=True) for name, seen in sorted(attributes.items())
    ]
    spec["capacities"] = [
        _entry(name, seen, driver, names, members, attribute=False) for name, seen in sorted(capacities.items())
    ]
    return {
        "apiVersion": "dralint.io/v1alpha1",
        "kind": "DriverProfile",
        "metadata": {"name": driver},
        "spec": {k: v for k, v in spec.items() if v != []},
    }


def _signature(device: model.Device, driver: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (
        tuple(sorted("/".join(qualified(k, driver)) for k in device.attributes)),
        tuple(sorted("/".join(qualified(k, driver)) for k in device.capacity)),
    )


def _note(seen: _Seen, group: int, value: Any) -> None:
    seen.devices += 1
    seen.groups.add(group)
    if value is not None and len(seen.values) < 64:  # enough to choose examples from; bounded on huge clusters
        seen.values.add(value if not isinstance(value, list) else tuple(value))


def _kinds(
    attributes: dict[tuple[str, str], _Seen], groups: int, group_of: list[int], devices: list[model.Device], driver: str
) -> list[dict[str, Any]]:
    """A kind per group of devices, named and matched by an attribute that takes one value per group."""
    published = [{qualified(k, driver): a.value for k, a in device.attributes.items()} for device in devices]
    for name in sorted(attributes):
        per_group: dict[int, set[Any]] = {}
        for values, group in zip(published, group_of, strict=True):
            per_group.setdefault(group, set()).add(values.get(name))
        single = {g: next(iter(v)) for g, v in per_group.items() if len(v) == 1}
        names = {g: _kind_name(v) for g, v in single.items() if isinstance(v, str)}
        if len(names) == groups and len(set(names.values())) == groups and all(names.values()):
            return [{"name": names[g], "match": {_written(name, driver): single[g]}} for g in range(groups)]
    return [{"name": f"kind-{n + 1}"} for n in range(groups)]


def _written(name: tuple[str, str], driver: str) -> str:
    return name[1] if name[0] == driver else "/".join(name)


def _kind_name(value: str) -> str:
    cleaned = "".join(c if c.isalnum() else "-" for c in value.lower()).strip("-")
    return cleaned[:63].strip("-")


def _entry(
    name: tuple[str, str],
    seen: _Seen,
    driver: str,
    kinds: list[str],
    members: Counter[int],
    *,
    attribute: bool,
) -> dict[str, Any]:
    out: dict[str, Any] = {"name": _written(name, driver)}
    if attribute:
        out["type"] = seen.types.most_common(1)[0][0] or "string"
    if kinds and len(seen.groups) < len(kinds):
        out["deviceKinds"] = [kinds[g] for g in sorted(seen.groups)]
    if seen.devices < sum(members[g] for g in seen.groups):
        out["optional"] = True
    examples = sorted(seen.values, key=lambda v: (str(type(v)), str(v)))[:EXAMPLES]
    if attribute:
        examples = [v for v in examples if not isinstance(v, tuple)]  # the schema's examples are scalars
    if examples:
        out["examples"] = examples
    if len(seen.types) > 1:
        shown = ", ".join(f"{kind} on {count}" for kind, count in sorted(seen.types.items()))
        out["description"] = f"published with different types: {shown} devices"
    return out
