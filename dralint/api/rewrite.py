"""Rewrite a ``resource.k8s.io`` object from one served version to another, in place.

What changes between the versions (spec/api.md §2.3) is the shape, never the meaning:

- ResourceClaim and ResourceClaimTemplate requests are flat in v1alpha3/v1beta1 and keep the
  fields of an exact request under ``exactly`` in v1beta2/v1;
- ResourceSlice devices wrap their fields in ``basic`` in v1alpha3/v1beta1; in v1alpha3 a
  capacity is a bare quantity, later ``{value: q}`` (with an optional ``requestPolicy``);
- in v1alpha3/v1beta1 a slice's ``nodeName: ""`` and ``allNodes: false`` mean "not set"; in
  v1beta2/v1 they are errors, so they are dropped on the way there.

Fields are moved, never rebuilt, so a ruamel round-trip mapping keeps its key order and the
comments on the moved keys. What the target version cannot hold (a ``requestPolicy`` in
v1alpha3) raises :class:`ConvertError`; fields the target does not have at all are found by
the caller with the target's schema.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from dralint.api.convert import FLAT_REQUEST_FIELDS, FLAT_VERSIONS, drop_unset_node_fields, is_flat_exactly
from dralint.api.versions import VERSIONS
from dralint.apimachinery.fieldpath import Path, render
from dralint.errors import InputError

__all__ = ["VERSIONS", "ConvertError", "convert"]


class ConvertError(InputError):
    """The object cannot be represented in the target version."""


def convert(obj: MutableMapping[str, Any], kind: str, source: str, target: str) -> None:
    """Rewrite ``obj`` (of ``kind``, written in version ``source``) into the shape of ``target``."""
    flat_before, flat_after = source in FLAT_VERSIONS, target in FLAT_VERSIONS
    spec = obj.get("spec")
    base: Path
    if kind == "ResourceClaimTemplate" and isinstance(spec, MutableMapping):
        spec, base = spec.get("spec"), ("spec", "spec")
    else:
        base = ("spec",)
    if kind in ("ResourceClaim", "ResourceClaimTemplate") and flat_before != flat_after:
        for index, request in _requests(spec):
            at = (*base, "devices", "requests", index)
            if flat_after:
                _flatten_request(request, at)
            else:
                _nest_request(request)
    if kind == "ResourceSlice" and isinstance(spec, MutableMapping):
        if flat_before and not flat_after:
            drop_unset_node_fields(spec)
        for index, device in _items(spec.get("devices")):
            device_at: Path = ("spec", "devices", index)
            if flat_before and not flat_after:
                _unwrap(device, "basic", device_at)
            _convert_capacity(device, source, target, device_at)
            if flat_after and not flat_before:
                _wrap_basic(device)
    obj["apiVersion"] = f"resource.k8s.io/{target}"


def _items(value: Any) -> list[tuple[int, MutableMapping[str, Any]]]:
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, MutableMapping)]


def _requests(spec: Any) -> list[tuple[int, MutableMapping[str, Any]]]:
    devices = spec.get("devices") if isinstance(spec, MutableMapping) else None
    return _items(devices.get("requests")) if isinstance(devices, MutableMapping) else []


def _nest_request(request: MutableMapping[str, Any]) -> None:
    """Flat request → ``exactly``: its exact-request fields move into a new ``exactly`` where the first one was.

    When they all hold their "not set" value (a request of ``firstAvailable`` alternatives with
    ``count: 0``), the API server makes no ``exactly`` of them, and they go."""
    keys = [key for key in request if key in FLAT_REQUEST_FIELDS]
    if not is_flat_exactly(request):
        for key in keys:
            _pop_comment(request, key)
            del request[key]
        return
    _wrap(request, "exactly", keys)


def _wrap(mapping: MutableMapping[str, Any], wrapper: str, keys: list[str], *, always: bool = False) -> None:
    """Move ``keys`` of ``mapping`` into a new ``mapping[wrapper]``, placed where the first of them was
    (with ``always``, an empty wrapper at the end when there is none)."""
    if not keys and not always:
        return
    inner = _empty_like(mapping)
    position = list(mapping).index(keys[0]) if keys else len(mapping)
    for key in keys:
        _move(mapping, inner, key)
    _insert(mapping, position, wrapper, inner)


def _flatten_request(request: MutableMapping[str, Any], at: Path) -> None:
    """``exactly`` → flat request: its fields move onto the request where ``exactly`` was."""
    if "exactly" not in request:
        return
    exactly = request["exactly"]
    if not isinstance(exactly, MutableMapping):
        raise ConvertError(f"{render((*at, 'exactly'))} is not a mapping")
    _unwrap(request, "exactly", at)


def _unwrap(mapping: MutableMapping[str, Any], wrapper: str, at: Path) -> None:
    """Move the members of ``mapping[wrapper]`` up into ``mapping``, where the wrapper was."""
    inner = mapping.get(wrapper)
    if wrapper not in mapping or not isinstance(inner, MutableMapping):
        return
    clash = [key for key in inner if key in mapping and key != wrapper]
    if clash:
        raise ConvertError(f"{render((*at, clash[0]))} is set both on its own and under {wrapper}")
    position = list(mapping).index(wrapper)
    comment = _pop_comment(mapping, wrapper)
    del mapping[wrapper]
    for offset, key in enumerate(list(inner)):
        value = inner[key]
        item_comment = _pop_comment(inner, key)
        _insert(mapping, position + offset, key, value)
        _set_comment(mapping, key, item_comment)
    if comment is not None and inner:
        _set_comment(mapping, next(iter(inner)), comment)


def _wrap_basic(device: MutableMapping[str, Any]) -> None:
    """Device fields → ``basic``: everything but the name, in its order. A device with only a name
    gets an empty ``basic``, as the API server writes v1beta1 devices: 1.31 and 1.32 refuse a device
    without one (``spec.devices[i].basic: Required value``)."""
    _wrap(device, "basic", [key for key in device if key != "name"], always=True)


def _convert_capacity(device: MutableMapping[str, Any], source: str, target: str, at: Path) -> None:
    holder = device.get("basic") if isinstance(device.get("basic"), MutableMapping) else device
    capacity = holder.get("capacity") if isinstance(holder, MutableMapping) else None
    if not isinstance(capacity, MutableMapping) or (source == "v1alpha3") == (target == "v1alpha3"):
        return
    for key in list(capacity):
        value = capacity[key]
        if source == "v1alpha3":
            wrapped = _empty_like(capacity)
            wrapped["value"] = value
            capacity[key] = wrapped
        elif isinstance(value, MutableMapping):
            extra = [k for k in value if k != "value"]
            if extra:
                where = render((*at, "capacity", key, extra[0]))
                raise ConvertError(f"{where} cannot be represented in v1alpha3 (its capacities are bare quantities)")
            capacity[key] = value.get("value")


# --- moving keys with their comments (ruamel CommentedMap) or plainly (dict) -------------------


def _empty_like(mapping: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    made: MutableMapping[str, Any] = type(mapping)()
    return made


def _insert(mapping: MutableMapping[str, Any], position: int, key: str, value: Any) -> None:
    insert = getattr(mapping, "insert", None)
    if insert is not None:  # ruamel's CommentedMap
        insert(position, key, value)
        return
    items = list(mapping.items())
    items.insert(position, (key, value))
    mapping.clear()
    mapping.update(items)


def _move(source: MutableMapping[str, Any], target: MutableMapping[str, Any], key: str) -> None:
    comment = _pop_comment(source, key)
    target[key] = source.pop(key)
    _set_comment(target, key, comment)


def _pop_comment(mapping: MutableMapping[str, Any], key: str) -> Any:
    attached = getattr(mapping, "ca", None)
    return attached.items.pop(key, None) if attached is not None else None


def _set_comment(mapping: MutableMapping[str, Any], key: str, comment: Any) -> None:
    attached = getattr(mapping, "ca", None)
    if attached is not None and comment is not None:
        attached.items[key] = comment
