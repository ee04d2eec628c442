"""The FMT building blocks print apimachinery's messages (table in tests/fixtures/apiserver-formats.yaml)."""

from __future__ import annotations

from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.api.versions import make_target
from dralint.validate.apiserver import formats
from dralint.validate.apiserver.behaviour import behaviour
from tests.conftest import FIXTURES

CASES: list[dict[str, Any]] = YAML(typ="safe", pure=True).load((FIXTURES / "apiserver-formats.yaml").read_text())
PATH = ("spec", "field")


def _id(case: dict[str, Any]) -> str:
    return f"{case['check']}-{case['value'] or 'empty'}-{case.get('release', '1.37')}"


@pytest.mark.parametrize("case", [c for c in CASES if "errors" in c], ids=_id)
def test_format_check_prints_apimachinery_messages(case: dict[str, Any]) -> None:
    b = behaviour(make_target(case.get("release", "1.37")))
    check = getattr(formats, case["check"])
    if case["check"] in ("driver_name", "pool_name", "qualified_name", "fully_qualified_name"):
        errors = check(case["value"], PATH, b)
    else:
        errors = check(case["value"], PATH)
    assert [e.body() for e in errors] == case["errors"]
    assert all(e.path == PATH for e in errors)


@pytest.mark.parametrize("case", [c for c in CASES if "result" in c], ids=_id)
def test_format_predicate_matches_apimachinery(case: dict[str, Any]) -> None:
    assert getattr(formats, case["check"])(case["value"]) is case["result"]


def test_suggest_label_turns_a_name_into_a_dns_label() -> None:
    assert formats.suggest_label("GPU_Claim.1") == "gpu-claim-1"
    assert formats.suggest_label("___") == "my-name"
