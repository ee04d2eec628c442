"""Every rule of the catalogue is documented, and its examples do what the documentation says.

The Example of a rule must make dralint report that rule under default settings (plus the
rule's ``example_config`` when it has one), and Use instead must not. Failures name the rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dralint.config.resolve import Layer
from dralint.rules import DOC_SECTIONS, Rule, builtin_rules, catalogue
from dralint.rules.render import pages
from testing.run import ROOT, check, rules_of

RULES = list(builtin_rules().values())
EXAMPLE_POLICIES = str(ROOT / "rules" / "examples")
DOCUMENTED_POLICIES = [r for r in catalogue([EXAMPLE_POLICIES]).values() if not r.builtin and r.docs]


def _run(rule: Rule, tmp_path: Path, text_key: str, config_key: str) -> list[str]:
    docs = rule.docs
    encoding = docs.get("example_encoding", "utf-8") if text_key == "example" else "utf-8"
    manifest = tmp_path / f"{rule.id}-{text_key}.yaml"
    if "example_file" in docs:  # a file read by its name (a kustomization): one folder each
        manifest = tmp_path / text_key / docs["example_file"]
        manifest.parent.mkdir()
    manifest.write_bytes(docs[text_key].encode(encoding))
    config = None
    if config_key in docs:
        config = tmp_path / ".dralint.yaml"
        config.write_text(docs[config_key], encoding="utf-8")
    flags = Layer(rule_paths=(EXAMPLE_POLICIES,)) if not rule.builtin else None
    return rules_of(check([manifest], config=config, flags=flags))


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_docs_have_every_section(rule: Rule) -> None:
    missing = [section for section in DOC_SECTIONS if not str(rule.docs.get(section, "")).strip()]
    assert not missing, f"{rule.id} ({rule.name}) in {rule.source}: docs lack {', '.join(missing)}"
    assert rule.summary == rule.summary.strip() and not rule.summary.endswith("."), (
        f"{rule.id} ({rule.name}): the summary is a lower-case phrase without a trailing period"
    )


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_example_triggers_the_rule(rule: Rule, tmp_path: Path) -> None:
    reported = _run(rule, tmp_path, "example", "example_config")
    assert rule.id in reported, (
        f"{rule.id} ({rule.name}) in {rule.source}: docs.example does not trigger {rule.id}; "
        f"it reports {', '.join(sorted(set(reported))) or 'nothing'}"
    )


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_use_instead_does_not_trigger_the_rule(rule: Rule, tmp_path: Path) -> None:
    reported = _run(rule, tmp_path, "use_instead", "use_instead_config")
    assert rule.id not in reported, f"{rule.id} ({rule.name}) in {rule.source}: docs.use_instead triggers {rule.id}"


def test_generated_rule_docs_are_up_to_date() -> None:
    docs = ROOT / "docs" / "rules"
    wanted = pages(RULES)
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in docs.glob("*.md")}
    stale = sorted(name for name in wanted if on_disk.get(name) != wanted[name])
    extra = sorted(set(on_disk) - set(wanted))
    assert not stale and not extra, (
        f"docs/rules is stale ({', '.join(stale + extra)}): run python scripts/generate_rule_docs.py"
    )


@pytest.mark.parametrize("rule", DOCUMENTED_POLICIES, ids=[r.id for r in DOCUMENTED_POLICIES])
def test_example_policy_docs_are_right_too(rule: Rule, tmp_path: Path) -> None:
    assert rule.id in _run(rule, tmp_path, "example", "example_config")
    assert rule.id not in _run(rule, tmp_path, "use_instead", "use_instead_config")
