"""Did-you-mean for malformed CEL constants, from tests/fixtures/cel/repairs.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from dralint.apimachinery.quantity import parse_quantity
from dralint.cel.lib.semver_value import parse
from dralint.cel.lib.strings import compile_pattern
from dralint.cel.repairs import repair_pattern, repair_quantity, repair_semver

CASES = YAML(typ="safe", pure=True).load(
    (Path(__file__).resolve().parent.parent / "fixtures" / "cel" / "repairs.yaml").read_text(encoding="utf-8")
)
REPAIRS = {
    "semver": (repair_semver, parse),
    "quantity": (repair_quantity, parse_quantity),
    "pattern": (repair_pattern, compile_pattern),
}
FLAT = [(kind, text, expected) for kind, cases in CASES.items() for text, expected in cases]


@pytest.mark.parametrize(("kind", "text", "expected"), FLAT, ids=[f"{k}:{t}" for k, t, _ in FLAT])
def test_repair_suggests_the_value_meant(kind: str, text: str, expected: str | None) -> None:
    repair, accept = REPAIRS[kind]
    suggestion = repair(text)
    assert suggestion == expected
    if suggestion is not None:
        accept(suggestion)
