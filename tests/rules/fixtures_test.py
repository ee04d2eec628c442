"""Every rule's fixtures: ``tests/fixtures/rules/<ID>/pass*.yaml`` and ``fail*.yaml`` with a golden.

A fixture's first line may say which cluster it targets, with the CLI's own options
(``# dralint: --kubernetes-version 1.35 --feature-gates A=true``). The whole ``check``
pipeline runs on it; only the findings of the fixture's rule count. A pass file must get none;
a fail file must get exactly the findings in its ``.expected`` file, one per line as
``line:column: severity RULE message`` followed by ``  hint: ...`` when there is one.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from dralint.api.versions import DEFAULT_RELEASE, parse_feature_gates
from dralint.commands.check import CheckSettings, run
from dralint.rules import builtin_rules
from tests.conftest import FIXTURES

RULE_FIXTURES = FIXTURES / "rules"
CASES = sorted(RULE_FIXTURES.glob("DRA*/*.yaml"))


def settings_of(fixture: Path, output: Path) -> CheckSettings:
    """The check settings a fixture's ``# dralint:`` header asks for."""
    release, gates = DEFAULT_RELEASE, {}
    first = fixture.read_text(encoding="utf-8").splitlines()[0]
    if first.startswith("# dralint:"):
        args = shlex.split(first.removeprefix("# dralint:"))
        for flag, value in zip(args[::2], args[1::2], strict=True):
            if flag == "--kubernetes-version":
                release = value
            elif flag == "--feature-gates":
                gates = parse_feature_gates(value)
            else:
                raise AssertionError(f"{fixture}: unsupported option {flag}")
    return CheckSettings(paths=(str(fixture),), outputs=(("json", str(output)),), release=release, feature_gates=gates)


def findings_of(fixture: Path, tmp_path: Path) -> list[str]:
    """The fixture's findings for its own rule, rendered one per line (hints on their own line)."""
    output = tmp_path / "findings.json"
    run(settings_of(fixture, output))
    rule = fixture.parent.name
    lines = []
    for finding in json.loads(output.read_text(encoding="utf-8"))["findings"]:
        if finding["rule"] != rule:
            continue
        lines.append(f"{finding['line']}:{finding['column']}: {finding['severity']} {rule} {finding['message']}")
        if finding.get("hint"):
            lines.append(f"  hint: {finding['hint']}")
    return lines


def test_every_rule_fixture_directory_names_a_known_rule() -> None:
    rules = builtin_rules()
    assert [d.name for d in sorted(RULE_FIXTURES.iterdir()) if d.name not in rules] == []


@pytest.mark.parametrize("fixture", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rule_fixture(fixture: Path, tmp_path: Path) -> None:
    found = findings_of(fixture, tmp_path)
    if fixture.name.startswith("pass"):
        assert found == []
    else:
        assert fixture.name.startswith("fail"), "fixtures are named pass*.yaml or fail*.yaml"
        expected = fixture.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
        assert found == expected
