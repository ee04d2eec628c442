"""YAML scalar values the way Kubernetes reads them: go-yaml v2 (YAML 1.1) resolution rules.

kubectl and the API server decode manifests with sigs.k8s.io/yaml, a fork of go-yaml v2, so
``yes``/``on`` are booleans, ``0777`` is octal, ``1_000`` is 1000, timestamps stay strings and
``1e400`` is a string (it overflows a float64). ruamel's YAML 1.2 rules differ on each of these,
which is why dralint resolves plain scalars itself.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import struct
from typing import Any

__all__ = ["TAG_PREFIX", "NumberText", "TagError", "int_text", "key_text", "resolve_plain", "resolve_tagged"]

TAG_PREFIX = "tag:yaml.org,2002:"

_BOOL = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE"), False),
}
_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_SPECIAL_FLOAT = {
    ".inf": math.inf, ".Inf": math.inf, ".INF": math.inf,
    "+.inf": math.inf, "+.Inf": math.inf, "+.INF": math.inf,
    "-.inf": -math.inf, "-.Inf": -math.inf, "-.INF": -math.inf,
    ".nan": math.nan, ".NaN": math.nan, ".NAN": math.nan,
}  # fmt: skip
# go-yaml's yamlStyleFloat; applied after underscores are removed.
_YAML_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
# strconv.ParseFloat on text starting with "." accepts exactly these (no underscores, no words).
_DOT_FLOAT = re.compile(r"\.[0-9]+([eE][-+]?[0-9]+)?")
_DIGITS = {
    16: re.compile("[0-9a-fA-F]+"),
    10: re.compile("[0-9]+"),
    8: re.compile("[0-7]+"),
    2: re.compile("[01]+"),
}
_NUMERIC_START = frozenset("0123456789+-")
_INT64 = (-(2**63), 2**63 - 1)
_UINT64_MAX = 2**64 - 1


# A decimal integer of more digits than this is out of range for 64 bits anyway; stopping here
# also keeps ``int()`` below Python's limit on converting long digit strings (4,300 digits).
_MAX_DECIMAL_DIGITS = 20
# The widest integer Python prints in decimal (it refuses more than 4,300 digits unless told
# otherwise, and printing is quadratic in the digits): 4,300 digits hold at least 14,281 bits.
_MAX_DECIMAL_BITS = 14_000
# Integers wider than this are shown by size, not digits: printing them in decimal is quadratic
# and hits the same Python limit.
_MAX_PRINTED_BITS = 256


class NumberText(str):
    """The text of an unquoted number that a float64 cannot hold (``1e999999``, 5,000 digits).

    go-yaml keeps such a scalar as a string, so it is one here too; the type remembers that the
    author wrote a number, so messages say "out of range" instead of "remove the quotes".
    """

    __slots__ = ()


def int_text(value: int) -> str:
    """``value`` in decimal, or its size when it is too wide to print (messages, keys)."""
    bits = abs(value).bit_length()
    if bits <= _MAX_PRINTED_BITS:
        return str(value)
    return f"{'-' if value < 0 else ''}<integer of {bits} bits>"


class TagError(ValueError):
    """An explicitly tagged scalar whose text does not fit the tag (``!!int abc``)."""


def resolve_plain(text: str) -> Any:
    """Value of a plain (unquoted, untagged) scalar, as go-yaml v2 resolves it."""
    if text in _BOOL:
        return _BOOL[text]
    if text in _NULL:
        return None
    if not text:
        return text
    first = text[0]
    if first == ".":
        if text in _SPECIAL_FLOAT:
            return _SPECIAL_FLOAT[text]
        if _DOT_FLOAT.fullmatch(text):
            return _finite_float(text, text)
        return text
    if first not in _NUMERIC_START:
        return text
    if text in _SPECIAL_FLOAT:
        return _SPECIAL_FLOAT[text]
    return _number(text)


def _number(text: str) -> Any:
    """Int, float or the text itself, for text starting with a digit or a sign (go-yaml's 'D'/'S' hint)."""
    plain = text.replace("_", "")
    value, _ = _parse_int(plain, signed=True)
    if value is not None:
        return value
    value, unsigned_error = _parse_int(plain, signed=False)
    if value is not None:
        return value
    if _YAML_FLOAT.fullmatch(plain):
        return _finite_float(plain, text)
    if unsigned_error == "range":  # a hexadecimal/octal/binary literal beyond 64 bits: a big integer
        wide, _ = _parse_int(plain, signed=False, bits=None)
        # ... unless Python could not print it in decimal: then, as a decimal literal of as many
        # digits, a number out of range kept as its text (nothing downstream meets an integer it
        # cannot show in a message or a report).
        if wide is not None and wide.bit_length() <= _MAX_DECIMAL_BITS:
            return wide
        return NumberText(text)
    return text


def _finite_float(number: str, text: str) -> Any:
    """strconv.ParseFloat: an overflow is an error, and go-yaml then keeps the text."""
    value = float(number)
    return NumberText(text) if math.isinf(value) else value


def _parse_int(text: str, *, signed: bool, bits: int | None = 64) -> tuple[int | None, str | None]:
    """strconv.ParseInt/ParseUint(text, 0, 64): (value, None) or (None, "syntax" | "range")."""
    body, sign = text, 1
    if signed and body[:1] in ("+", "-"):
        sign = -1 if body[0] == "-" else 1
        body = body[1:]
    if len(body) > 1 and body[0] == "0":
        prefix = body[1]
        base = {"x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2}.get(prefix, 8)
        digits = body[2:] if prefix in "xXoObB" else body[1:]
    else:
        base, digits = 10, body
    if not _DIGITS[base].fullmatch(digits):
        return None, "syntax"
    if base == 10 and len(digits) > _MAX_DECIMAL_DIGITS:
        return None, "range"
    value = sign * int(digits, base)
    if bits is None:
        return value, None
    low, high = _INT64 if signed else (0, _UINT64_MAX)
    if not low <= value <= high:
        return None, "range"
    return value, None


def resolve_tagged(tag: str, text: str) -> Any:
    """Value of a scalar with an explicit tag (``!!str 5``, ``!!int "3"``, ``!custom x``).

    Tags outside the YAML core schema leave the text as it is; a core tag whose text does not
    fit raises :class:`TagError` with go-yaml's message.
    """
    if not tag.startswith(TAG_PREFIX):
        return text  # local tags (!foo): go-yaml keeps the text
    short = tag[len(TAG_PREFIX) :]
    if short in ("str", "timestamp"):
        return text
    if short == "binary":
        try:
            return base64.b64decode(text.encode("ascii", "replace"), validate=False).decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            raise TagError("!!binary value contains invalid base64 data") from None
    value = resolve_plain(text)
    if short == "null" and value is None:
        return None
    if short == "bool" and isinstance(value, bool):
        return value
    if short == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if short == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:  # a 64-bit-plus hexadecimal integer: no float64 holds it
            raise TagError(f"cannot decode !!int `{text[:40]}` as a !!float: out of range") from None
    if short not in ("null", "bool", "int", "float"):
        return text  # other yaml.org tags (!!map on a scalar, !!merge, ...): not resolvable, text kept
    raise TagError(f"cannot decode {_short_tag(value)} `{text}` as a !!{short}")


def _short_tag(value: Any) -> str:
    if value is None:
        return "!!null"
    if isinstance(value, bool):
        return "!!bool"
    if isinstance(value, int):
        return "!!int"
    if isinstance(value, float):
        return "!!float"
    return "!!str"


def key_text(value: Any, text: str) -> str:
    """A mapping key as a string, as sigs.k8s.io/yaml turns YAML keys into JSON object keys.

    Integers and booleans are printed (``on:`` is the key ``"true"``), floats printed as Go
    prints a float32 (``1.50:`` is ``"1.5"``), ``null`` as ``"null"``.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value).bit_length() <= _MAX_PRINTED_BITS else text
    if isinstance(value, float):
        return _go_float32(value)
    if value is None:
        return "null"
    return text


def _go_float32(value: float) -> str:
    """``strconv.FormatFloat(value, 'g', -1, 32)`` with go-yaml's spellings of the specials."""
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    if value == 0:
        return "-0" if math.copysign(1, value) < 0 else "0"
    single = struct.unpack("f", struct.pack("f", value))[0]
    for precision in range(1, 10):  # the shortest digits that read back as the same float32
        mantissa, _, exponent = f"{single:.{precision - 1}e}".partition("e")
        if struct.unpack("f", struct.pack("f", float(f"{mantissa}e{exponent}")))[0] == single:
            break
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "")
    exp = int(exponent)
    if exp < -4 or exp >= 6:  # Go switches to %e at these exponents for the shortest form
        body = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{body}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    if exp < 0:
        return f"{sign}0.{'0' * (-exp - 1)}{digits}"
    whole = digits[: exp + 1].ljust(exp + 1, "0")
    fraction = digits[exp + 1 :]
    return f"{sign}{whole}" + (f".{fraction}" if fraction else "")
