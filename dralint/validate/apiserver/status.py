"""Status validation (ResourceClaim, DeviceTaintRule, ResourcePoolStatusRequest; spec/api.md §3.2).

The server clears ``status`` when an object is created, so these rules only matter for
objects that carry a status written by the cluster: inventory snapshots (``kubectl get -o
yaml``), backups, test fixtures. A broken status there misleads the dry-run, so dralint checks
it like a ``/status`` update would, under a rule of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.api import read
from dralint.apimachinery.fieldpath import Path
from dralint.regex import compiled_on_first_use
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.claims import RequestNames, opaque_config, request_reference, request_references
from dralint.validate.apiserver.claims import toleration_errors as toleration
from dralint.validate.apiserver.errors import (
    STATUS,
    FieldError,
    duplicate,
    forbidden,
    invalid,
    not_supported,
    required,
    retag,
    too_long,
    too_many,
)
from dralint.validate.apiserver.formats import (
    dns_label,
    driver_name,
    interface_address,
    label_name,
    node_selector,
    pool_name,
    raw_extension,
    uid,
)
from dralint.validate.apiserver.lists import check_list, check_set
from dralint.validate.apiserver.slices import skip_node_operations
from dralint.validate.apiserver.taints import binding_conditions

MAX_RESULTS = 32
MAX_ALLOCATION_CONFIG = 64
MAX_DEVICE_CONDITIONS = 8
MAX_TAINT_RULE_CONDITIONS = 8
MAX_POOL_STATUS_CONDITIONS = 10
MAX_POOL_STATUSES = 1000
MAX_IPS = 16
INTERFACE_NAME_MAX = 256
HARDWARE_ADDRESS_MAX = 128
CONDITION_REASON_MAX = 1024
CONDITION_MESSAGE_MAX = 32768
CONFIG_SOURCES = ("FromClaim", "FromClass")
CONDITION_STATUSES = ("False", "True", "Unknown")
_reason_re = compiled_on_first_use(r"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$")
_REASON_MESSAGE = (
    "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric "
    "characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or "
    "'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is "
    "'[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')"
)
STATUS_PATH: Path = ("status",)


def claim_status(data: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    status = read.mapping(data, "status")
    if status is None:
        return []
    spec = read.mapping_or_empty(data, "spec")
    names = RequestNames(read.items(read.mapping(spec, "devices"), "requests"))
    allocation = read.mapping(status, "allocation")
    reserved = read.items(status, "reservedFor")
    out = check_set(
        reserved,
        b.reserved_for_max,
        _consumer,
        lambda r: read.opt_text(r, "uid"),
        (*STATUS_PATH, "reservedFor"),
        b,
        name_field=None,
        too_many_hint=f"a claim can be reserved for at most {b.reserved_for_max} consumers",
    )
    allocated = _allocated_devices(allocation)
    out += check_set(
        read.items(status, "devices"),
        -1,
        lambda d, at: _device_status(d, at, allocated, b),
        _device_id,
        (*STATUS_PATH, "devices"),
        b,
        name_field=None,
    )
    if reserved and allocation is None:
        out.append(
            forbidden(
                (*STATUS_PATH, "reservedFor"),
                "may not be specified when `allocated` is not set",
                hint="a claim is reserved for consumers only after it has been allocated",
            )
        )
    if allocation is not None:
        out += _allocation(allocation, (*STATUS_PATH, "allocation"), names, b)
    return retag(out, STATUS)


def _consumer(ref: Any, path: Path) -> list[FieldError]:
    hint = "a consumer reference needs resource, name and uid (what the scheduler writes for a pod)"
    return [required((*path, key), hint=hint) for key in ("resource", "name", "uid") if not read.text(ref, key)]


def _device_id(device: Any) -> str:
    parts = [read.text(device, key) for key in ("driver", "pool", "device")]
    share = read.opt_text(device, "shareID")
    return "/".join([*parts, share] if share is not None else parts)


def _allocated_devices(allocation: Mapping[str, Any] | None) -> set[str]:
    results = read.items(read.mapping(allocation, "devices"), "results")
    return {_device_id(r) for r in results}


def _allocation(allocation: Mapping[str, Any], path: Path, names: RequestNames, b: Behaviour) -> list[FieldError]:
    devices = read.mapping_or_empty(allocation, "devices")
    out = check_list(
        read.items(devices, "results"),
        MAX_RESULTS,
        lambda r, at: _result(r, at, names, b),
        (*path, "devices", "results"),
        b,
    )
    out += check_list(
        read.items(devices, "config"),
        MAX_ALLOCATION_CONFIG,
        lambda c, at: _allocation_config(c, at, names, b),
        (*path, "devices", "config"),
        b,
    )
    selector = read.mapping(allocation, "nodeSelector")
    if selector is not None:
        out += node_selector(selector, (*path, "nodeSelector"))
    return out


def _result(result: Any, path: Path, names: RequestNames, b: Behaviour) -> list[FieldError]:
    out = request_reference(read.text(result, "request"), (*path, "request"), names, b)
    out += driver_name(read.text(result, "driver"), (*path, "driver"), b)
    out += pool_name(read.text(result, "pool"), (*path, "pool"), b)
    out += dns_label(read.text(result, "device"), (*path, "device"))
    out += binding_conditions(result, path, b)
    for index, item in enumerate(read.items(result, "tolerations")):
        out += toleration(item, (*path, "tolerations", index), b)
    share = read.opt_text(result, "shareID")
    if share is not None:
        out += uid(share, (*path, "shareID"))
    out += skip_node_operations(read.opt_items(result, "skipNodeOperations"), (*path, "skipNodeOperations"))
    return out


def _allocation_config(config: Any, path: Path, names: RequestNames, b: Behaviour) -> list[FieldError]:
    source = read.text(config, "source")
    out: list[FieldError] = []
    if not source:
        out.append(required((*path, "source")))
    elif source not in CONFIG_SOURCES:
        out.append(not_supported((*path, "source"), source, CONFIG_SOURCES))
    out += request_references(read.items(config, "requests"), (*path, "requests"), names, b)
    return out + opaque_config(config, path, b)


def _device_status(device: Any, path: Path, allocated: set[str], b: Behaviour) -> list[FieldError]:
    out = driver_name(read.text(device, "driver"), (*path, "driver"), b)
    out += pool_name(read.text(device, "pool"), (*path, "pool"), b)
    out += dns_label(read.text(device, "device"), (*path, "device"))
    share = read.opt_text(device, "shareID")
    if share is not None:
        out += uid(share, (*path, "shareID"))
    identity = _device_id(device)
    if identity not in allocated:
        out.append(
            invalid(
                path,
                identity,
                "must be an allocated device in the claim",
                hint="report status only for devices listed in status.allocation.devices.results",
            )
        )
    items = read.items(device, "conditions")
    if len(items) > MAX_DEVICE_CONDITIONS:
        out.append(too_many((*path, "conditions"), len(items), MAX_DEVICE_CONDITIONS))
    out += conditions(items, (*path, "conditions"))
    if isinstance(device, Mapping) and device.get("data") not in (None, {}, ""):
        out += raw_extension(True, device.get("data"), (*path, "data"), b)
    network = read.mapping(device, "networkData")
    if network is not None:
        out += _network(network, (*path, "networkData"), b)
    return out


def _network(network: Mapping[str, Any], path: Path, b: Behaviour) -> list[FieldError]:
    out: list[FieldError] = []
    if len(read.text(network, "interfaceName").encode()) > INTERFACE_NAME_MAX:
        out.append(too_long((*path, "interfaceName"), INTERFACE_NAME_MAX))
    if len(read.text(network, "hardwareAddress").encode()) > HARDWARE_ADDRESS_MAX:
        out.append(too_long((*path, "hardwareAddress"), HARDWARE_ADDRESS_MAX))
    out += check_set(
        read.items(network, "ips"),
        MAX_IPS,
        lambda ip, at: interface_address(ip if isinstance(ip, str) else "", at),
        lambda ip: ip if isinstance(ip, str) else None,
        (*path, "ips"),
        b,
        name_field=None,
    )
    return out


def conditions(items: list[Any], path: Path) -> list[FieldError]:
    """``metav1validation.ValidateConditions``."""
    out: list[FieldError] = []
    seen: set[str] = set()
    for index, condition in enumerate(items):
        at = (*path, index)
        kind = read.text(condition, "type")
        out += label_name(kind, (*at, "type"))
        if kind in seen:
            out.append(duplicate((*at, "type"), kind))
        seen.add(kind)
        status = read.text(condition, "status")
        if status not in CONDITION_STATUSES:
            out.append(not_supported((*at, "status"), status, CONDITION_STATUSES))
        generation = read.integer(condition, "observedGeneration")
        if generation is not None and generation < 0:
            out.append(
                invalid(
                    (*at, "observedGeneration"),
                    generation,
                    "must be greater than or equal to zero",
                    hint="use the object's metadata.generation the condition was computed from",
                )
            )
        if not read.text(condition, "lastTransitionTime"):
            out.append(required((*at, "lastTransitionTime"), "must be set"))
        reason = read.text(condition, "reason")
        if not reason:
            out.append(required((*at, "reason"), "must be set"))
        else:
            if not _reason_re().match(reason):
                out.append(
                    invalid((*at, "reason"), reason, _REASON_MESSAGE, hint="use a CamelCase reason such as `Evicted`")
                )
            if len(reason) > CONDITION_REASON_MAX:
                out.append(too_long((*at, "reason"), CONDITION_REASON_MAX))
        if len(read.text(condition, "message")) > CONDITION_MESSAGE_MAX:
            out.append(too_long((*at, "message"), CONDITION_MESSAGE_MAX))
    return out


def taint_rule_status(data: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    status = read.mapping(data, "status")
    if status is None or not b.target.at_least("1.35"):
        return []
    items = read.items(status, "conditions")
    out = conditions(items, (*STATUS_PATH, "conditions"))
    if len(items) > MAX_TAINT_RULE_CONDITIONS:
        out.append(too_many((*STATUS_PATH, "conditions"), len(items), MAX_TAINT_RULE_CONDITIONS))
    return retag(out, STATUS)


def pool_status_request_status(data: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    status = read.mapping(data, "status")
    if status is None:
        return []
    out: list[FieldError] = []
    count = read.integer(status, "poolCount")
    if count is not None and count < 0:
        out.append(
            invalid(
                (*STATUS_PATH, "poolCount"),
                count,
                "must be greater than or equal to 0",
                hint="counts cannot be negative",
            )
        )
    pools = read.items(status, "pools")
    if len(pools) > MAX_POOL_STATUSES:
        out.append(too_many((*STATUS_PATH, "pools"), len(pools), MAX_POOL_STATUSES))
    items = read.items(status, "conditions")
    if len(items) > MAX_POOL_STATUS_CONDITIONS:
        out.append(too_many((*STATUS_PATH, "conditions"), len(items), MAX_POOL_STATUS_CONDITIONS))
    else:
        out += conditions(items, (*STATUS_PATH, "conditions"))
    return retag(out, STATUS)
