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
    # (the second copy is also a duplicate definition, DRA308: a new finding, not in the baseline)
    assert [(f.rule, f.suppressed is not None) for f in outcome.report.findings] == [
        ("DRA200", True),
        ("DRA200", False),
        ("DRA308", False),
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", ":1:2: not a dralint baseline: invalid JSON: Expecting property name"),
        ('{"version": 3, "findings": []}', ': not a dralint baseline (expected {"version": 2, "findings": [...]})'),
        ('{"version": 2, "findings": [{"rule": "DRA200"}]}', ": every baseline entry needs a fingerprint"),
        (
            '{"version": 1, "findings": [{"rule": "DRA200", "fingerprint": "ab"}]}',
            ": every version 1 baseline entry needs rule, file, object, path, message (write it again with --write-baseline)",
        ),
    ],
)
def test_broken_baseline_is_a_config_error(tmp_path: Path, content: str, message: str) -> None:
    baseline = tmp_path / "b.json"
    baseline.write_text(content)
    with pytest.raises(ConfigError) as raised:
        check([LEGACY], flags=Layer(baseline=str(baseline)))
    assert str(raised.value).startswith(f"{baseline}{message}")


BASELINE = FIXTURES / "suppress" / "baseline"


def _workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five trainers for four GPUs (DRA501 twice) and two replicas sharing a claim (DRA600)."""
    monkeypatch.chdir(tmp_path)
    for name in ("cluster.yaml", "apps.yaml", "v1-baseline.json"):
        shutil.copy(BASELINE / name, name)


def _grow(tmp_path: Path) -> None:
    """What the issue did: more replicas, and an unrelated Pod in another file that is placed first."""
    apps = tmp_path / "apps.yaml"
    apps.write_text(apps.read_text().replace("replicas: 2", "replicas: 3"))
    shutil.copy(BASELINE / "a-notebook.yaml", tmp_path / "a-notebook.yaml")


def test_baseline_holds_when_counts_change_and_unrelated_objects_appear(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(tmp_path, monkeypatch)
    assert check(["."], write_baseline="baseline.json").baseline_written == 3
    _grow(tmp_path)
    outcome = check(["."], flags=Layer(baseline="baseline.json"))
    # The messages changed (3 replicas; 2 of 5 pods; the notebook among the demand), the findings did not.
    assert [
        (f.rule, f.object.name if f.object else None, f.message.split(" get ")[0][:30]) for f in outcome.report.findings
    ] == [
        ("DRA501", "trainer", "2 of 5 pods of Deployment ml/t"),
        ("DRA501", "server", "3 of 3 pods of Deployment ml/s"),
        ("DRA600", "server", "all 3 replicas of Deployment m"),
    ]
    assert [f.suppressed.kind if f.suppressed else None for f in outcome.report.findings] == ["baseline"] * 3
    assert outcome.exit_code == 0


def test_baseline_of_version_1_is_read_with_the_new_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _workspace(tmp_path, monkeypatch)
    _grow(tmp_path)
    outcome = check(["."], flags=Layer(baseline="v1-baseline.json"))
    assert rules_of(outcome) == []
    assert rules_of(outcome, suppressed=True) == ["DRA501", "DRA501", "DRA600"]


def test_baseline_still_reports_a_new_finding_on_the_same_object(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace(tmp_path, monkeypatch)
    check(["."], write_baseline="baseline.json")
    apps = tmp_path / "apps.yaml"
    apps.write_text(apps.read_text().replace("resourceClaimName: shared-gpu", "resourceClaimName: missing-gpu"))
    outcome = check(["."], flags=Layer(baseline="baseline.json"))
    assert [(f.rule, f.object.name if f.object else None) for f in outcome.report.findings if f.suppressed is None] == [
        ("DRA301", "server"),
        ("DRA600", "server"),  # another claim shared: a new subject
    ]
