"""Strict JSON streams (dralint/read/json_stream.py): values with their lines, or the first error where it is."""

from __future__ import annotations

import pytest

from dralint.read import json_stream
from dralint.read.issues import DecodeIssue


def test_a_stream_of_values_gives_each_with_its_line() -> None:
    assert json_stream.decode('\n {"a": 1}\n{"b": [2]} null\n"x"') == ([({"a": 1}, 2), ({"b": [2]}, 3), ("x", 4)], None)


@pytest.mark.parametrize(
    ("text", "issue"),
    [
        ('{"a": NaN}', DecodeIssue("syntax", "invalid JSON: NaN is not a JSON value", 1, 7)),
        (
            '{"s": "NaN Infinity",\n "a": [1, Infinity]}',
            DecodeIssue("syntax", "invalid JSON: Infinity is not a JSON value", 2, 11),
        ),
        ('{"a": 1,}', DecodeIssue("syntax", "invalid JSON: Expecting property name enclosed in double quotes", 1, 9)),
        ("[" * 100_000, DecodeIssue("too-deep", "JSON document nests too deeply", 1, 1)),
    ],
)
def test_what_go_rejects_is_an_error_at_its_position(text: str, issue: DecodeIssue) -> None:
    assert json_stream.decode(text) == ([], issue)


def test_values_before_an_error_are_kept_as_kubectl_keeps_them() -> None:
    values, issue = json_stream.decode('{"a": 1}\n{"b": 2,}')
    assert values == [({"a": 1}, 1)]
    assert issue == DecodeIssue("syntax", "invalid JSON: Expecting property name enclosed in double quotes", 2, 9)


def test_integers_beyond_int64_are_floats_as_kubernetes_reads_them() -> None:
    values, _ = json_stream.decode('[9223372036854775807, 9223372036854775808, -9223372036854775809]')
    assert values[0][0] == [2**63 - 1, 9.223372036854775808e18, -9.223372036854775809e18]
    assert [type(v) for v in values[0][0]] == [int, float, float]
