"""The check command (dralint/commands/check.py), called with settings as the CLI builds them."""

from __future__ import annotations

from pathlib import Path

import pytest

from dralint.commands.check import CheckSettings, run
from dralint.errors import InputError, UsageError
from tests.conftest import FIXTURES

REPO = FIXTURES / "cli" / "repo"


def test_run_writes_reports_and_returns_the_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "findings.txt"
    settings = CheckSettings(paths=(str(REPO / "cluster"),), outputs=(("text", str(report)),), release="1.33")
    assert run(settings) == 1
    assert capsys.readouterr().out == ""
    assert report.read_text(encoding="utf-8").splitlines()[-1] == "1 file, 1 object: 1 error, 0 warnings, 0 info"
    assert run(CheckSettings(paths=(str(REPO / "cluster"),), release="1.33", fail_on="never")) == 0


def test_run_rejects_an_unknown_format_before_reading_anything() -> None:
    with pytest.raises(UsageError, match="unknown format 'sarif'; known: json, text"):
        run(CheckSettings(paths=("does-not-exist",), outputs=(("sarif", None),)))


def test_run_reports_a_missing_path() -> None:
    with pytest.raises(InputError, match="does-not-exist: no such file or directory"):
        run(CheckSettings(paths=("does-not-exist",)))


def test_run_reads_the_inventory_with_the_paths(capsys: pytest.CaptureFixture[str]) -> None:
    settings = CheckSettings(
        paths=(str(REPO / "cluster"),), inventory=(str(FIXTURES / "objects" / "kubectl-list.yaml"),)
    )
    assert run(settings) == 0
    assert capsys.readouterr().out == "2 files, 3 objects: 0 errors, 0 warnings, 0 info\n"
