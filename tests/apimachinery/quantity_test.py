"""Kubernetes quantities (dralint/apimachinery/quantity.py); cases in tests/fixtures/quantity/*.tsv."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dralint.apimachinery.quantity import Quantity, QuantityError, parse_quantity
from tests.conftest import FIXTURES


def rows(name: str) -> list[list[str]]:
    lines = (FIXTURES / "quantity" / name).read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if not line.startswith("#")]


@pytest.mark.parametrize(("text", "canonical", "value", "format"), rows("cases.tsv"))
def test_parse_quantity_value_format_and_canonical_text(text: str, canonical: str, value: str, format: str) -> None:
    quantity = parse_quantity(text)
    assert quantity.value == Fraction(value)
    assert quantity.format == format
    assert quantity.canonical() == canonical
    assert quantity.text == text


@pytest.mark.parametrize(("text", "message"), rows("errors.tsv"))
def test_parse_quantity_rejects_malformed_text(text: str, message: str) -> None:
    with pytest.raises(QuantityError) as error:
        parse_quantity(text)
    assert str(error.value) == message


def test_quantities_compare_by_value_not_text() -> None:
    assert parse_quantity("1Gi") == parse_quantity("1024Mi")
    assert parse_quantity("1000m") == parse_quantity("1")
    assert len({parse_quantity("1k"), parse_quantity("1000")}) == 1
    assert parse_quantity("1Gi") > parse_quantity("1G")
    assert parse_quantity("500m") < parse_quantity("1")
    assert parse_quantity("1").cmp(parse_quantity("2")) == -1
    assert parse_quantity("2").cmp(parse_quantity("2")) == 0


def test_arithmetic_keeps_the_left_format() -> None:
    total = parse_quantity("1Gi").add(parse_quantity("512Mi"))
    assert (total.canonical(), total.format) == ("1536Mi", "BinarySI")
    rest = parse_quantity("1").sub(parse_quantity("1500m"))
    assert (rest.canonical(), rest.sign()) == ("-500m", -1)


def test_integer_views_round_up_like_apimachinery() -> None:
    quantity = parse_quantity("1500m")
    assert (quantity.ceil_int(), quantity.milli_value(), quantity.is_integer()) == (2, 1500, False)
    assert parse_quantity("0.1m").milli_value() == 1


def test_computed_quantity_text_is_canonical() -> None:
    assert Quantity(Fraction(3, 2)).text == "1500m"
    assert str(Quantity(2048, "BinarySI")) == "2Ki"
    assert repr(parse_quantity("2Gi")) == "Quantity('2Gi')"
