"""Spec validation of the kinds cluster administrators write: DeviceClass, DeviceTaintRule and
ResourcePoolStatusRequest (spec/api.md §3.4, §3.6, §3.7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.api import read
from dralint.apimachinery.fieldpath import Path
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.claims import opaque_config, selectors
from dralint.validate.apiserver.errors import MALFORMED, FieldError, invalid, required
from dralint.validate.apiserver.formats import (
    dns_label,
    dns_subdomain,
    driver_name,
    fully_qualified_name,
    is_extended_resource_name,
    node_selector,
    pool_name,
)
from dralint.validate.apiserver.lists import check_list
from dralint.validate.apiserver.taints import taint_errors

MAX_CLASS_CONFIG = 32
RPSR_LIMIT_MAX = 1000


def device_class(data: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    spec = read.mapping_or_empty(data, "spec")
    path: Path = ("spec",)
    out = selectors(read.items(spec, "selectors"), (*path, "selectors"), b)
    out += check_list(
        read.items(spec, "config"), MAX_CLASS_CONFIG, lambda c, at: opaque_config(c, at, b), (*path, "config"), b
    )
    suitable = read.mapping(spec, "suitableNodes")  # classic DRA, 1.31 with DRAControlPlaneController
    if suitable is not None:
        out += node_selector(suitable, (*path, "suitableNodes"))
    name = read.opt_text(spec, "extendedResourceName")
    if name is not None and not is_extended_resource_name(name):
        out.append(
            invalid(
                (*path, "extendedResourceName"),
                name,
                "must be a valid extended resource name",
                kind=MALFORMED,
                hint="use `<domain>/<name>` outside kubernetes.io, e.g. `example.com/gpu`",
            )
        )
    return out


def device_taint_rule(data: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    spec = read.mapping_or_empty(data, "spec")
    path: Path = ("spec",)
    out: list[FieldError] = []
    selector = read.mapping(spec, "deviceSelector")
    if selector is not None:
        at = (*path, "deviceSelector")
        driver = read.opt_text(selector, "driver")
        if driver is not None:
            out += driver_name(driver, (*at, "driver"), b)
        pool = read.opt_text(selector, "pool")
        if pool is not None:
            out += pool_name(pool, (*at, "pool"), b)
        device = read.opt_text(selector, "device")
        if device is not None:
            out += dns_label(device, (*at, "device"))
        if not b.target.at_least("1.35"):
            class_name = read.opt_text(selector, "deviceClassName")
            if class_name is not None:
                out += dns_subdomain(class_name, (*at, "deviceClassName"))
            out += selectors(read.items(selector, "selectors"), (*at, "selectors"), b)
    taint = read.mapping_or_empty(spec, "taint")
    out += taint_errors(taint, (*path, "taint"), b)
    return out


def resource_pool_status_request(data: Mapping[str, Any], b: Behaviour) -> list[FieldError]:
    spec = read.mapping_or_empty(data, "spec")
    path: Path = ("spec",)
    out: list[FieldError] = []
    driver = read.text(spec, "driver")
    if not driver:
        detail = "" if b.target.at_least("1.37") else "driver name is required"
        out.append(required((*path, "driver"), detail, hint="name the driver whose pools to report"))
    else:
        out += driver_name(driver, (*path, "driver"), b)
    pool = read.opt_text(spec, "poolName")
    if pool is not None and (pool or b.target.at_least("1.37")):
        out += pool_name(pool, (*path, "poolName"), b)
    limit = read.integer(spec, "limit")
    if limit is not None and (limit < 1 or limit > RPSR_LIMIT_MAX):
        newer = b.target.at_least("1.37")
        if limit < 1:
            detail = "must be greater than or equal to 1" if newer else "must be at least 1"
        else:
            detail = "must be less than or equal to 1000" if newer else "must not exceed 1000"
        out.append(invalid((*path, "limit"), limit, detail, hint="use a limit between 1 and 1000 (default 100)"))
    attribute = read.opt_text(spec, "defaultPartitionTypeAttribute")
    if attribute is not None and b.enabled("DRAPartitionableDevicesType"):  # dropped when the gate is off
        out += fully_qualified_name(attribute, (*path, "defaultPartitionTypeAttribute"), b)
    return out
