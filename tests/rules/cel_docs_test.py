"""The documented examples of the CEL selector rules: Example reports the rule, Use instead does not.

``example_config`` / ``use_instead_config`` (a ``.dralint.yaml`` body) name the target cluster;
this harness reads their ``kubernetesVersion`` and ``featureGates``, like the catalogue-wide
docs test does with the whole configuration.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from dralint.commands.check import CheckSettings, run
from dralint.rules import Rule, builtin_rules

DOCUMENTED = [rule for rule in builtin_rules().values() if rule.category == "cel"]


def _reported(rule: Rule, tmp_path: Path, text_key: str, config_key: str) -> list[str]:
    manifest = tmp_path / f"{rule.id}-{text_key}.yaml"
    manifest.write_text(rule.docs[text_key], encoding="utf-8")
    config = YAML(typ="safe", pure=True).load(rule.docs.get(config_key, "")) or {}
    output = tmp_path / "findings.txt"
    run(
        CheckSettings(
            paths=(str(manifest),),
            outputs=(("text", str(output)),),
            release=str(config.get("kubernetesVersion", "1.37")),
            feature_gates=dict(config.get("featureGates") or {}),
        )
    )
    return [
        line.split(" ")[2] for line in output.read_text(encoding="utf-8").splitlines() if line.startswith(str(manifest))
    ]


@pytest.mark.parametrize("rule", DOCUMENTED, ids=[r.id for r in DOCUMENTED])
def test_cel_rule_example_triggers_the_rule(rule: Rule, tmp_path: Path) -> None:
    assert rule.id in _reported(rule, tmp_path, "example", "example_config")


@pytest.mark.parametrize("rule", DOCUMENTED, ids=[r.id for r in DOCUMENTED])
def test_cel_rule_use_instead_does_not_trigger_the_rule(rule: Rule, tmp_path: Path) -> None:
    assert rule.id not in _reported(rule, tmp_path, "use_instead", "use_instead_config")
