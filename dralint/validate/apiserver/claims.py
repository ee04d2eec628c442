"""ResourceClaim and ResourceClaimTemplate spec validation (spec/api.md §3.1, §3.3).

Requests (``exactly`` or ``firstAvailable``), sub-requests, selectors, allocation modes,
tolerations, derived attributes, constraints and configuration, as ``validateDeviceClaim``
checks them, with the release differences of :class:`Behaviour`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.api import read
from dralint.apimachinery.fieldpath import Path
from dralint.suggest import did_you_mean
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.errors import (
    CEL_TOO_LONG,
    ONE_OF,
    REQUEST_REFERENCE,
    FieldError,
    invalid,
    not_supported,
    required,
    too_long,
)
from dralint.validate.apiserver.formats import (
    dns_label,
    dns_subdomain,
    driver_name,
    fully_qualified_name,
    label_name,
    label_value,
    raw_extension,
)
from dralint.validate.apiserver.lists import check_list, check_set

MAX_REQUESTS = 32
MAX_CONSTRAINTS = 32
MAX_CONFIG = 32
MAX_SELECTORS = 32
MAX_SUBREQUESTS = 8
MAX_DERIVED_ATTRIBUTES = 32
CEL_MAX_LENGTH = 10240
ALLOCATION_MODES = ("All", "ExactCount")
TOLERATION_OPERATORS = ("Equal", "Exists")
REQUEST_REFERENCE_MESSAGE = (
    "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"
)
LEGACY_REQUEST_REFERENCE_MESSAGE = "must be the name of a request in the claim"


class RequestNames:
    """The claim's requests and their sub-requests (``gatherRequestNames``)."""

    def __init__(self, requests: list[Any]) -> None:
        self.subrequests: dict[str, set[str] | None] = {}
        for request in requests:
            name = read.text(request, "name")
            entries = read.items(request, "firstAvailable")
            self.subrequests[name] = {read.text(e, "name") for e in entries} if entries else None

    def has(self, reference: str) -> bool:
        segments = reference.split("/")
        if len(segments) > 2 or segments[0] not in self.subrequests:
            return False
        if len(segments) == 1:
            return True
        subs = self.subrequests[segments[0]]
        return subs is not None and segments[1] in subs

    def all_references(self) -> list[str]:
        out = []
        for name, subs in self.subrequests.items():
            out.append(name)
            out.extend(f"{name}/{sub}" for sub in sorted(subs or ()))
        return out


def claim_spec(spec: Any, path: Path, b: Behaviour) -> list[FieldError]:
    """``validateResourceClaimSpec`` for a claim's (or a template's inner) spec at ``path``."""
    out: list[FieldError] = []
    controller = read.opt_text(spec, "controller")  # classic DRA, 1.31 with DRAControlPlaneController
    if controller:
        out += dns_subdomain(controller, (*path, "controller"))
    devices = read.mapping(spec, "devices")
    if devices is None:
        return out
    devices_path = (*path, "devices")
    requests = read.items(devices, "requests")
    names = RequestNames(requests)
    constraints = read.items(devices, "constraints")
    constraint_attributes = _constraint_attributes(constraints)
    out += check_set(
        requests,
        MAX_REQUESTS,
        lambda request, at: _request(request, at, b, constraint_attributes),
        lambda request: read.opt_text(request, "name"),
        (*devices_path, "requests"),
        b,
        too_many_hint="a claim can have at most 32 requests; split it into several claims",
        duplicate_hint="give every request a unique name",
    )
    out += check_list(
        constraints, MAX_CONSTRAINTS, lambda c, at: _constraint(c, at, names, b), (*devices_path, "constraints"), b
    )
    out += check_list(
        read.items(devices, "config"),
        MAX_CONFIG,
        lambda c, at: _claim_config(c, at, names, b),
        (*devices_path, "config"),
        b,
    )
    return out


def _request(request: Any, path: Path, b: Behaviour, attributes: dict[str, set[str]]) -> list[FieldError]:
    name = read.text(request, "name")
    out = dns_label(name, (*path, "name"))
    exactly = read.mapping(request, "exactly")
    entries = read.items(request, "firstAvailable")
    if b.flat_requests:
        # Up to 1.32 the request itself is the exact request (v1alpha3/v1beta1 only).
        return out + _exact(exactly or {}, (*path, "exactly") if exactly is not None else path, b, name, attributes)
    if not entries and exactly is None:
        out.append(
            required(
                path,
                "exactly one of `exactly` or `firstAvailable` is required",
                kind=ONE_OF,
                hint="add `exactly:` with a deviceClassName, or a `firstAvailable:` list of alternatives",
            )
        )
    elif entries and exactly is not None:
        out.append(
            invalid(
                path,
                None,
                "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set",
                kind=ONE_OF,
                hint="keep either `exactly` or `firstAvailable`",
            )
        )
    elif entries:
        out += check_set(
            entries,
            MAX_SUBREQUESTS,
            lambda sub, at: _subrequest(sub, at, b, name, attributes),
            lambda sub: read.opt_text(sub, "name"),
            (*path, "firstAvailable"),
            b,
            too_many_hint="a request can list at most 8 alternatives",
            duplicate_hint="give every alternative of the request a unique name",
        )
    elif exactly is not None:
        out += _exact(exactly, (*path, "exactly"), b, name, attributes)
    return out


def _exact(
    exactly: Mapping[str, Any], path: Path, b: Behaviour, request: str, attributes: dict[str, set[str]]
) -> list[FieldError]:
    out = device_class_name(read.text(exactly, "deviceClassName"), (*path, "deviceClassName"))
    out += selectors(read.items(exactly, "selectors"), (*path, "selectors"), b)
    out += _derived_attributes(
        read.items(exactly, "derivedAttributes"), (*path, "derivedAttributes"), b, request, attributes
    )
    out += _allocation_mode(exactly, path)
    out += _tolerations(exactly, path, b)
    return out


def _subrequest(sub: Any, path: Path, b: Behaviour, parent: str, attributes: dict[str, set[str]]) -> list[FieldError]:
    name = read.text(sub, "name")
    out = dns_label(name, (*path, "name"))
    out += device_class_name(read.text(sub, "deviceClassName"), (*path, "deviceClassName"))
    out += selectors(read.items(sub, "selectors"), (*path, "selectors"), b)
    out += _derived_attributes(
        read.items(sub, "derivedAttributes"), (*path, "derivedAttributes"), b, f"{parent}/{name}", attributes
    )
    out += _allocation_mode(sub, path)
    out += _tolerations(sub, path, b)
    return out


def device_class_name(name: str, path: Path) -> list[FieldError]:
    if not name:
        return [required(path, hint="set deviceClassName to the DeviceClass to allocate devices from")]
    return dns_subdomain(name, path)


def selectors(items: list[Any], path: Path, b: Behaviour) -> list[FieldError]:
    """A selector list (claims and classes): at most 32, each with a ``cel`` of bounded length."""
    return check_list(items, MAX_SELECTORS, lambda s, at: _selector(s, at, b), path, b)


def _selector(selector: Any, path: Path, b: Behaviour) -> list[FieldError]:
    cel = read.mapping(selector, "cel")
    if cel is None:
        return [required((*path, "cel"), hint="write the selector as `cel: {expression: ...}`")]
    return cel_expression_length(read.text(cel, "expression"), (*path, "cel", "expression"), b)


def cel_expression_length(expression: str, path: Path, b: Behaviour) -> list[FieldError]:
    """CEL-2: expressions longer than 10 KiB are rejected before compiling (compiling is the CEL check's)."""
    if len(expression.encode()) > CEL_MAX_LENGTH:
        return [
            too_long(
                path,
                CEL_MAX_LENGTH,
                kind=CEL_TOO_LONG,
                hint="shorten the expression: split it into several selectors (they are ANDed)",
                legacy=b.legacy_too_long,
            )
        ]
    return []


def _allocation_mode(request: Mapping[str, Any], path: Path) -> list[FieldError]:
    mode = read.text(request, "allocationMode")
    count = read.integer(request, "count")
    if mode == "All":
        if count:
            return [
                invalid(
                    (*path, "count"),
                    count,
                    "must not be specified when allocationMode is 'All'",
                    hint="remove count, or use allocationMode: ExactCount",
                )
            ]
    elif mode == "ExactCount":
        if count is not None and count <= 0:
            return [invalid((*path, "count"), count, "must be greater than zero", hint="request at least one device")]
    else:
        return [not_supported((*path, "allocationMode"), mode, ALLOCATION_MODES)]
    return []


def _tolerations(request: Mapping[str, Any], path: Path, b: Behaviour) -> list[FieldError]:
    out: list[FieldError] = []
    for index, toleration in enumerate(read.items(request, "tolerations")):
        out += toleration_errors(toleration, (*path, "tolerations", index), b)
    return out


def toleration_errors(toleration: Any, path: Path, b: Behaviour) -> list[FieldError]:
    """``validateDeviceToleration`` (requests, sub-requests and allocation results)."""
    out: list[FieldError] = []
    key = read.text(toleration, "key")
    if key:
        out += label_name(key, (*path, "key"))
    operator = read.text(toleration, "operator")
    value = read.text(toleration, "value")
    if operator == "Exists":
        if value:
            out.append(
                invalid(
                    (*path, "value"),
                    value,
                    "must be empty for operator `Exists`",
                    hint="remove the value, or use operator: Equal",
                )
            )
    elif operator == "Equal":
        out += label_value(value, (*path, "value"))
    elif not operator:
        out.append(required((*path, "operator"), hint="set operator to Equal or Exists"))
    else:
        out.append(not_supported((*path, "operator"), operator, TOLERATION_OPERATORS))
    effect = read.text(toleration, "effect")
    if effect and effect not in b.taint_effects:
        out.append(not_supported((*path, "effect"), effect, b.taint_effects))
    return out


def _constraint_attributes(constraints: list[Any]) -> dict[str, set[str]]:
    """``gatherConstraintAttributes``: attribute names per targeted request (``""``: every request)."""
    out: dict[str, set[str]] = {}
    for constraint in constraints:
        name = read.opt_text(constraint, "matchAttribute")
        if name is None:
            name = read.opt_text(constraint, "distinctAttribute")
        if name is None:
            continue
        targets = [r for r in read.items(constraint, "requests") if isinstance(r, str)] or [""]
        for target in targets:
            out.setdefault(target, set()).add(name)
    return out


def _derived_attributes(
    items: list[Any], path: Path, b: Behaviour, request: str, attributes: dict[str, set[str]]
) -> list[FieldError]:
    return check_set(
        items,
        MAX_DERIVED_ATTRIBUTES,
        lambda attr, at: _derived_attribute(attr, at, b, request, attributes),
        lambda attr: read.opt_text(attr, "name"),
        path,
        b,
        name_field=None,
        duplicate_hint="give every derived attribute of the request a unique name",
    )


def _derived_attribute(
    attr: Any, path: Path, b: Behaviour, request: str, attributes: dict[str, set[str]]
) -> list[FieldError]:
    out: list[FieldError] = []
    name = read.text(attr, "name")
    if not name:
        out.append(required((*path, "name"), hint="name the derived attribute, e.g. `example.com/numa`"))
    else:
        out += fully_qualified_name(name, (*path, "name"), b)
        parent = request.partition("/")[0]
        used = any(name in attributes.get(key, ()) for key in ("", request, parent))
        if not used:
            out.append(
                invalid(
                    (*path, "name"),
                    name,
                    "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting "
                    "this request",
                    hint=f"add a constraint with `matchAttribute: {name}` (or distinctAttribute) for this request",
                )
            )
    expression = read.text(attr, "expression")
    if not expression:
        out.append(required((*path, "expression"), hint="write the CEL expression that computes the attribute"))
    else:
        out += cel_expression_length(expression, (*path, "expression"), b)
    return out


def _constraint(constraint: Any, path: Path, names: RequestNames, b: Behaviour) -> list[FieldError]:
    out = request_references(read.items(constraint, "requests"), (*path, "requests"), names, b)
    match = read.opt_text(constraint, "matchAttribute")
    distinct = read.opt_text(constraint, "distinctAttribute")
    if match is not None:
        out += fully_qualified_name(match, (*path, "matchAttribute"), b)
    elif distinct is not None:
        out += fully_qualified_name(distinct, (*path, "distinctAttribute"), b)
    elif b.enabled("DRAConsumableCapacity"):
        out.append(
            required(
                path,
                'exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set',
                kind=ONE_OF,
                hint="set matchAttribute (same value on all devices) or distinctAttribute (different values)",
            )
        )
    else:
        out.append(required((*path, "matchAttribute"), hint="name the attribute whose value must match"))
    return out


def _claim_config(config: Any, path: Path, names: RequestNames, b: Behaviour) -> list[FieldError]:
    out = request_references(read.items(config, "requests"), (*path, "requests"), names, b)
    return out + opaque_config(config, path, b)


def opaque_config(config: Any, path: Path, b: Behaviour) -> list[FieldError]:
    """``validateDeviceConfiguration``: an ``opaque`` block with a driver and JSON-object parameters."""
    opaque = read.mapping(config, "opaque")
    if opaque is None:
        return [required((*path, "opaque"), hint="add `opaque: {driver: ..., parameters: {...}}`")]
    out = driver_name(read.text(opaque, "driver"), (*path, "opaque", "driver"), b)
    return out + raw_extension("parameters" in opaque, opaque.get("parameters"), (*path, "opaque", "parameters"), b)


def request_references(refs: list[Any], path: Path, names: RequestNames, b: Behaviour) -> list[FieldError]:
    """A ``requests`` list of constraints and config: unique, at most 32, each naming a request."""
    return check_set(
        refs,
        MAX_REQUESTS,
        lambda ref, at: request_reference(ref if isinstance(ref, str) else "", at, names, b),
        lambda ref: ref if isinstance(ref, str) else None,
        path,
        b,
        name_field=None,
        duplicate_hint="name every request once",
    )


def request_reference(ref: str, path: Path, names: RequestNames, b: Behaviour) -> list[FieldError]:
    """FMT-REQREF: ``<request>`` or ``<request>/<subrequest>`` of this claim."""
    hint = did_you_mean(ref, names.all_references()) or "name a request of this claim (or `<request>/<subrequest>`)"
    if b.flat_requests:
        if names.has(ref) and "/" not in ref:
            return []
        return [invalid(path, ref, LEGACY_REQUEST_REFERENCE_MESSAGE, kind=REQUEST_REFERENCE, hint=hint)]
    segments = ref.split("/")
    if len(segments) > 2:
        return [invalid(path, ref, REQUEST_REFERENCE_MESSAGE, kind=REQUEST_REFERENCE, hint=hint)]
    out: list[FieldError] = []
    for segment in segments:
        out += dns_label(segment, path)
    if not names.has(ref):
        out.append(invalid(path, ref, REQUEST_REFERENCE_MESSAGE, kind=REQUEST_REFERENCE, hint=hint))
    return out
