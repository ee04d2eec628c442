"""Rule fixtures of the dry-run and inventory rules (DRA420-DRA439, DRA5xx, DRA6xx, DRA7xx).

Every ``tests/rules/<ID>/fail/*.yaml`` must produce exactly the findings of that rule listed in
the ``.expected`` file beside it (text format, run from the repository root, only that rule's
lines); every ``pass/*.yaml`` must produce none of that rule. ``x.dralint.yaml`` beside ``x.yaml``
names the target (``kubernetesVersion``, ``featureGates``). The rule's documented example must
trigger it and its "use instead" must not. ``DRALINT_UPDATE_GOLDEN=1`` rewrites the goldens.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from dralint.cli import main
from dralint.rules import builtin_rules
from tests.conftest import ROOT

RULES_DIR = Path(__file__).resolve().parent
OWNED = re.compile(r"^DRA(4[23]\d|[567]\d\d)$")


CONFIG_SUFFIX = ".dralint.yaml"


def _owned_rules() -> list[str]:
    return sorted(rule_id for rule_id in builtin_rules() if OWNED.match(rule_id))


def _fixtures(kind: str) -> list[Path]:
    return sorted(
        p
        for rule_id in _owned_rules()
        for p in (RULES_DIR / rule_id / kind).glob("*.yaml")
        if not p.name.endswith(CONFIG_SUFFIX)
    )


def _findings(path: Path, rule_id: str) -> list[str]:
    config_path = path.with_name(path.stem + CONFIG_SUFFIX)
    config = YAML(typ="safe", pure=True).load(config_path.read_text(encoding="utf-8")) if config_path.exists() else {}
    args = ["check", _shown(path), "--color", "never"]
    if config.get("kubernetesVersion"):
        args += ["--kubernetes-version", str(config["kubernetesVersion"])]
    gates = ",".join(f"{k}={str(v).lower()}" for k, v in (config.get("featureGates") or {}).items())
    if gates:
        args += ["--feature-gates", gates]
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(main, args)
    finally:
        os.chdir(cwd)
    assert result.exit_code in (0, 1), result.output
    return [line for line in result.output.splitlines() if re.match(rf"^\S+:\d+:\d+: \w+ {rule_id} ", line)]


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def _rule_of(path: Path) -> str:
    return path.parent.parent.name


@pytest.mark.parametrize("path", _fixtures("fail"), ids=lambda p: f"{_rule_of(p)}/{p.name}")
def test_fail_fixture_reports_expected_findings(path: Path) -> None:
    lines = _findings(path, _rule_of(path))
    expected = path.with_suffix(".expected")
    if os.environ.get("DRALINT_UPDATE_GOLDEN") == "1":
        expected.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert lines, f"{_shown(path)} does not trigger {_rule_of(path)}"
    assert lines == expected.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("path", _fixtures("pass"), ids=lambda p: f"{_rule_of(p)}/{p.name}")
def test_pass_fixture_reports_nothing(path: Path) -> None:
    assert _findings(path, _rule_of(path)) == []


@pytest.mark.parametrize("rule_id", _owned_rules())
def test_rule_has_fixtures_and_docs(rule_id: str) -> None:
    rule = builtin_rules()[rule_id]
    assert {"what", "why", "example", "use_instead"} <= set(rule.docs)
    assert list((RULES_DIR / rule_id / "fail").glob("*.yaml")), f"{rule_id} has no fail fixture"
    assert list((RULES_DIR / rule_id / "pass").glob("*.yaml")), f"{rule_id} has no pass fixture"


@pytest.mark.parametrize("rule_id", _owned_rules())
def test_rule_docs_example_triggers_and_use_instead_does_not(rule_id: str, tmp_path: Path) -> None:
    rule = builtin_rules()[rule_id]
    example = tmp_path / "example.yaml"
    example.write_text(rule.docs["example"], encoding="utf-8")
    assert _findings(example, rule_id), f"the example of {rule_id} does not trigger it"
    use_instead = tmp_path / "use_instead.yaml"
    use_instead.write_text(rule.docs["use_instead"], encoding="utf-8")
    assert _findings(use_instead, rule_id) == []
