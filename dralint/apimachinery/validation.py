"""apimachinery's string validators (``k8s.io/apimachinery/pkg/util/validation``) with their messages.

Each ``*_errors`` function takes a string and returns apimachinery's messages for it, in its
order (empty when the string is valid). The API server's field checks
(``validate/apiserver/formats.py``) and Kubernetes' CEL format library both build on them.
"""

from __future__ import annotations

import re

__all__ = [
    "C_IDENTIFIER_FMT",
    "DNS1123_LABEL_MAX_LENGTH",
    "DNS1123_SUBDOMAIN_FMT",
    "DNS1123_SUBDOMAIN_MAX_LENGTH",
    "c_identifier_errors",
    "dns1035_label_errors",
    "dns1123_label_errors",
    "dns1123_subdomain_errors",
    "label_value_errors",
    "mask_trailing_dash",
    "max_len_error",
    "qualified_name_errors",
]

DNS1123_LABEL_MAX_LENGTH = 63
DNS1123_SUBDOMAIN_MAX_LENGTH = 253
DNS1035_LABEL_MAX_LENGTH = 63
QUALIFIED_NAME_MAX_LENGTH = 63
LABEL_VALUE_MAX_LENGTH = 63

DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + r"(\." + DNS1123_LABEL_FMT + ")*"
DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?"
C_IDENTIFIER_FMT = "[A-Za-z_][A-Za-z0-9_]*"
QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?"

_DNS1123_LABEL = re.compile(DNS1123_LABEL_FMT)
_DNS1123_SUBDOMAIN = re.compile(DNS1123_SUBDOMAIN_FMT)
_DNS1035_LABEL = re.compile(DNS1035_LABEL_FMT)
_C_IDENTIFIER = re.compile(C_IDENTIFIER_FMT)
_QUALIFIED_NAME = re.compile(QUALIFIED_NAME_FMT)
_LABEL_VALUE = re.compile(LABEL_VALUE_FMT)


def regex_error(message: str, fmt: str, *examples: str) -> str:
    """``RegexError`` (the two spaces in ``,  or`` are apimachinery's)."""
    if examples:
        shown = ",  or ".join(f"'{e}'" for e in examples)
        return f"{message} (e.g. {shown}, regex used for validation is '{fmt}')"
    return f"{message} (regex used for validation is '{fmt}')"


def max_len_error(length: int) -> str:
    """``MaxLenError``."""
    return f"must be no more than {length} characters"


_DNS1123_LABEL_MESSAGE = regex_error(
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character",
    DNS1123_LABEL_FMT,
    "my-name",
    "123-abc",
)
_DNS1123_SUBDOMAIN_MESSAGE = regex_error(
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character",
    DNS1123_SUBDOMAIN_FMT,
    "example.com",
)
_DNS1035_LABEL_MESSAGE = regex_error(
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
    "character, and end with an alphanumeric character",
    DNS1035_LABEL_FMT,
    "my-name",
    "abc-123",
)
_C_IDENTIFIER_MESSAGE = regex_error(
    "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "
    "characters or '_'",
    C_IDENTIFIER_FMT,
    "my_name",
    "MY_NAME",
    "MyName",
)
_QUALIFIED_NAME_MESSAGE = regex_error(
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    QUALIFIED_NAME_FMT,
    "MyName",
    "my.name",
    "123-abc",
)
_LABEL_VALUE_MESSAGE = regex_error(
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character",
    LABEL_VALUE_FMT,
    "MyValue",
    "my_value",
    "12345",
)


def _bounded(value: str, limit: int, pattern: re.Pattern[str], message: str) -> list[str]:
    errors = [max_len_error(limit)] if len(value) > limit else []
    if not pattern.fullmatch(value):
        errors.append(message)
    return errors


def dns1123_label_errors(value: str) -> list[str]:
    """``IsDNS1123Label``."""
    return _bounded(value, DNS1123_LABEL_MAX_LENGTH, _DNS1123_LABEL, _DNS1123_LABEL_MESSAGE)


def dns1123_subdomain_errors(value: str) -> list[str]:
    """``IsDNS1123Subdomain``."""
    return _bounded(value, DNS1123_SUBDOMAIN_MAX_LENGTH, _DNS1123_SUBDOMAIN, _DNS1123_SUBDOMAIN_MESSAGE)


def dns1035_label_errors(value: str) -> list[str]:
    """``IsDNS1035Label``."""
    return _bounded(value, DNS1035_LABEL_MAX_LENGTH, _DNS1035_LABEL, _DNS1035_LABEL_MESSAGE)


def label_value_errors(value: str) -> list[str]:
    """``IsValidLabelValue``."""
    return _bounded(value, LABEL_VALUE_MAX_LENGTH, _LABEL_VALUE, _LABEL_VALUE_MESSAGE)


def c_identifier_errors(value: str) -> list[str]:
    """``IsCIdentifier`` (no length limit of its own)."""
    return [] if _C_IDENTIFIER.fullmatch(value) else [_C_IDENTIFIER_MESSAGE]


def qualified_name_errors(value: str) -> list[str]:
    """``IsQualifiedName``: label keys, annotation keys, taint keys."""
    errors: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            errors.extend("prefix part " + m for m in dns1123_subdomain_errors(prefix))
    else:
        return [
            "a qualified name "
            + _QUALIFIED_NAME_MESSAGE
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errors.append("name part must be non-empty")
    elif len(name) > QUALIFIED_NAME_MAX_LENGTH:
        errors.append("name part " + max_len_error(QUALIFIED_NAME_MAX_LENGTH))
    if not _QUALIFIED_NAME.fullmatch(name):  # an empty name gets this message too, as upstream
        errors.append("name part " + _QUALIFIED_NAME_MESSAGE)
    return errors


def mask_trailing_dash(name: str) -> str:
    """``maskTrailingDash``, applied to name prefixes (``generateName``) before validating them.

    Upstream replaces the last *two* characters with ``a``; the port keeps that quirk.
    """
    if len(name) > 1 and name.endswith("-"):
        return name[:-2] + "a"
    return name
