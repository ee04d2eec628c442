"""apimachinery's int64-versus-inf.Dec storage of quantities, visible through CEL's isInteger()."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.apimachinery.quantity import parse_quantity
from dralint.cel import compile, policy_environment

CASES = YAML(typ="safe", pure=True).load(
    (Path(__file__).resolve().parent.parent / "fixtures" / "cel" / "quantities.yaml").read_text(encoding="utf-8")
)
PARSED = [c for c in CASES if "text" in c]
SUMS = [c for c in CASES if "add" in c]


@pytest.mark.parametrize("case", PARSED, ids=[c["text"] for c in PARSED])
def test_quantity_as_int64_follows_the_parsed_representation(case: dict[str, Any]) -> None:
    assert parse_quantity(case["text"]).as_int64() == case["int64"]
    expression = f'quantity("{case["text"]}").isInteger()'
    assert compile(expression, policy_environment()).evaluate({}) is (case["int64"] is not None)


@pytest.mark.parametrize("case", SUMS, ids=["+".join(c["add"]) for c in SUMS])
def test_quantity_add_keeps_or_leaves_the_int64_representation(case: dict[str, Any]) -> None:
    left, right = (parse_quantity(t) for t in case["add"])
    total = left.add(right)
    assert total.as_int64() == case["int64"]
    assert total.canonical() == case["canonical"]
