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


def decode(text: str) -> tuple[list[tuple[Any, int]], DecodeIssue | None]:
    """(value, 1-based line where it starts) of every non-null value of ``text``, or the first error."""
    decoder = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_int, parse_float=_float)
    values: list[tuple[Any, int]] = []
    index = len(text) - len(text.lstrip())
    try:
        while index < len(text):
            data, end = decoder.raw_decode(text, index)
            if data is not None:
                values.append((data, text.count("\n", 0, index) + 1))
            index = len(text) - len(text[end:].lstrip())
        if _SURROGATE_ESCAPE.search(text):
            values = [(_without_lone_surrogates(data), line) for data, line in values]
    except json.JSONDecodeError as error:
        stable = _stable(error)
        return [], DecodeIssue("syntax", f"invalid JSON: {stable.msg}", stable.lineno, stable.colno)
    except _Constant as constant:
        line, column = _constant_position(text, constant.name)
        return [], DecodeIssue("syntax", f"invalid JSON: {constant.name} is not a JSON value", line, column)
    except RecursionError:
        return [], DecodeIssue("too-deep", "JSON document nests too deeply", text.count("\n", 0, index) + 1, 1)
    return values, None


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
    """A JSON integer; one longer than Python converts (4,300 digits) is out of float64 range too."""
    try:
        return int(text)
    except ValueError:
        return _float(text)


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
