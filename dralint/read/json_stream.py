"""Decode a JSON text, or a stream of JSON values, as strictly as Go's encoding/json (what kubectl uses).

Python's decoder accepts NaN and Infinity, which Go rejects: they are errors here too. The
first error ends decoding and says where it is. Values come without positions inside them
(:mod:`dralint.read.yamldoc` decodes JSON as YAML when it can, for those).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from dralint.read.issues import DecodeIssue
from dralint.read.scalars import NumberText

__all__ = ["decode"]


def decode(text: str, overflows: dict[int, str] | None = None) -> tuple[list[tuple[Any, int]], DecodeIssue | None]:
    """(value, 1-based line where it starts) of every non-null value of ``text`` up to the first error, and that error.

    As Kubernetes reads JSON, an integer beyond int64 is a float64. A number no float64 holds
    is kept as its text (:class:`NumberText`); ``overflows`` maps the index of each value that
    held one (even where a later duplicate key replaced it) to the first such number: decoding
    that object fails in Kubernetes ("cannot unmarshal number ... into Go value of type float64").
    """
    found: list[str] = []

    def number(text: str, parse: Any) -> Any:
        value = parse(text)
        if isinstance(value, NumberText):
            found.append(text)
        return value

    decoder = json.JSONDecoder(
        parse_constant=_reject_constant,
        parse_int=lambda t: number(t, _int),
        parse_float=lambda t: number(t, _float),
    )
    values: list[tuple[Any, int]] = []
    index = len(text) - len(text.lstrip())
    try:
        while index < len(text):
            data, end = decoder.raw_decode(text, index)
            if found and overflows is not None:
                overflows[len(values)] = found[0]
            found.clear()
            if data is not None:
                values.append((data, text.count("\n", 0, index) + 1))
            index = len(text) - len(text[end:].lstrip())
        if _SURROGATE_ESCAPE.search(text):
            values = [(_without_lone_surrogates(data), line) for data, line in values]
    except json.JSONDecodeError as error:
        stable = _stable(error)
        message = f"invalid JSON: {stable.msg}"
        return _kept(values, text), DecodeIssue("syntax", message, stable.lineno, stable.colno, upstream=_GO_JSON)
    except _Constant as constant:
        line, column = _constant_position(text, constant.name)
        message = f"invalid JSON: {constant.name} is not a JSON value"
        return _kept(values, text), DecodeIssue("syntax", message, line, column, upstream=_GO_JSON)
    except RecursionError:
        line = text.count("\n", 0, index) + 1
        return _kept(values, text), DecodeIssue("too-deep", "JSON document nests too deeply", line, 1)
    return values, None


# Go's words differ from Python's and name a byte offset; the differential test compares only this.
_GO_JSON = "json: "


def _kept(values: list[tuple[Any, int]], text: str) -> list[tuple[Any, int]]:
    """The values decoded before an error (kubectl took them)."""
    if values and _SURROGATE_ESCAPE.search(text):
        return [(_without_lone_surrogates(data), line) for data, line in values]
    return values


# Python 3.13 names a trailing comma at the comma; earlier versions (and Go) report the closing
# bracket that follows it. The same message on every Python keeps the output deterministic.
_TRAILING_COMMA = {
    "Illegal trailing comma before end of object": "Expecting property name enclosed in double quotes",
    "Illegal trailing comma before end of array": "Expecting value",
}


def _stable(error: json.JSONDecodeError) -> json.JSONDecodeError:
    """The error as Python 3.11 and 3.12 give it (message and position)."""
    earlier = _TRAILING_COMMA.get(error.msg)
    if earlier is None:
        return error
    text = error.doc
    after = error.pos + 1
    return json.JSONDecodeError(earlier, text, after + (len(text) - after - len(text[after:].lstrip())))


# Go's decoder turns an escaped lone surrogate (``"\\udcff"``) into U+FFFD; Python's keeps it,
# and no UTF-8 output could hold it.
_SURROGATE_ESCAPE = re.compile(r"\\[uU][dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_lone_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_without_lone_surrogates(k): _without_lone_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_lone_surrogates(item) for item in value]
    return value


def _int(text: str) -> Any:
    """A JSON integer: an int64, else a float64 (one longer than Python converts, 4,300 digits, overflows)."""
    if len(text) < 19:
        return int(text)
    try:
        value = int(text)
    except ValueError:
        return _float(text)
    return value if -(2**63) <= value < 2**63 else _float(text)


def _float(text: str) -> Any:
    """A JSON number with a fraction or exponent; one that overflows a float64 stays text (as in YAML)."""
    value = float(text)
    return NumberText(text) if math.isinf(value) else value


class _Constant(Exception):
    def __init__(self, name: str) -> None:
        self.name = name


def _reject_constant(name: str) -> Any:
    raise _Constant(name)


_STRING_OR_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')


def _constant_position(text: str, name: str) -> tuple[int, int]:
    """1-based position of the first ``name`` outside a string (the decoder does not say where)."""
    for match in _STRING_OR_CONSTANT.finditer(text):
        if match.group(1) == name:
            start = match.start()
            return text.count("\n", 0, start) + 1, start - (text.rfind("\n", 0, start) + 1) + 1
    return 1, 1  # pragma: no cover - the decoder found it
