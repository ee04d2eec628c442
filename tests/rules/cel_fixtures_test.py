"""Fixtures of the CEL selector rules (DRA4xx): ``tests/rules/<ID>/{pass,fail}/*.yaml``.

A pass fixture must not report its rule; a fail fixture must report exactly the lines of the
``.expected`` file beside it (text format, only that rule's lines). ``x.dralint.yaml`` beside
``x.yaml`` names the target (``kubernetesVersion``, ``featureGates``). The layout and golden
format are the ones of the catalogue-wide fixture test; this module runs the fixtures of its
own rules until that harness is on main. ``DRALINT_UPDATE_GOLDEN=1`` rewrites the goldens.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from dralint.commands.check import CheckSettings, run
from tests.conftest import ROOT

HERE = Path(__file__).resolve().parent
CONFIG_SUFFIX = ".dralint.yaml"


def _fixtures(kind: str) -> list[Path]:
    return sorted(
        path
        for prefix in ("DRA4",)
        for path in HERE.glob(f"{prefix}*/{kind}/*.yaml")
        if not path.name.endswith(CONFIG_SUFFIX)
    )


def _settings(fixture: Path, output: Path) -> CheckSettings:
    config_file = fixture.with_name(fixture.name.removesuffix(".yaml") + CONFIG_SUFFIX)
    config = YAML(typ="safe", pure=True).load(config_file.read_text(encoding="utf-8")) if config_file.exists() else {}
    unknown = set(config) - {"kubernetesVersion", "featureGates"}
    assert not unknown, f"{config_file}: this harness only reads kubernetesVersion and featureGates"
    return CheckSettings(
        paths=(str(fixture.relative_to(ROOT)),),
        outputs=(("text", str(output)),),
        release=str(config.get("kubernetesVersion", "1.37")),
        feature_gates=dict(config.get("featureGates") or {}),
    )


def _lines(fixture: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    rule_id = fixture.parent.parent.name
    monkeypatch.chdir(ROOT)
    output = tmp_path / "findings.txt"
    run(_settings(fixture, output))
    text = output.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if f" {rule_id} " in line and ":" in line.split(" ")[0]]


PASS = _fixtures("pass")
FAIL = _fixtures("fail")


@pytest.mark.parametrize("fixture", PASS, ids=[str(p.relative_to(HERE)) for p in PASS])
def test_cel_pass_fixture_reports_nothing(fixture: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _lines(fixture, tmp_path, monkeypatch) == []


@pytest.mark.parametrize("fixture", FAIL, ids=[str(p.relative_to(HERE)) for p in FAIL])
def test_cel_fail_fixture_matches_expected(fixture: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lines(fixture, tmp_path, monkeypatch)
    expected = fixture.with_suffix(".expected")
    if os.environ.get("DRALINT_UPDATE_GOLDEN") == "1":
        expected.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert lines, f"{fixture.relative_to(ROOT)} does not trigger {fixture.parent.parent.name}"
    assert lines == expected.read_text(encoding="utf-8").splitlines()
