"""``dralint check``: called with settings as the CLI builds them, and end to end (outputs, formats,
colour, stdin, exit codes and errors)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dralint.commands.check import CheckSettings, run
from dralint.errors import InputError, UsageError
from testing.run import ROOT, cli, without_repository_config
from tests.conftest import FIXTURES

CHECK = FIXTURES / "check"
STDIN = FIXTURES / "stdin"
REPORT = FIXTURES / "report"


def test_several_formats_in_one_run(tmp_path: Path) -> None:
    sarif, junit = tmp_path / "out.sarif", tmp_path / "out.xml"
    result = cli(
        "check", "mixed.yaml", "--config", "config.yaml",
        "-f", "sarif", "-o", str(sarif), "-f", "junit", "-o", str(junit), "-f", "text",
        cwd=REPORT,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert result.stdout == "".join(
        line + "\n" for line in (REPORT / "mixed.text.txt").read_text().splitlines() if "[suppressed" not in line
    )
    assert [r["ruleId"] for r in json.loads(sarif.read_text())["runs"][0]["results"]] == [
        "DRA200",
        "DRA200",
        "ACME100",
        "DRA001",
    ]
    assert ET.parse(junit).getroot().get("tests") == "5"


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_exit_code_does_not_depend_on_the_format(fmt: str) -> None:
    assert cli("check", str(CHECK / "legacy.yaml"), "-f", fmt).returncode == 1
    assert cli("check", str(CHECK / "current.yaml"), "-f", fmt).returncode == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-f", "text", "-f", "json"], "only one --format can go to standard output; give the others an --output"),
        (["-o", "a", "-o", "b"], "more --output than --format options"),
        (
            ["-f", "github", "-f", "sarif", "-o", "x.sarif"],
            "dralint: error: --output x.sarif pairs with --format github (they pair by position); "
            "give --format sarif first, or reorder the --output options",
        ),
        (
            ["-f", "yaml"],
            "dralint: error: unknown format 'yaml'; known: auto, concise, full, github, json, junit, sarif, text",
        ),
        (["--select", "DRA2000"], "dralint: error: --select: unknown rule 'DRA2000'; did you mean 'DRA200'?"),
        (["--config", "nowhere.yaml"], "dralint: error: --config: nowhere.yaml: no such file\n"),
        (["--baseline", "nowhere.json"], "dralint: error: --baseline: nowhere.json: no such file or directory\n"),
    ],
)
def test_usage_and_configuration_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = cli("check", str(CHECK / "current.yaml"), *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_configuration_typo_exits_2_naming_file_and_line(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".dralint.yaml").write_text("rules:\n  ignroe: [DRA200]\n")
    result = cli("check", str(CHECK / "current.yaml"), cwd=tmp_path)
    assert (result.returncode, result.stderr) == (
        2,
        "dralint: error: .dralint.yaml:2:3: rules.ignroe: unknown key 'ignroe'; did you mean 'ignore'?\n",
    )


def test_auto_format_is_github_under_github_actions() -> None:
    plain = cli("check", str(CHECK / "legacy.yaml"))
    actions = cli("check", str(CHECK / "legacy.yaml"), env={"GITHUB_ACTIONS": "true"})
    assert plain.stdout.startswith(f"{CHECK / 'legacy.yaml'}:1:1: error DRA200 ")
    assert actions.stdout.splitlines()[:2] == [
        f"::group::{CHECK / 'legacy.yaml'}",
        f"::error file={CHECK / 'legacy.yaml'},line=1,col=1,title=DRA200 api-version-not-served::Kubernetes 1.37 "
        "does not serve resource.k8s.io/v1alpha3 DeviceClass (served in 1.31-1.33) (DeviceClass/gpu.example.com); "
        f"use resource.k8s.io/v1; `dralint convert --to v1 {CHECK / 'legacy.yaml'}` rewrites it",
    ]
    assert cli("check", str(CHECK / "legacy.yaml"), "-f", "text", env={"GITHUB_ACTIONS": "true"}).stdout == plain.stdout


def _on_a_tty(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    """Run dralint with its standard output on a pseudo-terminal; returns what it printed."""
    controller, terminal = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "GITHUB_ACTIONS", "CI", "PRE_COMMIT")}
    environment.update({"PYTHONPATH": str(ROOT), **(env or {})})
    process = subprocess.Popen(
        [sys.executable, "-m", "dralint", *(without_repository_config(args) if cwd is None else args)],
        stdout=terminal,
        stderr=subprocess.DEVNULL,
        env=environment,
        cwd=cwd,
    )
    os.close(terminal)
    chunks = []
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the terminal closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait()
    os.close(controller)
    return b"".join(chunks).decode()


def test_colour_on_a_terminal_only_and_never_with_no_color() -> None:
    legacy = str(CHECK / "legacy.yaml")
    assert "\033[31merror\033[0m" in _on_a_tty("check", legacy)
    assert "\033[" not in _on_a_tty("check", legacy, env={"NO_COLOR": "1"})
    assert "\033[" not in _on_a_tty("check", legacy, "--color", "never")
    assert "\033[" not in cli("check", legacy).stdout  # piped
    assert "\033[31merror\033[0m" in cli("check", legacy, "--color", "always").stdout


def test_auto_format_shows_source_lines_to_a_person_and_one_line_to_tools(tmp_path: Path) -> None:
    legacy = str(CHECK / "legacy.yaml")
    concise = cli("check", legacy).stdout
    assert concise.splitlines()[0].startswith(f"{legacy}:1:1: error DRA200 ")
    assert len(concise.splitlines()) == 2  # one finding, one summary
    full = _on_a_tty("check", legacy, "--color", "never").replace("\r\n", "\n")
    assert full.splitlines()[1:5] == [
        "  |",
        "1 | apiVersion: resource.k8s.io/v1alpha3",
        "  | ^^^^^^^^^^ DRA200",
        "  |",
    ]
    # pre-commit and CI runners parse what they print: the one-line form there, terminal or not
    # Run from an empty directory: under pre-commit the repository around the working directory is
    # read as context, and this checkout's thousands of fixtures would only make the test slow.
    for runner in ({"PRE_COMMIT": "1"}, {"CI": "true"}):
        printed = _on_a_tty("check", legacy, "--color", "never", env=runner, cwd=tmp_path)
        assert printed.replace("\r\n", "\n") == concise
    for choice in (["--output-format", "concise"], ["-f", "text"]):
        assert _on_a_tty("check", legacy, "--color", "never", *choice).replace("\r\n", "\n") == concise
    assert cli("check", legacy, "--output-format", "full").stdout == full


def test_helm_template_output_on_stdin() -> None:
    # The # Source: lines name the templates: the findings go there (from the repository's root the
    # chart is not found, so at the template's first line; tests/read/helm_test.py has the chart).
    result = cli("check", "-", "--select", "DRA200", stdin=(STDIN / "helm-template.yaml").read_text())
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "gpu-inference/templates/claimtemplate.yaml:1:1: error DRA200 Kubernetes 1.37 does not serve "
        "resource.k8s.io/v1alpha3 ResourceClaimTemplate (served in 1.31-1.33) (ResourceClaimTemplate/serving/"
        "inference-gpu); use resource.k8s.io/v1 (v1 requests put deviceClassName, selectors, allocationMode and "
        "count under `exactly`); `dralint convert --to v1 -` rewrites it (the template is not in the working "
        "folder (nor under charts/): the position is its first line)",
        "3 files, 3 objects: 1 error, 0 warnings, 0 info",
    ]


def test_kustomize_build_output_on_stdin_with_a_file_name(tmp_path: Path) -> None:
    sarif = tmp_path / "out.sarif"
    result = cli(
        "check", "-", "--stdin-filename", "overlays/prod/rendered.yaml", "--select", "DRA200",
        "-f", "sarif", "-o", str(sarif), "-f", "text",
        stdin=(STDIN / "kustomize-build.yaml").read_text(),
    )  # fmt: skip
    assert result.stdout.splitlines()[0].startswith("overlays/prod/rendered.yaml:17:1: error DRA200 ")
    location = json.loads(sarif.read_text())["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "overlays/prod/rendered.yaml", "uriBaseId": "%SRCROOT%"}


def test_without_paths_the_current_directory_is_checked(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.yaml").write_text((CHECK / "legacy.yaml").read_text())
    result = cli("check", cwd=tmp_path)
    assert result.stdout.splitlines()[0].startswith("a.yaml:1:1: error DRA200 ")


def test_baseline_round_trip_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text((CHECK / "legacy.yaml").read_text())
    written = cli("check", "a.yaml", "--write-baseline", "baseline.json", cwd=tmp_path)
    assert (written.returncode, written.stderr) == (0, "dralint: wrote 1 findings to baseline.json\n")
    again = cli("check", "a.yaml", "--baseline", "baseline.json", "--show-suppressed", cwd=tmp_path)
    assert again.returncode == 0
    assert again.stdout.splitlines()[0].endswith("[suppressed by baseline: recorded in the baseline baseline.json]")
    via_env = cli("check", "a.yaml", cwd=tmp_path, env={"DRALINT_BASELINE": "baseline.json"})
    assert via_env.returncode == 0


def test_environment_sets_what_no_flag_sets() -> None:
    unused = str(CHECK / "unused.yaml")
    assert cli("check", unused).returncode == 0
    assert cli("check", unused, env={"DRALINT_FAIL_ON": "warning"}).returncode == 1
    assert cli("check", unused, "--fail-on", "error", env={"DRALINT_FAIL_ON": "warning"}).returncode == 0


REPO = FIXTURES / "cli" / "repo"


def test_run_writes_reports_and_returns_the_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "findings.txt"
    settings = CheckSettings(
        paths=(str(REPO / "cluster"),), outputs=(("text", str(report)),), release="1.33", no_config=True
    )
    assert run(settings) == 1
    assert capsys.readouterr().out == ""
    assert report.read_text(encoding="utf-8").splitlines()[-1] == "1 file, 1 object: 1 error, 0 warnings, 0 info"
    assert run(CheckSettings(paths=(str(REPO / "cluster"),), release="1.33", fail_on="never", no_config=True)) == 0


def test_run_rejects_an_unknown_format_before_reading_anything() -> None:
    with pytest.raises(
        UsageError, match="unknown format 'yaml'; known: auto, concise, full, github, json, junit, sarif, text"
    ):
        run(CheckSettings(paths=("does-not-exist",), outputs=(("yaml", None),)))


def test_run_reports_a_missing_path() -> None:
    with pytest.raises(InputError, match="does-not-exist: no such file or directory"):
        run(CheckSettings(paths=("does-not-exist",)))


def test_run_reads_the_inventory_as_context(capsys: pytest.CaptureFixture[str]) -> None:
    settings = CheckSettings(
        paths=(str(REPO / "cluster"),), inventory=(str(FIXTURES / "objects" / "kubectl-list.yaml"),), no_config=True
    )
    assert run(settings) == 0
    assert capsys.readouterr().out == "1 file, 1 object: 0 errors, 0 warnings, 0 info\n"  # the inventory is context
