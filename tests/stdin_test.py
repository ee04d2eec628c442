"""Standard input, piped in or named ``-``, through real processes: every command reads it the same way.

Given no path, ``check``, ``simulate``, ``plan`` and ``convert`` read standard input when it is
piped in or redirected from a file; otherwise ``check`` reads the current directory and the
others ask for paths, naming ``-``. ``-`` always names standard input.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from testing.run import cli
from tests.conftest import FIXTURES

CLAIM = FIXTURES / "stdin" / "claim.yaml"
INVENTORY = Path(__file__).resolve().parent.parent / "examples" / "cluster"


def test_check_reads_piped_input_given_no_path(tmp_path: Path) -> None:
    piped = cli("check", "--no-config", "--stdin-filename", "claim.yaml", cwd=tmp_path, stdin=CLAIM.read_text())
    named = cli("check", "--no-config", "--stdin-filename", "claim.yaml", "-", cwd=tmp_path, stdin=CLAIM.read_text())
    assert (piped.returncode, piped.stderr) == (0, "")
    assert piped.stdout == named.stdout
    assert piped.stdout.startswith("claim.yaml:1:1: warning DRA201 ")


def test_check_reads_input_redirected_from_a_file(tmp_path: Path) -> None:
    redirected = cli("check", "--no-config", cwd=tmp_path, stdin_from=CLAIM)
    assert redirected.returncode == 0
    assert redirected.stdout.startswith("-:1:1: warning DRA201 ")


def test_check_without_input_reads_the_current_directory(tmp_path: Path) -> None:
    (tmp_path / "claim.yaml").write_text(CLAIM.read_text(), encoding="utf-8")
    result = cli("check", "--no-config", cwd=tmp_path)  # standard input is /dev/null
    assert result.returncode == 0
    assert result.stdout.startswith("claim.yaml:1:1: warning DRA201 ")


def test_check_given_an_empty_pipe_reads_the_current_directory(tmp_path: Path) -> None:
    """A runner that leaves an empty pipe on standard input must not make ``dralint check`` check nothing."""
    (tmp_path / "claim.yaml").write_text(CLAIM.read_text(), encoding="utf-8")
    result = cli("check", "--no-config", cwd=tmp_path, stdin="")
    assert result.returncode == 0
    assert result.stdout.startswith("claim.yaml:1:1: warning DRA201 ")
    assert (
        cli("check", "--no-config", cwd=tmp_path, stdin="").stdout
        == cli("check", "--no-config", ".", cwd=tmp_path).stdout
    )


def test_check_in_an_empty_directory_says_how_to_check_standard_input(tmp_path: Path) -> None:
    result = cli("check", "--no-config", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "dralint: error: .: no *.yaml, *.yml or *.json files in this directory "
        "(no path was given: to check standard input, pipe it in or pass -)\n"
    )


@pytest.mark.parametrize("command", ["simulate", "plan"])
def test_dry_runs_read_piped_input_given_no_path(command: str, tmp_path: Path) -> None:
    args = (command, "--no-config", "-i", str(INVENTORY), "-f", "json")
    piped = cli(*args, cwd=tmp_path, stdin=CLAIM.read_text())
    named = cli(*args, "-", cwd=tmp_path, stdin=CLAIM.read_text())
    assert piped.returncode == named.returncode
    assert piped.stdout == named.stdout != ""


@pytest.mark.parametrize("command", ["simulate", "plan"])
def test_dry_runs_without_input_ask_for_paths_or_standard_input(command: str, tmp_path: Path) -> None:
    result = cli(command, "--no-config", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        f"dralint: error: {command} needs the manifests whose pods to place: give PATHS (files, directories, "
        "or - for standard input), or pipe them in\n"
    )


def test_convert_reads_piped_input_given_no_path(tmp_path: Path) -> None:
    piped = cli("convert", "--no-config", "--to", "v1", cwd=tmp_path, stdin=CLAIM.read_text())
    named = cli("convert", "--no-config", "--to", "v1", "-", cwd=tmp_path, stdin=CLAIM.read_text())
    assert (piped.returncode, piped.stderr) == (0, "dralint: converted 1 object in 1 file to resource.k8s.io/v1\n")
    assert piped.stdout == named.stdout
    assert piped.stdout.startswith("apiVersion: resource.k8s.io/v1\n")


def test_convert_without_input_asks_for_paths_or_standard_input(tmp_path: Path) -> None:
    result = cli("convert", "--no-config", "--to", "v1", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "dralint: error: convert needs the manifests to convert: give PATHS (files, directories, or - for "
        "standard input), or pipe them in\n"
    )
