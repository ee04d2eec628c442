"""Every apiserver and references rule's documented Example triggers it, and Use instead does not."""

from __future__ import annotations

import pytest

from dralint.rules import builtin_rules
from tests.lint import lint_text

OWNED = ("rules/apiserver.yaml", "rules/references.yaml")
RULES = sorted(r.id for r in builtin_rules().values() if r.source in OWNED)


def test_owned_rules_are_the_documented_range() -> None:
    expected = [f"DRA{n}" for n in range(120, 133)] + [f"DRA{n}" for n in range(300, 307)]
    assert expected == RULES


@pytest.mark.parametrize("rule_id", RULES)
def test_rule_docs_have_every_section(rule_id: str) -> None:
    docs = builtin_rules()[rule_id].docs
    assert {"what", "why", "example", "use_instead"} <= set(docs)


@pytest.mark.parametrize("rule_id", RULES)
def test_rule_example_triggers_the_rule(rule_id: str) -> None:
    findings = lint_text(builtin_rules()[rule_id].docs["example"])
    assert rule_id in {f.rule for f in findings}


@pytest.mark.parametrize("rule_id", RULES)
def test_rule_use_instead_does_not_trigger_the_rule(rule_id: str) -> None:
    findings = lint_text(builtin_rules()[rule_id].docs["use_instead"])
    assert rule_id not in {f.rule for f in findings}, [f.message for f in findings if f.rule == rule_id]
