"""The API server's format checks shared by all DRA kinds (spec/api.md §3.0, FMT-*).

DNS labels and subdomains, driver and pool names, C identifiers, qualified and fully
qualified names, label keys and values, UUIDs, node names, node selectors, opaque JSON
parameters, semantic versions and extended resource names, each with apimachinery's exact
messages. Every check returns a list of :class:`FieldError` (empty when valid).
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from dralint.api import read
from dralint.apimachinery.fieldpath import Path
from dralint.apimachinery.validation import (
    C_IDENTIFIER_FMT,
    DNS1123_LABEL_MAX_LENGTH,
    DNS1123_SUBDOMAIN_FMT,
    DNS1123_SUBDOMAIN_MAX_LENGTH,
    c_identifier_errors,
    dns1123_label_errors,
    dns1123_subdomain_errors,
    label_value_errors,
    qualified_name_errors,
)
from dralint.regex import compiled_on_first_use
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.errors import (
    MALFORMED,
    FieldError,
    forbidden,
    invalid,
    required,
    too_long,
)

DRIVER_NAME_MAX = 63
POOL_NAME_MAX = 253
C_IDENTIFIER_MAX = 32

# A qualified name that passes every FMT-QNAME check (lengths aside): [lower-cased subdomain/]C identifier.
_valid_qualified_re = compiled_on_first_use(f"((?i:{DNS1123_SUBDOMAIN_FMT})/)?{C_IDENTIFIER_FMT}")

_NUMERIC = r"(0|[1-9]\d*)"
_PRERELEASE = r"(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
_BUILD = r"[0-9a-zA-Z-]+"
_semver_re = compiled_on_first_use(
    rf"{_NUMERIC}\.{_NUMERIC}\.{_NUMERIC}(-{_PRERELEASE}(\.{_PRERELEASE})*)?(\+{_BUILD}(\.{_BUILD})*)?"
)

_DNS_CHARS = re.compile(r"[^a-z0-9-]+")
_SUBDOMAIN_CHARS = re.compile(r"[^a-z0-9.-]+")


def suggest_label(value: str) -> str:
    """A DNS label close to ``value`` (``GPU_Claim`` → ``gpu-claim``), for hints."""
    text = _DNS_CHARS.sub("-", value.lower()).strip("-")[:DNS1123_LABEL_MAX_LENGTH].strip("-")
    return text or "my-name"


def suggest_subdomain(value: str) -> str:
    text = _SUBDOMAIN_CHARS.sub("-", value.lower())
    parts = [p.strip("-") for p in text.split(".")]
    text = ".".join(p for p in parts if p)[:DNS1123_SUBDOMAIN_MAX_LENGTH].strip("-.")
    return text or "example.com"


def is_semver(value: str) -> bool:
    return bool(_semver_re().fullmatch(value))


def is_extended_resource_name(name: str) -> bool:
    """``v1helper.IsExtendedResourceName``: ``domain/name``, not native, valid as ``requests.<name>``."""
    if "/" not in name or "kubernetes.io/" in name or name.startswith("requests."):
        return False
    return not qualified_name_errors("requests." + name)


# --- field checks ----------------------------------------------------------------------------


def dns_label(value: str, path: Path, *, hint: str | None = None) -> list[FieldError]:
    """``ValidateDNS1123Label``: one ``Invalid value`` per failed rule."""
    messages = dns1123_label_errors(value)
    if not messages:
        return []
    hint = hint or f"use at most 63 lower-case letters, digits and '-', e.g. `{suggest_label(value)}`"
    return [invalid(path, value, m, kind=MALFORMED, hint=hint) for m in messages]


def dns_subdomain(value: str, path: Path, *, hint: str | None = None) -> list[FieldError]:
    """``ValidateDNS1123Subdomain``."""
    messages = dns1123_subdomain_errors(value)
    if not messages:
        return []
    hint = hint or f"use lower-case letters, digits, '-' and '.', e.g. `{suggest_subdomain(value)}`"
    return [invalid(path, value, m, kind=MALFORMED, hint=hint) for m in messages]


def driver_name(value: str, path: Path, b: Behaviour) -> list[FieldError]:
    """``ValidateCSIDriverName``: required, at most 63 bytes, a DNS subdomain ignoring case."""
    if not value:
        return [required(path, hint="set the driver name, e.g. `gpu.example.com`")]
    if len(value) <= DRIVER_NAME_MAX and not dns1123_subdomain_errors(value.lower()):
        return []
    example = suggest_subdomain(value)[:DRIVER_NAME_MAX].strip("-.")
    hint = f"a driver name is a DNS subdomain of at most 63 characters, e.g. `{example}`"
    out = []
    if len(value.encode()) > DRIVER_NAME_MAX:
        out.append(too_long(path, DRIVER_NAME_MAX, kind=MALFORMED, hint=hint, legacy=b.legacy_too_long))
    out.extend(invalid(path, value, m, kind=MALFORMED, hint=hint) for m in dns1123_subdomain_errors(value.lower()))
    return out


def pool_name(value: str, path: Path, b: Behaviour) -> list[FieldError]:
    """FMT-POOL: required, at most 253 bytes, ``/``-separated DNS subdomains."""
    if not value:
        return [required(path, hint="set the pool name (often the node name)")]
    hint = "a pool name is one or more DNS subdomains separated by '/', at most 253 characters"
    out = []
    if len(value.encode()) > POOL_NAME_MAX:
        out.append(too_long(path, POOL_NAME_MAX, kind=MALFORMED, hint=hint, legacy=b.legacy_too_long))
    for part in value.split("/"):
        out.extend(invalid(path, part, m, kind=MALFORMED, hint=hint) for m in dns1123_subdomain_errors(part))
    return out


def c_identifier(value: str, path: Path, b: Behaviour, *, at: Path | None = None) -> list[FieldError]:
    hint = "a name is a C identifier of at most 32 characters: letters, digits and '_', not starting with a digit"
    out = []
    if len(value.encode()) > C_IDENTIFIER_MAX:
        out.append(too_long(path, C_IDENTIFIER_MAX, kind=MALFORMED, hint=hint, legacy=b.legacy_too_long))
    out.extend(invalid(path, value, m, kind=MALFORMED, hint=hint, at=at) for m in c_identifier_errors(value))
    return [_at(e, at) for e in out] if at is not None else out


def _qualified_lengths_ok(value: str) -> bool:
    domain, _, name = value.rpartition("/")
    return len(domain) <= DRIVER_NAME_MAX and len(name) <= C_IDENTIFIER_MAX


def _at(error: FieldError, at: Path) -> FieldError:
    return replace(error, at=at)


def qualified_name(value: str, path: Path, b: Behaviour, *, at: Path | None = None) -> list[FieldError]:
    """FMT-QNAME: ``<C identifier>`` or ``<driver-style domain>/<C identifier>``."""
    if _valid_qualified_re().fullmatch(value) and _qualified_lengths_ok(value):
        return []  # the common case, decided without building any message
    hint = "write `<domain>/<name>` (e.g. `gpu.example.com/model`) or a bare C identifier such as `model`"
    parts = value.split("/")
    out: list[FieldError] = []
    if len(parts) == 1:
        if b.legacy_qualified_names and not value:
            out.append(required(path, "name required", kind=MALFORMED, hint=hint))
        else:
            out.extend(c_identifier(value, path, b))
    elif len(parts) == 2:
        domain, name = parts
        for part, what in ((domain, "domain"), (name, "name")):
            if part:
                out.extend(driver_name(part, path, b) if what == "domain" else c_identifier(part, path, b))
            elif b.legacy_qualified_names:
                out.append(required(path, f"the {what} must not be empty", kind=MALFORMED, hint=hint))
            else:
                out.append(invalid(path, "", f"the {what} must not be empty", kind=MALFORMED, hint=hint))
    elif b.reject_multi_slash:
        out.append(invalid(path, value, "must not contain more than one slash", kind=MALFORMED, hint=hint))
    # Before 1.37 the API server silently accepted names with more than one slash.
    return [_at(e, at) for e in out] if at is not None else out


def fully_qualified_name(value: str, path: Path, b: Behaviour) -> list[FieldError]:
    """FMT-FQNAME: a qualified name that must have a domain."""
    out = qualified_name(value, path, b)
    if "/" not in value:
        detail = (
            "must include a domain"
            if b.legacy_qualified_names
            else ("a fully qualified name must be a domain and a name separated by a slash")
        )
        out.append(
            invalid(path, value, detail, kind=MALFORMED, hint=f"add the domain, e.g. `example.com/{value or 'name'}`")
        )
    return out


def label_name(value: str, path: Path, *, hint: str | None = None) -> list[FieldError]:
    """``ValidateLabelName``: a qualified name with an optional DNS-subdomain prefix."""
    hint = hint or "use `[prefix/]name` with a name of at most 63 letters, digits, '-', '_' or '.'"
    return [invalid(path, value, m, kind=MALFORMED, hint=hint) for m in qualified_name_errors(value)]


def label_value(value: str, path: Path) -> list[FieldError]:
    hint = "use at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
    return [invalid(path, value, m, kind=MALFORMED, hint=hint) for m in label_value_errors(value)]


def uid(value: str, path: Path) -> list[FieldError]:
    """FMT-UUID: a lower-case RFC 4122 UUID in its 36-character form."""
    hint = "use a lower-case UUID such as `123e4567-e89b-12d3-a456-426614174000`"
    problem = _uuid_problem(value)
    if problem is not None:
        return [invalid(path, value, f"error validating uid: {problem}", kind=MALFORMED, hint=hint)]
    if len(value) != 36 or value != value.lower():
        return [
            invalid(
                path,
                value,
                "uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase "
                "hexadecimal characters",
                kind=MALFORMED,
                hint=hint,
            )
        ]
    return []


_HEX = frozenset("0123456789abcdefABCDEF")


def _uuid_problem(value: str) -> str | None:
    """``uuid.Validate`` from github.com/google/uuid."""
    text = value
    if len(text) == 36 + 9:
        if text[:9].lower() != "urn:uuid:":
            return f"invalid urn prefix: {json.dumps(text[:9])}"
        text = text[9:]
    elif len(text) == 36 + 2:
        text = text[1:]
    elif len(text) == 32:
        return None if all(c in _HEX for c in text) else "invalid UUID format"
    elif len(text) != 36:
        return f"invalid UUID length: {len(text)}"
    if len(text) == 36:
        if any(text[i] != "-" for i in (8, 13, 18, 23)):
            return "invalid UUID format"
        if any(c not in _HEX for i, c in enumerate(text) if i not in (8, 13, 18, 23)):
            return "invalid UUID format"
    return None


def node_name(value: str, path: Path) -> list[FieldError]:
    return dns_subdomain(value, path, hint="use the node's name as `kubectl get nodes` prints it")


def node_selector(data: Any, path: Path) -> list[FieldError]:
    """``ValidateNodeSelector``: at least one term; valid keys, operators and values per requirement."""
    terms_path = (*path, "nodeSelectorTerms")
    terms = data.get("nodeSelectorTerms") if isinstance(data, Mapping) else None
    if not isinstance(terms, list) or not terms:
        return [required(terms_path, "must have at least one node selector term", hint="add a node selector term")]
    out: list[FieldError] = []
    for i, term in enumerate(terms):
        term_path = (*terms_path, i)
        for j, req in enumerate(read.items(term, "matchExpressions")):
            out.extend(_node_requirement(req, (*term_path, "matchExpressions", j)))
        for j, req in enumerate(read.items(term, "matchFields")):
            out.extend(_node_field_requirement(req, (*term_path, "matchFields", j)))
    return out


def _node_requirement(req: Any, path: Path) -> list[FieldError]:
    operator = read.text(req, "operator")
    values = [v for v in read.items(req, "values") if isinstance(v, str)]
    out: list[FieldError] = []
    if operator in ("In", "NotIn"):
        if not values:
            out.append(
                required(
                    (*path, "values"),
                    "must be specified when `operator` is 'In' or 'NotIn'",
                    hint="list the label values to match",
                )
            )
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            out.append(
                forbidden((*path, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
            )
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            out.append(
                required(
                    (*path, "values"),
                    "must be specified single value when `operator` is 'Lt' or 'Gt'",
                    hint="give exactly one integer value",
                )
            )
    else:
        out.append(
            invalid(
                (*path, "operator"),
                operator,
                "not a valid selector operator",
                hint="use In, NotIn, Exists, DoesNotExist, Gt or Lt",
            )
        )
    out.extend(label_name(read.text(req, "key"), (*path, "key")))
    for index, value in enumerate(values):
        out.extend(label_value(value, (*path, "values", index)))
    return out


def _node_field_requirement(req: Any, path: Path) -> list[FieldError]:
    operator = read.text(req, "operator")
    values = [v for v in read.items(req, "values") if isinstance(v, str)]
    out: list[FieldError] = []
    if operator in ("In", "NotIn"):
        if len(values) != 1:
            out.append(
                required(
                    (*path, "values"),
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                )
            )
    else:
        out.append(invalid((*path, "operator"), operator, "not a valid selector operator", hint="use In or NotIn"))
    key = read.text(req, "key")
    if key != "metadata.name":
        out.append(invalid((*path, "key"), key, "not a valid field selector key", hint="use `metadata.name`"))
    else:
        for index, value in enumerate(values):
            out.extend(node_name(value, (*path, "values", index)))
    return out


def go_json_length(value: Any) -> int:
    """Bytes of ``value`` as kubectl sends it: compact JSON with Go's HTML escaping."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    extra = sum(5 for c in text if c in "<>&")  # Go writes \u003c etc.
    return len(text.encode()) + extra


def raw_extension(present: bool, value: Any, path: Path, b: Behaviour, *, limit: int = 10240) -> list[FieldError]:
    """FMT-RAW: opaque parameters (and status data) must be a JSON object of bounded size."""
    if not present or value is None:
        return [required(path, hint="set the driver's parameters object (use `{}` for none)")]
    if b.raw_max_bytes is not None and go_json_length(value) > limit:
        return [too_long(path, limit, hint="keep the parameters under 10 KiB, or move bulk data elsewhere")]
    if not isinstance(value, Mapping):
        detail = "parameters must be a valid JSON object" if b.release == "1.32" else "must be a valid JSON object"
        return [invalid(path, "<value omitted>", detail, hint="write the parameters as a mapping (a JSON object)")]
    return []


def interface_address(value: str, path: Path) -> list[FieldError]:
    """``IsValidInterfaceAddress``: an IP with prefix length, in canonical form."""
    hint = "write the address with its prefix length, e.g. `10.9.8.7/24`"
    try:
        interface = ipaddress.ip_interface(value)
    except ValueError:
        interface = None
    if interface is None or "/" not in value:
        return [
            invalid(
                path, value, "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)", hint=hint
            )
        ]
    expected = f"{interface.ip}/{interface.network.prefixlen}"
    if value != expected:
        return [invalid(path, value, f'must be in canonical form ("{expected}")', hint=f"write `{expected}`")]
    return []
