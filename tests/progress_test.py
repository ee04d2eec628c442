"""The progress line (dralint/progress.py): only on a terminal, only after a second, erased at the end."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from dralint import progress
from dralint.commands.check import CheckSettings, run
from dralint.commands.simulate import SimulateSettings
from dralint.commands.simulate import run as simulate
from dralint.pipeline import parallel
from dralint.read.load import load_files

SCALE = "tests/rules/DRA501/fail/many-workloads.yaml"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_waits_a_second_then_redraws_in_place_and_clears() -> None:
    stream, clock = io.StringIO(), _Clock()
    line = progress.Progress(stream, clock)
    line.update(files=3, objects=40)
    clock.now += 0.5
    line.update(pods=2)
    assert stream.getvalue() == ""  # a short run prints nothing
    clock.now += 0.6
    line.update(pods=5)
    assert stream.getvalue() == "\r\033[Kdralint: 3 files read, 40 objects checked, 5 pods placed"
    clock.now += 0.05
    line.update(pods=6)  # within the redraw interval: not drawn
    assert stream.getvalue().count("\r") == 1
    line.clear()
    assert stream.getvalue().endswith("5 pods placed\r\033[K")


def test_progress_is_off_when_the_stream_is_not_a_terminal_or_disabled() -> None:
    for stream, enabled in ((io.StringIO(), True), (_Terminal(), False)):
        with progress.shown(stream, enabled=enabled) as line:
            assert line is None
            progress.update(pods=1)
        assert stream.getvalue() == ""


def test_check_draws_progress_on_a_terminal_stderr_and_keeps_json_clean(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    settings = CheckSettings(paths=(SCALE,), outputs=(("json", None),), no_config=True, progress=True)
    assert run(settings) == 1
    stdout = capsys.readouterr().out
    assert [f["rule"] for f in json.loads(stdout)["findings"]] == ["DRA501", "DRA501"]
    assert "\r" not in stdout and "pods placed" not in stdout
    drawn = terminal.getvalue()
    assert "\r\033[Kdralint: 1 file read, 10 objects checked" in drawn
    assert "dralint: 1 file read, 10 objects checked, 8 pods placed" in drawn  # 8 GPUs, one per pod
    assert drawn.endswith("\r\033[K")  # erased before the report is written


def test_check_quiet_draws_no_progress(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    settings = CheckSettings(paths=(SCALE,), outputs=(("concise", None),), no_config=True, progress=True, quiet=True)
    assert run(settings) == 1
    lines = capsys.readouterr().out.splitlines()
    assert terminal.getvalue() == ""
    # findings only: no summary line
    assert [line.split(" ")[2] for line in lines] == ["DRA501", "DRA501"]


def test_check_statistics_counts_findings_per_rule(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    settings = CheckSettings(
        paths=(SCALE, "tests/rules/DRA501/fail/two-workloads.yaml"), outputs=(("concise", None),), no_config=True,
        statistics=True, fail_on="never",
    )  # fmt: skip
    assert run(settings) == 0
    # the two files define the same class and template: the duplicates are counted too, most frequent first
    assert capsys.readouterr().out == (
        "6\tDRA501\tdevices-oversubscribed\n3\tDRA308\tduplicate-object\n"
        "2 files, 15 objects: 6 errors, 3 warnings, 0 info\n"
    )
    # machine formats keep every finding
    out = tmp_path / "out.json"
    assert run(CheckSettings(paths=(SCALE,), outputs=(("json", str(out)),), no_config=True, statistics=True)) == 1
    assert len(json.loads(out.read_text(encoding="utf-8"))["findings"]) == 2


def _drawn(terminal: _Terminal) -> list[str]:
    """The successive states of the line (each redraw starts with carriage return and erase)."""
    return [state for state in terminal.getvalue().split("\r\033[K") if state]


def test_files_are_counted_as_they_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    terminal = _Terminal()
    files = [(f"tests/fixtures/report/{name}", True) for name in ("mixed.yaml", "many.yaml", "policies.yaml")]
    with progress.shown(terminal, enabled=True):
        load_files(files)
    assert _drawn(terminal) == ["dralint: 1 file read", "dralint: 2 files read", "dralint: 3 files read"]


def test_worker_parts_advance_the_counts_in_the_parent(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)  # split even these small files between workers
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    paths = ("tests/fixtures/report/mixed.yaml", "tests/fixtures/report/many.yaml", SCALE)
    settings = CheckSettings(paths=paths, outputs=(("json", None),), no_config=True, progress=True, jobs=2)
    run(settings)
    report = json.loads(capsys.readouterr().out)
    files = [int(state.split(" ")[1]) for state in _drawn(terminal) if " read" in state]
    # one part per file: the counts grow as parts come back, whatever order the workers finish in
    assert files == sorted(files) and files[0] < 3 and files[-1] == 3
    objects = report["summary"]["objects"]
    assert any(state.startswith(f"dralint: 3 files read, {objects} objects checked") for state in _drawn(terminal))


def test_simulate_draws_files_and_pods_and_keeps_the_report_clean(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    fixture = "tests/fixtures/simulate/placement/three-nodes.yaml"
    settings = SimulateSettings(paths=(fixture,), outputs=(("json", None),), no_config=True, progress=True)
    assert simulate(settings) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["placed"] == 4
    assert _drawn(terminal) == [
        "dralint: 1 file read",
        "dralint: 1 file read, 1 pod placed",
        "dralint: 1 file read, 2 pods placed",
        "dralint: 1 file read, 3 pods placed",
        "dralint: 1 file read, 4 pods placed",
    ]
    assert terminal.getvalue().endswith("\r\033[K")  # erased before the report is written
