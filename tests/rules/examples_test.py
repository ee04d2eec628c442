"""The documented examples of the schema and skew rules: Example triggers the rule, Use instead does not.

An example may start with the fixtures' header (``# dralint: --kubernetes-version 1.35``) to
name the cluster it is about.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dralint.rules import Rule, builtin_rules
from tests.rules.fixtures_test import findings_of

DOCUMENTED = [rule for rule in builtin_rules().values() if rule.category in ("schema", "skew")]


def _write(tmp_path: Path, rule: Rule, text: str) -> Path:
    folder = tmp_path / rule.id  # findings_of takes the rule from the folder name
    folder.mkdir()
    path = folder / "example.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("rule", DOCUMENTED, ids=lambda r: r.id)
def test_rule_example_triggers_the_rule(rule: Rule, tmp_path: Path) -> None:
    assert findings_of(_write(tmp_path, rule, rule.docs["example"]), tmp_path) != []


@pytest.mark.parametrize("rule", DOCUMENTED, ids=lambda r: r.id)
def test_rule_use_instead_does_not_trigger_the_rule(rule: Rule, tmp_path: Path) -> None:
    assert findings_of(_write(tmp_path, rule, rule.docs["use_instead"]), tmp_path) == []
