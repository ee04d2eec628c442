"""Kubernetes' CEL format library: ``format.dns1123Label().validate(s)`` and friends.

``validate`` returns ``optional.none()`` for a valid string and ``optional.of(errors)`` otherwise,
with apimachinery's validation messages.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from dralint.cel import runtime
from dralint.cel.decls import Environment, Overload
from dralint.cel.lib_net import URLError, parse_request_uri
from dralint.cel.types import STRING, list_of, object_type, optional_of
from dralint.cel.values import NONE, Optional

__all__ = ["FORMAT_TYPE", "NamedFormat", "install"]

FORMAT_TYPE = object_type("kubernetes.NamedFormat")

_DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN = rf"{_DNS1123_LABEL}(\.{_DNS1123_LABEL})*"
_DNS1035_LABEL = r"[a-z]([-a-z0-9]*[a-z0-9])?"
_QUALIFIED_NAME = r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_VALUE = r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?"
_UUID = r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$"
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?")


def _regex_error(message: str, fmt: str, *examples: str) -> str:
    shown = ",  or ".join(f"'{e}'" for e in examples)
    return f"{message} (e.g. {shown}, regex used for validation is '{fmt}')"


def _max_len(limit: int) -> str:
    return f"must be no more than {limit} characters"


def _dns1123_label(value: str) -> list[str]:
    errors = [_max_len(63)] if len(value) > 63 else []
    if not re.fullmatch(_DNS1123_LABEL, value):
        errors.append(
            _regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
                "start and end with an alphanumeric character",
                _DNS1123_LABEL,
                "my-name",
                "123-abc",
            )
        )
    return errors


def _dns1123_subdomain(value: str) -> list[str]:
    errors = [_max_len(253)] if len(value) > 253 else []
    if not re.fullmatch(_DNS1123_SUBDOMAIN, value):
        errors.append(
            _regex_error(
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                "and must start and end with an alphanumeric character",
                _DNS1123_SUBDOMAIN,
                "example.com",
            )
        )
    return errors


def _dns1035_label(value: str) -> list[str]:
    errors = [_max_len(63)] if len(value) > 63 else []
    if not re.fullmatch(_DNS1035_LABEL, value):
        errors.append(
            _regex_error(
                "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                "alphabetic character, and end with an alphanumeric character",
                _DNS1035_LABEL,
                "my-name",
                "abc-123",
            )
        )
    return errors


def _mask_trailing_dash(name: str) -> str:
    """apimachinery's ``maskTrailingDash`` (it replaces the last two characters)."""
    if len(name) > 1 and name.endswith("-"):
        return name[:-2] + "a"
    return name


def _qualified_name(value: str) -> list[str]:
    errors: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            errors.extend("prefix part " + e for e in _dns1123_subdomain(prefix))
    else:
        return [
            _regex_error(
                "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                "with an alphanumeric character",
                _QUALIFIED_NAME,
                "MyName",
                "my.name",
                "123-abc",
            )
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errors.append("name part must be non-empty")
    elif len(name) > 63:
        errors.append("name part " + _max_len(63))
    if name and not re.fullmatch(_QUALIFIED_NAME, name):
        errors.append(
            "name part "
            + _regex_error(
                "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                "alphanumeric character",
                _QUALIFIED_NAME,
                "MyName",
                "my.name",
                "123-abc",
            )
        )
    return errors


def _label_value(value: str) -> list[str]:
    errors = [_max_len(63)] if len(value) > 63 else []
    if not re.fullmatch(_LABEL_VALUE, value):
        errors.append(
            _regex_error(
                "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
                "must start and end with an alphanumeric character",
                _LABEL_VALUE,
                "MyValue",
                "my_value",
                "12345",
            )
        )
    return errors


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
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return ["invalid date"]
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return ["invalid date"]
    return []


def _datetime(value: str) -> list[str]:
    return [] if _DATETIME.fullmatch(value) else ["invalid datetime"]


@dataclass(frozen=True, slots=True)
class NamedFormat:
    name: str
    validate: Callable[[str], list[str]]
    max_regex_size: int
    cel_type: ClassVar[str] = "kubernetes.NamedFormat"


runtime.TYPE_NAMES[NamedFormat] = "kubernetes.NamedFormat"
runtime.STRICT_EQUAL[NamedFormat] = NamedFormat

FORMATS: dict[str, NamedFormat] = {
    "dns1123Label": NamedFormat("DNS1123Label", _dns1123_label, 30),
    "dns1123Subdomain": NamedFormat("DNS1123Subdomain", _dns1123_subdomain, 60),
    "dns1035Label": NamedFormat("DNS1035Label", _dns1035_label, 30),
    "qualifiedName": NamedFormat("QualifiedName", _qualified_name, 60),
    "dns1123LabelPrefix": NamedFormat("DNS1123LabelPrefix", lambda s: _dns1123_label(_mask_trailing_dash(s)), 30),
    "dns1123SubdomainPrefix": NamedFormat(
        "DNS1123SubdomainPrefix", lambda s: _dns1123_subdomain(_mask_trailing_dash(s)), 60
    ),
    "dns1035LabelPrefix": NamedFormat("DNS1035LabelPrefix", lambda s: _dns1035_label(_mask_trailing_dash(s)), 30),
    "labelValue": NamedFormat("LabelValue", _label_value, 40),
    "uri": NamedFormat("URI", _uri, 1103),
    "uuid": NamedFormat("uuid", lambda s: [] if re.match(_UUID, s) else ["does not match the UUID format"], 68),
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
    env.add("format.named", Overload("format-named", (STRING,), optional_of(FORMAT_TYPE), _named))
    env.add(
        "validate",
        Overload("format-validate", (FORMAT_TYPE, STRING), optional_of(list_of(STRING)), _validate, member=True),
    )
    for name, fmt in FORMATS.items():
        env.add(f"format.{name}", Overload(f"format.{name}", (), FORMAT_TYPE, lambda fmt=fmt: fmt))
