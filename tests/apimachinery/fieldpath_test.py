"""Field paths (dralint/apimachinery/fieldpath.py)."""

from __future__ import annotations

import pytest

from dralint.apimachinery.fieldpath import Key, is_path, join, parse, render, value_at


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ((), ""),
        (("spec",), "spec"),
        (("spec", "devices", "requests", 1, "name"), "spec.devices.requests[1].name"),
        (
            ("spec", "devices", 0, "attributes", Key("gpu.example.com/model"), "string"),
            "spec.devices[0].attributes[gpu.example.com/model].string",
        ),
        ((0, "name"), "[0].name"),
        (("items", 3, "spec"), "items[3].spec"),
    ],
)
def test_render_and_parse_are_inverse(path: tuple[str | int, ...], text: str) -> None:
    assert render(path) == text
    assert parse(text) == path
    assert [type(step) for step in parse(text)] == [type(step) for step in path]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("spec.devices.requests[1].name", True),
        ("spec.devices[0].attributes[gpu.example.com/model].string", True),
        ("[0].name", True),
        ("spec..name", False),  # an empty field
        ("spec.devices[0", False),  # an unclosed bracket
        ("[[[[", False),
        (".spec", False),
        ("spec.", False),
        ("spec[01]", False),  # an index is written as render writes it
    ],
)
def test_is_path_accepts_what_render_writes(text: str, expected: bool) -> None:
    assert is_path(text) is expected


def test_join_flattens_steps_and_paths() -> None:
    assert join("spec", ("devices", 0), "name") == ("spec", "devices", 0, "name")


def test_key_equals_the_plain_string() -> None:
    assert Key("memory") == "memory"
    assert ("capacity", Key("memory")) == ("capacity", "memory")


def test_value_at_follows_fields_and_indexes_and_is_none_where_absent() -> None:
    data = {"spec": {"devices": {"requests": [{"name": "gpu"}]}}}
    assert value_at(data, ("spec", "devices", "requests", 0, "name")) == "gpu"
    assert value_at(data, ("spec", "devices", "requests", 1, "name")) is None
    assert value_at(data, ("spec", "devices", "requests", "name")) is None
    assert value_at(data, ()) is data
