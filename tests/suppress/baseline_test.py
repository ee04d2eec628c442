"""Baselines: today's findings are accepted, new ones are reported, moving lines changes nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dralint.config.resolve import Layer
from dralint.errors import ConfigError
from testing.run import check, rules_of
from tests.conftest import FIXTURES

LEGACY = FIXTURES / "check" / "legacy.yaml"


def test_baseline_survives_moved_lines_and_reports_only_new_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(LEGACY, "manifests.yaml")
    written = check(["manifests.yaml"], write_baseline="baseline.json")
    assert written.baseline_written == 1 and written.exit_code == 0
    assert [f.suppressed.kind for f in written.report.findings if f.suppressed] == ["baseline"]
    entry = json.loads(Path("baseline.json").read_text())["findings"][0]
    assert {k: entry[k] for k in ("rule", "file", "object", "path")} == {
        "rule": "DRA200",
        "file": "manifests.yaml",
        "object": "DeviceClass/gpu.example.com",
        "path": "apiVersion",
    }
    text = LEGACY.read_text()
    second = text.replace("gpu.example.com", "tpu.example.com")
    Path("manifests.yaml").write_text("# a new header moves every line\n\n" + text + "---\n" + second)
    outcome = check(["manifests.yaml"], flags=Layer(baseline="baseline.json"))
    assert [
        (f.location.line, f.object.name if f.object else None, f.suppressed is not None)
        for f in outcome.report.findings
    ] == [
        (3, "gpu.example.com", True),
        (12, "tpu.example.com", False),
    ]
    assert outcome.exit_code == 1


def test_baseline_is_independent_of_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "repo" / "apps").mkdir(parents=True)
    shutil.copy(LEGACY, tmp_path / "repo" / "apps" / "a.yaml")
    monkeypatch.chdir(tmp_path / "repo")
    check(["apps/a.yaml"], write_baseline="baseline.json")
    monkeypatch.chdir(tmp_path / "repo" / "apps")
    assert rules_of(check(["a.yaml"], flags=Layer(baseline="../baseline.json"))) == []


def test_baseline_counts_each_recorded_finding_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.yaml").write_text(LEGACY.read_text())
    check(["a.yaml"], write_baseline="baseline.json")
    Path("a.yaml").write_text(LEGACY.read_text() + "---\n" + LEGACY.read_text())  # the same object twice
    outcome = check(["a.yaml"], flags=Layer(baseline="baseline.json"))
    assert [f.suppressed is not None for f in outcome.report.findings] == [True, False]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", ":1:2: not a dralint baseline: invalid JSON: Expecting property name"),
        ('{"version": 2, "findings": []}', ': not a dralint baseline (expected {"version": 1, "findings": [...]})'),
        ('{"version": 1, "findings": [{"rule": "DRA200"}]}', ": every baseline entry needs a fingerprint"),
    ],
)
def test_broken_baseline_is_a_config_error(tmp_path: Path, content: str, message: str) -> None:
    baseline = tmp_path / "b.json"
    baseline.write_text(content)
    with pytest.raises(ConfigError) as raised:
        check([LEGACY], flags=Layer(baseline=str(baseline)))
    assert str(raised.value).startswith(f"{baseline}{message}")
