"""Rule references and typed rule options resolved against the catalogue."""

from __future__ import annotations

from typing import Any

import pytest

from dralint.config.resolve import Effective, Ref
from dralint.config.select import rule_ids, rule_options
from dralint.errors import ConfigError
from dralint.read import userfile
from dralint.rules import builtin_rules, load_file
from tests.conftest import FIXTURES

(OPTIONED,) = load_file(userfile.read(str(FIXTURES / "rules" / "options.yaml")), builtin=True)
RULES = {**builtin_rules(), OPTIONED.id: OPTIONED}


def _options(configured: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return rule_options(RULES, Effective(options=((Ref("too-many-consumers", "c.yaml:3:5"), configured),)))


def test_options_default_and_configured_values() -> None:
    assert rule_options(RULES, Effective())["DRA990"] == {"maxConsumers": 128, "mode": "strict"}
    assert _options({"maxConsumers": 16})["DRA990"] == {"maxConsumers": 16, "mode": "strict"}


@pytest.mark.parametrize(
    ("configured", "message"),
    [
        ({"maxConsumer": 3}, "c.yaml:3:5: rule DRA990 has no option 'maxConsumer'; did you mean 'maxConsumers'?"),
        ({"maxConsumers": "many"}, "c.yaml:3:5: rule DRA990 option maxConsumers: expected an integer, got a string"),
        ({"maxConsumers": 0}, "c.yaml:3:5: rule DRA990 option maxConsumers: 0 is less than the minimum of 1"),
        ({"mode": "loose"}, "c.yaml:3:5: rule DRA990 option mode: 'loose' is not one of strict, lenient"),
    ],
)
def test_bad_option_values_are_config_errors(configured: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        _options(configured)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("DRA801", ["DRA801"]),
        ("unused-suppression", ["DRA801"]),
        ("DRA80", ["DRA800", "DRA801", "DRA802", "DRA803", "DRA804"]),
        ("input", ["DRA001", "DRA002", "DRA003", "DRA004", "DRA005", "DRA006", "DRA007", "DRA008", "DRA009"]),
    ],
)
def test_rule_references(text: str, expected: list[str]) -> None:
    assert rule_ids(builtin_rules(), Ref(text, "x")) == expected
    assert rule_ids(builtin_rules(), Ref("all", "x")) == list(builtin_rules())
