"""Older ``resource.k8s.io`` shapes → the v1 shape, remembering how paths moved.

The API server validates every version on its internal (v1-shaped) object, so dralint does the
same: v1alpha3/v1beta1 flat requests gain an ``exactly`` block, v1alpha3/v1beta1 devices lose
their ``basic`` wrapper, v1alpha3 capacities become ``{value: q}``. The returned
:class:`PathMap` maps a canonical path back to where the user wrote it, so a finding on
``spec.devices.requests[0].exactly.count`` points at the user's ``count:`` line.

Defaulting (:mod:`dralint.api.defaults`) runs before this, on the versioned object, as in the
API server.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import field
from typing import Any

from dralint.apimachinery.fieldpath import Key, Path
from dralint.dataclass import dataclass

# Fields of a flat (v1alpha3/v1beta1) request that move into ``exactly``.
FLAT_REQUEST_FIELDS = (
    "deviceClassName",
    "selectors",
    "allocationMode",
    "count",
    "adminAccess",
    "tolerations",
    "capacity",
    "derivedAttributes",
)
FLAT_VERSIONS = frozenset({"v1alpha3", "v1beta1"})
# Members of the v1alpha3/v1beta1 ``BasicDevice`` wrapper, hoisted onto the device in v1beta2/v1.
BASIC_DEVICE_FIELDS = (
    "attributes",
    "capacity",
    "consumesCounters",
    "nodeName",
    "nodeSelector",
    "allNodes",
    "taints",
    "bindsToNode",
    "bindingConditions",
    "bindingFailureConditions",
    "allowMultipleAllocations",
    "nodeAllocatableResourceMappings",
    "nodeAllocatableResources",
)


@dataclass(frozen=True, slots=True)
class PathMap:
    """Rewrites canonical path prefixes to source path prefixes (longest prefix wins)."""

    rules: tuple[tuple[Path, Path], ...] = field(default=())
    # canonical prefix -> source prefix: a look-up per prefix length of the path, not a scan of
    # every rule (a claim of 10,000 requests has 20,000 rules and as many findings to map).
    _index: dict[Path, Path] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[Path, Path] = {}
        for canonical, source in self.rules:
            index.setdefault(canonical, source)
        object.__setattr__(self, "_index", index)

    def to_source(self, path: Path) -> Path:
        index = self._index
        if index:
            for length in range(len(path), -1, -1):
                source = index.get(path[:length])
                if source is not None:
                    return source + path[length:]
        return path


@dataclass(frozen=True, slots=True)
class Converted:
    """A DRA object in the v1 shape plus the way back to the user's paths."""

    data: dict[str, Any]
    paths: PathMap


def to_v1(kind: str, version: str, raw: Mapping[str, Any]) -> Converted:
    """The v1-shaped copy of a ``resource.k8s.io`` object of any served version."""
    data = json_copy(dict(raw))
    rules: list[tuple[Path, Path]] = []
    if version in FLAT_VERSIONS:
        if kind == "ResourceClaim":
            _unflatten_requests(data.get("spec"), ("spec",), rules)
        elif kind == "ResourceClaimTemplate":
            spec = data.get("spec")
            if isinstance(spec, dict):
                _unflatten_requests(spec.get("spec"), ("spec", "spec"), rules)
        elif kind == "ResourceSlice":
            _unwrap_basic(data.get("spec"), version, rules)
    return Converted(data, PathMap(tuple(rules)))


def json_copy(data: Any) -> Any:
    """A deep copy of decoded YAML/JSON (dicts, lists, scalars): several times faster than ``copy.deepcopy``."""
    if isinstance(data, dict):
        return {key: json_copy(value) for key, value in data.items()}
    if isinstance(data, list):
        return [json_copy(item) for item in data]
    return data


def is_flat_exactly(request: Mapping[str, Any]) -> bool:
    """Whether the API server turns a flat request into an ``exactly`` block (spec/api.md §2.3 A).

    Go sees a JSON ``null`` as the zero value, so ``null`` counts as not set.
    """
    return (
        request.get("deviceClassName") not in (None, "")
        or request.get("selectors") is not None
        or request.get("allocationMode") not in (None, "")
        or request.get("count") not in (None, 0)
        or any(
            request.get(name) is not None for name in ("adminAccess", "tolerations", "capacity", "derivedAttributes")
        )
    )


def _unflatten_requests(spec: Any, base: Path, rules: list[tuple[Path, Path]]) -> None:
    devices = spec.get("devices") if isinstance(spec, dict) else None
    requests = devices.get("requests") if isinstance(devices, dict) else None
    if not isinstance(requests, list):
        return
    for index, request in enumerate(requests):
        if not isinstance(request, dict):
            continue
        request.pop("exactly", None)  # not a field of the flat versions: the server drops it
        flat = is_flat_exactly(request)
        exactly = {name: request.pop(name) for name in FLAT_REQUEST_FIELDS if name in request}
        if not flat:
            continue  # every flat field is unset (null, "" or 0): nothing to move
        request["exactly"] = exactly
        at = (*base, "devices", "requests", index)
        rules.append(((*at, "exactly"), at))


def drop_unset_node_fields(spec: MutableMapping[str, Any]) -> None:
    """Remove a flat-version slice's ``nodeName``/``allNodes`` when they hold their "not set" value.

    In v1alpha3/v1beta1 they are plain values whose zero ("" and false, or null) means "not set";
    in v1beta2/v1 those values are errors (spec/api.md §2.3 B).
    """
    if "nodeName" in spec and spec["nodeName"] in (None, ""):
        del spec["nodeName"]
    if "allNodes" in spec and spec["allNodes"] in (None, False):
        del spec["allNodes"]


def _unwrap_basic(spec: Any, version: str, rules: list[tuple[Path, Path]]) -> None:
    if not isinstance(spec, dict):
        return
    drop_unset_node_fields(spec)
    devices = spec.get("devices")
    if not isinstance(devices, list):
        return
    for index, device in enumerate(devices):
        if not isinstance(device, dict):
            continue
        basic = device.get("basic")
        # A flat-version device has only ``name`` and ``basic``; anything else is an unknown field.
        hoisted = {"name": device["name"]} if "name" in device else {}
        if isinstance(basic, dict):
            hoisted.update((name, value) for name, value in basic.items() if name != "name")
        devices[index] = device = hoisted
        if not isinstance(basic, dict):
            continue
        at = ("spec", "devices", index)
        for name in dict.fromkeys([*BASIC_DEVICE_FIELDS, *basic]):
            if name != "name":
                rules.append(((*at, name), (*at, "basic", name)))
        capacity = device.get("capacity")
        if version == "v1alpha3" and isinstance(capacity, dict):
            for key, value in list(capacity.items()):
                capacity[key] = {"value": value}
                rules.append(((*at, "capacity", Key(key), "value"), (*at, "basic", "capacity", Key(key))))
