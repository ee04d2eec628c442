"""Clause splitting and did-you-mean on selector expressions."""

from __future__ import annotations

from dralint.diagnose import hints
from dralint.findings import Replacement
from testing.simulate import build_inventory


def test_clauses_split_top_level_and_only() -> None:
    expression = (
        'device.driver == "gpu.example.com" && (a || b && c) && '
        'device.attributes["gpu.example.com"].model in ["A&&B", "C"]'
    )
    assert hints.clauses(expression) == [
        'device.driver == "gpu.example.com"',
        "(a || b && c)",
        'device.attributes["gpu.example.com"].model in ["A&&B", "C"]',
    ]
    assert hints.clauses("x") == ["x"]


def test_did_you_mean_checks_domains_names_and_values_against_the_inventory() -> None:
    inventory = build_inventory("inventory/compact-gpu.yaml")
    vocab = hints.vocabulary(entry.slice for entry in inventory.slices)
    assert hints.did_you_mean('device.attributes["gpu.exmple.com"].model == "A100"', vocab) == [
        "no device publishes attributes in domain gpu.exmple.com; did you mean gpu.example.com?"
    ]
    assert hints.did_you_mean('device.attributes["gpu.example.com"]["modle"] == "A100"', vocab) == [
        "no device publishes attribute gpu.example.com/modle; did you mean model?"
    ]
    assert hints.did_you_mean('device.capacity["gpu.example.com"].memroy.compareTo(quantity("1Gi")) > 0', vocab) == [
        "no device publishes capacity gpu.example.com/memroy; did you mean memory?"
    ]
    assert hints.did_you_mean('device.attributes["gpu.example.com"].profile == "1g.5gbb"', vocab) == [
        'no device has gpu.example.com/profile "1g.5gbb"; did you mean "1g.5gb"?'
    ]
    assert hints.did_you_mean('device.attributes["gpu.example.com"].model == "A100"', vocab) == []


def test_suggestions_carry_the_replacement_of_each_did_you_mean() -> None:
    inventory = build_inventory("inventory/compact-gpu.yaml")
    vocab = hints.vocabulary(entry.slice for entry in inventory.slices)
    expression = (
        'device.driver == "gpu.exmple.com" && device.attributes["gpu.example.com"].modle == "A100" && '
        'device.attributes["gpu.example.com"].profile == "1g.5gbb"'
    )
    assert [replacement for _, replacement in hints.suggestions(expression, vocab)] == [
        Replacement("gpu.exmple.com", "gpu.example.com"),
        Replacement("modle", "model"),
        Replacement('"1g.5gbb"', '"1g.5gb"'),
    ]
