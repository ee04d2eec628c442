"""Pool utilisation (dralint/dryrun/utilisation.py): the order pools and nodes are reported in."""

from __future__ import annotations

from dralint.dryrun.utilisation import natural_key


def test_natural_key_orders_digit_runs_as_numbers() -> None:
    names = ["h100-10", "h100-2", "a100-1", "h100-1", "h100-02", "node", "h100-2b"]
    assert sorted(names, key=natural_key) == ["a100-1", "h100-1", "h100-02", "h100-2", "h100-2b", "h100-10", "node"]
