"""Lenient field reads (dralint/api/read.py): wrong types read as absent, presence kept where it matters."""

from __future__ import annotations

from dralint.api import read

DATA = {"name": "gpu", "count": 2, "flag": True, "list": ["a", 1, "b"], "map": {"k": "v"}, "null": None, "bad": True}


def test_read_gives_values_of_the_right_type() -> None:
    assert read.text(DATA, "name") == "gpu"
    assert read.integer(DATA, "count") == 2
    assert read.flag(DATA, "flag") is True
    assert read.items(DATA, "list") == ["a", 1, "b"]
    assert read.strings(DATA, "list") == ("a", "b")
    assert read.mapping(DATA, "map") == {"k": "v"}


def test_read_absent_and_null_fields_are_zero_or_none() -> None:
    assert (read.text(DATA, "missing"), read.opt_text(DATA, "null")) == ("", None)
    assert (read.items(DATA, "null"), read.opt_items(DATA, "missing")) == ([], None)
    assert (read.mapping(DATA, "missing"), read.mapping_or_empty(DATA, "missing")) == (None, {})
    assert (read.integer(DATA, "missing"), read.opt_integer(DATA, "missing")) == (0, None)
    assert read.present(DATA, "null") is False and read.present(DATA, "name") is True


def test_read_wrong_types_read_as_absent() -> None:
    assert read.text(DATA, "count") == ""
    assert read.integer(DATA, "bad") is None  # a bool is not an integer: schema validation says so
    assert read.opt_integer(DATA, "name") is None
    assert read.mapping(DATA, "list") is None
    assert read.items("not a mapping", "list") == []
