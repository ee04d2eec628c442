"""YAML scalar values the way Kubernetes reads them: go-yaml v2 (YAML 1.1) resolution rules.

kubectl and the API server decode manifests with sigs.k8s.io/yaml, a fork of go-yaml v2, so
``yes``/``on`` are booleans, ``0777`` is octal, ``1_000`` is 1000, timestamps stay strings and
``1e400`` is a string (it overflows a float64). ruamel's YAML 1.2 rules differ on each of these,
which is why dralint resolves plain scalars itself.
"""

from __future__ import annotations

import base64
import codecs
import math
import re
import struct
from typing import Any

__all__ = [
    "TAG_PREFIX",
    "NumberText",
    "TagError",
    "int_text",
    "key_text",
    "parse_timestamp",
    "resolve_plain",
    "resolve_tagged",
]

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
    if unsigned_error == "range":  # a hexadecimal/octal/binary literal beyond 64 bits: go-yaml keeps the text
        return NumberText(text)
    return text


def _finite_float(number: str, text: str) -> Any:
    """strconv.ParseFloat: an overflow is an error, and go-yaml then keeps the text."""
    value = float(number)
    return NumberText(text) if math.isinf(value) else value


def _parse_int(text: str, *, signed: bool) -> tuple[int | None, str | None]:
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
    low, high = _INT64 if signed else (0, _UINT64_MAX)
    if not low <= value <= high:
        return None, "range"
    return value, None


def resolve_tagged(tag: str, text: str) -> Any:
    """Value of a scalar with an explicit tag (``!!str 5``, ``!!int "3"``, ``!custom x``), as go-yaml's resolve.

    Tags outside the YAML core schema leave the text as it is (``!!binary`` is decoded); a
    core tag whose text does not fit raises :class:`TagError` with go-yaml's message.
    """
    if not tag.startswith(TAG_PREFIX):
        return text  # local tags (!foo) and the non-specific "!": go-yaml keeps the text
    short = tag[len(TAG_PREFIX) :]
    if short == "binary":
        return _binary(text)
    if short not in ("str", "bool", "int", "float", "null", "timestamp"):
        return text  # other yaml.org tags (!!map on a scalar, !!merge, ...): not resolvable, text kept
    if short == "str":
        return text
    if short == "timestamp" and parse_timestamp(text):
        return text  # decoded into an interface, a timestamp stays its text
    value = resolve_plain(text)
    if short == "null" and value is None:
        return None
    if short == "bool" and isinstance(value, bool):
        return value
    if short == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if short == "float" and isinstance(value, float):
        return value
    if short == "float" and isinstance(value, int) and not isinstance(value, bool) and value <= _INT64[1]:
        return float(value)  # go-yaml converts int and int64 to a float, not uint64
    raise TagError(f"cannot decode {_short_tag(value)} `{text}` as a !!{short}")


_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def _binary(text: str) -> str:
    """``!!binary``: Go's standard base64 (padding required, line breaks ignored), bytes read as JSON does.

    The decoded bytes become a Go string; JSON replaces each byte that is not part of valid
    UTF-8 with U+FFFD.
    """
    compact = text.replace("\r", "").replace("\n", "")
    if not _BASE64.fullmatch(compact):
        raise TagError("!!binary value contains invalid base64 data")
    return base64.b64decode(compact).decode("utf-8", "dralint-go-json")


def _replace_each_byte(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)
    return "\ufffd" * (error.end - error.start), error.end


codecs.register_error("dralint-go-json", _replace_each_byte)

# time.Parse with go-yaml's four layouts; numbers of one or two digits where Go allows them.
_TIMESTAMP = re.compile(
    r"(\d{4})-(\d\d?)-(\d\d?)"
    r"(?:(?:([Tt])| +)(\d\d?):(\d\d?):(\d\d?)(?:[.,]\d+)?(Z|[+-]\d\d:\d\d)?)?"
)
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def parse_timestamp(text: str) -> bool:
    """Whether go-yaml reads ``text`` as a timestamp (Go's time.Parse of one of its four layouts)."""
    match = _TIMESTAMP.fullmatch(text)
    if match is None:
        return False
    year, month, day, t, hour, minute, second, zone = match.groups()
    if hour is not None and (t is None) != (zone is None):
        return False  # "T" needs a zone; a space allows none
    month_number, day_number = int(month), int(day)
    if not 1 <= month_number <= 12:
        return False
    leap = int(year) % 4 == 0 and (int(year) % 100 != 0 or int(year) % 400 == 0)
    if not 1 <= day_number <= _DAYS[month_number - 1] + (month_number == 2 and leap):
        return False
    if hour is not None and (int(hour) > 23 or int(minute) > 59 or int(second) > 59):
        return False
    return zone is None or zone == "Z" or (int(zone[1:3]) <= 24 and int(zone[4:6]) <= 60)


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
