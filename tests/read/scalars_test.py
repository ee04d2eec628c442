"""go-yaml v2 scalar resolution (dralint/read/scalars.py); the full table is tests/fixtures/yamldoc/scalars.yaml."""

from __future__ import annotations

import math

import pytest

from dralint.read.scalars import NumberText, TagError, key_text, resolve_plain, resolve_tagged


def test_resolve_plain_special_floats() -> None:
    assert resolve_plain(".inf") == math.inf
    assert resolve_plain("-.Inf") == -math.inf
    assert resolve_plain("+.INF") == math.inf
    assert math.isnan(resolve_plain(".NaN"))
    assert resolve_plain("inf") == "inf"  # only the dotted spellings are special
    assert resolve_plain("nan") == "nan"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-9223372036854775808", -(2**63)),  # int64 minimum
        ("0b1111111111111111111111111111111111111111111111111111111111111111", 2**64 - 1),
        ("0o1777777777777777777777", 2**64 - 1),
        ("-0b101", -5),
        ("+0o17", 15),
        ("0x_ff", 255),  # underscores are dropped before parsing
    ],
)
def test_resolve_plain_integer_edges(text: str, expected: int) -> None:
    value = resolve_plain(text)
    assert type(value) is int
    assert value == expected


def test_resolve_plain_keeps_literals_beyond_64_bits_as_text_like_go_yaml() -> None:
    # kubectl reads "0x10000000000000000" as the string itself (strconv fails, go-yaml keeps the
    # text); decimals that overflow become floats (tests/fixtures/kubectl/numbers.yaml).
    for text in ("0x" + "f" * 3500, "0x10000000000000000", "0b" + "1" * 65, "0o2000000000000000000000"):
        assert resolve_plain(text) == text
        assert type(resolve_plain(text)) is NumberText
    assert resolve_plain("18446744073709551616") == 18446744073709551616.0


@pytest.mark.parametrize(
    ("tag", "text"),
    [("int", "many"), ("bool", "maybe"), ("float", "x"), ("null", "nothing"), ("int", "1.5")],
)
def test_resolve_tagged_rejects_text_that_does_not_fit(tag: str, text: str) -> None:
    with pytest.raises(TagError, match=f"as a !!{tag}$"):
        resolve_tagged(f"tag:yaml.org,2002:{tag}", text)


def test_resolve_tagged_message_names_the_resolved_kind() -> None:
    with pytest.raises(TagError) as error:
        resolve_tagged("tag:yaml.org,2002:bool", "12")
    assert str(error.value) == "cannot decode !!int `12` as a !!bool"


def test_resolve_tagged_keeps_text_for_other_tags() -> None:
    assert resolve_tagged("tag:yaml.org,2002:map", "x") == "x"
    assert resolve_tagged("!Ref", "true") == "true"
    assert resolve_tagged("tag:example.com,2024:gpu", "1") == "1"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, "true"),
        (False, "false"),
        (None, "null"),
        (16, "16"),
        (1.5, "1.5"),
        (1000.0, "1000"),
        (1e6, "1e+06"),
        (1234567.0, "1.234567e+06"),
        (3.14159265, "3.1415927"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (-2.5, "-2.5"),
        (math.inf, ".inf"),
        (-math.inf, "-.inf"),
        (math.nan, ".nan"),
        ("text", "text"),
    ],
)
def test_key_text_prints_keys_like_sigs_k8s_io_yaml(value: object, expected: str) -> None:
    assert key_text(value, "written") == expected
