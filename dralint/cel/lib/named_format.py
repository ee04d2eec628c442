"""Kubernetes' CEL format library: ``format.dns1123Label().validate(s)`` and friends.

``validate`` returns ``optional.none()`` for a valid string and ``optional.of(errors)`` otherwise,
with apimachinery's validation messages (``dralint.apimachinery.validation``) for the Kubernetes name formats
and kube-openapi's checks for the others.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
from collections.abc import Callable

from dralint.apimachinery.validation import (
    dns1035_label_errors,
    dns1123_label_errors,
    dns1123_subdomain_errors,
    label_value_errors,
    mask_trailing_dash,
    qualified_name_errors,
)
from dralint.cel.checker.decls import Environment, Overload, VersionedOption
from dralint.cel.checker.types import STRING, list_of, object_type, optional_of
from dralint.cel.lib.net import URLError, parse_request_uri
from dralint.cel.pricing import Pricing
from dralint.cel.runtime import semantics as runtime
from dralint.cel.runtime.values import NONE, Optional
from dralint.dataclass import dataclass
from dralint.regex import compiled_on_first_use

__all__ = ["FORMAT_TYPE", "RELEASES", "NamedFormat", "install"]

FORMAT_TYPE = object_type("kubernetes.NamedFormat")

_uuid_re = compiled_on_first_use(r"(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")
_date_re = compiled_on_first_use(r"\d{4}-\d{2}-\d{2}")
_datetime_re = compiled_on_first_use(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?")


def _prefix(validate: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    """The ``...Prefix`` formats validate names that a generated suffix will complete."""
    return lambda value: validate(mask_trailing_dash(value))


def _uri(value: str) -> list[str]:
    try:
        parse_request_uri(value)
    except URLError as error:
        return [str(error)]
    return []


def _byte(value: str) -> list[str]:
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return ["invalid base64"]
    return []


def _date(value: str) -> list[str]:
    if not _date_re().fullmatch(value):
        return ["invalid date"]
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return ["invalid date"]
    return []


def _datetime(value: str) -> list[str]:
    return [] if _datetime_re().fullmatch(value) else ["invalid datetime"]


@dataclass(frozen=True, slots=True)
class NamedFormat:
    name: str
    validate: Callable[[str], list[str]]
    max_regex_size: int


runtime.TYPE_NAMES[NamedFormat] = "kubernetes.NamedFormat"
runtime.GO_TYPES[NamedFormat] = "*cel.Format"
runtime.STRICT_EQUAL[NamedFormat] = NamedFormat

FORMATS: dict[str, NamedFormat] = {
    "dns1123Label": NamedFormat("DNS1123Label", dns1123_label_errors, 30),
    "dns1123Subdomain": NamedFormat("DNS1123Subdomain", dns1123_subdomain_errors, 60),
    "dns1035Label": NamedFormat("DNS1035Label", dns1035_label_errors, 30),
    "qualifiedName": NamedFormat("QualifiedName", qualified_name_errors, 60),
    "dns1123LabelPrefix": NamedFormat("DNS1123LabelPrefix", _prefix(dns1123_label_errors), 30),
    "dns1123SubdomainPrefix": NamedFormat("DNS1123SubdomainPrefix", _prefix(dns1123_subdomain_errors), 60),
    "dns1035LabelPrefix": NamedFormat("DNS1035LabelPrefix", _prefix(dns1035_label_errors), 30),
    "labelValue": NamedFormat("LabelValue", label_value_errors, 40),
    "uri": NamedFormat("URI", _uri, 1103),
    "uuid": NamedFormat("uuid", lambda s: [] if _uuid_re().fullmatch(s) else ["does not match the UUID format"], 68),
    "byte": NamedFormat("byte", _byte, 84),
    "date": NamedFormat("date", _date, 136),
    "datetime": NamedFormat("datetime", _datetime, 136),
}


def _validate(fmt: NamedFormat, value: str) -> Optional:
    errors = fmt.validate(value)
    return Optional(True, errors) if errors else NONE


def _named(name: str) -> Optional:
    fmt = FORMATS.get(name)
    return Optional(True, fmt) if fmt is not None else NONE


def install(env: Environment) -> None:
    env.add("format.named", Overload("format-named", (STRING,), optional_of(FORMAT_TYPE), _named), pricing=Pricing.UNIT)
    env.add(
        "validate",
        Overload("format-validate", (FORMAT_TYPE, STRING), optional_of(list_of(STRING)), _validate, member=True),
        pricing=Pricing.VALIDATE,
    )
    for name, fmt in FORMATS.items():
        env.add(f"format.{name}", Overload(f"format.{name}", (), FORMAT_TYPE, lambda fmt=fmt: fmt))


# The release whose base environment introduced these declarations.
RELEASES = (VersionedOption("1.31", install),)
