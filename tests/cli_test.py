"""The command line (dralint/cli.py): parsing, exit codes, outputs; golden files in tests/fixtures/cli."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dralint import __version__, cli
from dralint.commands import check as check_command
from dralint.config.resolve import Layer, Ref
from tests.conftest import FIXTURES, ROOT

CLI = FIXTURES / "cli"
SUPPORTED = "1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37"


@pytest.fixture(autouse=True)
def _in_fixture_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CLI)
    monkeypatch.delenv("NO_COLOR", raising=False)


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli.main, list(args), input=stdin)


def golden(name: str) -> str:
    return (CLI / name).read_text(encoding="utf-8")


def test_check_directory_prints_findings_and_summary() -> None:
    result = invoke("check", "repo")
    assert result.exit_code == 1
    assert result.stdout == golden("repo.text.expected")
    assert result.stderr == ""


def test_check_json_format_follows_the_contract() -> None:
    result = invoke("check", "repo", "--format", "json")
    assert result.exit_code == 1
    assert result.stdout == golden("repo.json.expected")
    document = json.loads(result.stdout)
    assert set(document) == {"version", "findings", "summary", "target"}
    for finding in document["findings"]:
        assert {"rule", "name", "severity", "message", "file", "line", "column", "object", "path"} <= set(finding)
        if finding["object"] is not None:
            assert set(finding["object"]) == {"apiVersion", "kind", "namespace", "name"}


def test_check_target_release_and_feature_gates() -> None:
    result = invoke("check", "repo", "--kubernetes-version", "v1.33.4", "--feature-gates", "DRAAdminAccess=true")
    assert result.exit_code == 1
    assert result.stdout == golden("repo-1.33.text.expected")


def test_check_writes_each_format_to_its_output(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = invoke("check", "repo", "-f", "json", "-o", str(report), "-f", "text")
    assert result.exit_code == 1
    assert report.read_text(encoding="utf-8") == golden("repo.json.expected")
    assert result.stdout == golden("repo.text.expected")


def test_check_reads_stdin_with_a_display_name() -> None:
    text = (CLI / "repo" / "apps" / "claims.yaml").read_text(encoding="utf-8")
    result = invoke("check", "-", "--stdin-filename", "apps/claims.yaml", stdin=text)
    assert result.exit_code == 1
    assert result.stdout == golden("stdin.text.expected")


def test_check_clean_input_exits_0() -> None:
    result = invoke("check", "repo/cluster")
    assert result.exit_code == 0
    assert result.stdout == "1 file, 1 object: 0 errors, 0 warnings, 0 info\n"


def test_check_fail_on_never_exits_0() -> None:
    assert invoke("check", "repo", "--fail-on", "never").exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere.yaml"], "dralint: error: nowhere.yaml: no such file or directory"),
        (["repo/docs"], "dralint: error: repo/docs: no *.yaml, *.yml or *.json files in this directory"),
        (
            ["repo", "--kubernetes-version", "1.30"],
            f"dralint: error: --kubernetes-version: unsupported Kubernetes version '1.30'; supported: {SUPPORTED}",
        ),
        (
            ["repo", "--feature-gates", "DRAAdminAccess"],
            "dralint: error: --feature-gates: invalid feature gate 'DRAAdminAccess': expected Name=true or Name=false",
        ),
        (
            ["repo", "--format", "yaml"],
            "dralint: error: unknown format 'yaml'; known: auto, concise, full, github, json, junit, sarif, text",
        ),
        (
            ["repo", "-f", "json", "-o", "missing-dir/out.json"],
            "dralint: error: cannot write missing-dir/out.json: No such file or directory",
        ),
    ],
)
def test_check_usage_and_input_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = invoke("check", *args)
    assert result.exit_code == 2
    assert result.stderr == message + "\n"
    assert result.stdout == ""


def test_check_without_paths_checks_the_current_directory() -> None:
    result = invoke("check")
    assert (result.exit_code, result.stdout) == (1, invoke("check", ".").stdout)
    assert result.stdout.startswith("repo/apps/broken.yaml:5:11: error DRA001 ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-f", "text", "-f", "json"], "only one --format can go to standard output; give the others an --output"),
        (["-o", "a.txt", "-o", "b.txt"], "more --output than --format options"),
    ],
)
def test_check_format_and_output_pairing_errors(args: list[str], message: str) -> None:
    result = invoke("check", "repo", *args)
    assert result.exit_code == 2
    assert result.stderr == f"dralint: error: {message}\n"


def test_check_explicit_hidden_directory_is_read() -> None:
    result = invoke("check", "repo/.github")
    assert result.exit_code == 0
    # read, and then skipped: a workflow is not a manifest
    assert result.stdout == (
        "0 files, 0 objects: 0 errors, 0 warnings, 0 info; 1 file skipped, not Kubernetes manifests (repo/.github/ignored.yaml)\n"
    )


def test_internal_errors_exit_3_with_a_report_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(settings: check_command.CheckSettings) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(check_command, "run", explode)
    result = invoke("check", "repo")
    assert result.exit_code == 3
    assert result.stderr.startswith("dralint: internal error: RuntimeError: boom (rerun as dralint --debug COMMAND")


def test_check_builds_settings_from_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[check_command.CheckSettings] = []
    monkeypatch.setattr(check_command, "run", lambda settings: seen.append(settings) or 0)
    result = invoke(
        "check", "a.yaml", "-", "-i", "inv.yaml", "-f", "json", "-o", "out.json", "--fail-on", "warning",
        "--kubernetes-version", "1.35.1", "--feature-gates", "DRAConsumableCapacity=true", "--stdin-filename",
        "x.yaml", "--no-simulate", "--color", "always", "-j", "3", "--no-ignore-files", "--changed=main",
        "-q", "--statistics",
    )  # fmt: skip
    assert result.exit_code == 0
    assert seen == [
        check_command.CheckSettings(
            paths=("a.yaml", "-"),
            outputs=(("json", "out.json"),),
            flags=Layer(
                release=Ref("1.35.1", "--kubernetes-version"),
                feature_gates=Ref("DRAConsumableCapacity=true", "--feature-gates"),
                inventory=("inv.yaml",),
                fail_on=Ref("warning", "--fail-on"),
                named={("inventory", "inv.yaml"): Ref("inv.yaml", "--inventory")},  # for errors about the path
            ),
            stdin_name="x.yaml",
            simulate=False,
            color=True,
            jobs=3,
            ignore_files=False,
            changed="main",
            freeze_loaded=True,  # the command line asks for gc.freeze after loading (dralint/process.py)
            progress=True,  # a progress line when standard error is a terminal (dralint/progress.py)
            quiet=True,
            statistics=True,
            cache=True,  # the results cache, unless --no-cache (dralint/pipeline/cache.py)
        )
    ]
    assert invoke("check", "a.yaml", "--no-cache").exit_code == 0
    assert seen[-1].cache is False


def test_color_is_off_for_pipes_and_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    result = invoke("check", "repo/apps/claims.yaml", "--color", "always")
    assert "\033[1mrepo/apps/claims.yaml:1:1\033[0m: \033[31merror\033[0m DRA200" in result.stdout
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\033[" not in invoke("check", "repo/apps/claims.yaml").stdout


def test_version_and_help() -> None:
    assert invoke("--version").stdout == f"dralint, version {__version__}\n"
    help_text = invoke("check", "--help").stdout
    for option in (
        "--format",
        "--output",
        "--fail-on",
        "--kubernetes-version",
        "--feature-gates",
        "--inventory",
        "--stdin-filename",
    ):
        assert option in help_text


def run_module(*args: str, cwd: Path = CLI) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "dralint", *args], cwd=cwd, env=env, capture_output=True, text=True)


def test_python_dash_m_dralint_runs_the_cli() -> None:
    version = run_module("--version")
    assert (version.returncode, version.stdout) == (0, f"dralint, version {__version__}\n")
    result = run_module("check", "repo")
    assert (result.returncode, result.stdout, result.stderr) == (1, golden("repo.text.expected"), "")


@pytest.mark.parametrize(("args", "code"), [(["--version"], 0), (["check", "repo"], 1), (["check", "nowhere"], 2)])
def test_the_program_runs_exit_handlers_and_keeps_the_exit_code(args: list[str], code: int) -> None:
    # It exits without tearing the interpreter down (cli.entry): what atexit was given still runs, after the command.
    program = "import atexit, sys; atexit.register(print, 'at exit'); sys.argv[0] = 'dralint'; from dralint.cli import entry; entry()"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", program, *args], cwd=CLI, env=env, capture_output=True, text=True)
    assert (result.returncode, result.stdout.splitlines()[-1]) == (code, "at exit")
    assert result.stdout.removesuffix("at exit\n") == run_module(*args).stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="/dev/full is Linux's always-full device")
@pytest.mark.parametrize(
    "args",
    [
        ["check", "repo", "-f", "json", "-o", "/dev/full"],  # a report file
        ["check", "repo", "-f", "sarif", "-o", "/dev/full"],
        ["check", "repo", "-f", "concise"],  # standard output (below)
        ["explain", "DRA200"],
        ["rules"],
    ],
)
def test_a_full_disk_is_one_error_line_and_exit_2(args: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open("/dev/full", "w", encoding="utf-8") as full:
        result = subprocess.run(
            [sys.executable, "-m", "dralint", *args], cwd=CLI, env=env, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert (result.returncode, result.stderr) == (
        2,
        "dralint: error: cannot write the output: No space left on device\n",
    )


def _with_failing_check(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run the real command line with the schema check replaced by one that raises (tests/failing_check.py)."""
    program = (
        "import sys; from dralint.checks import registry; import dralint.pipeline.parallel as parallel; "
        "from tests import failing_check; "
        "registry.CHECKS['schema'] = failing_check.check; parallel.MIN_PARALLEL_BYTES = 0; "
        "from dralint.cli import main; sys.argv[0] = 'dralint'; main()"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DRALINT_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-c", program, *args], env=env, cwd=tmp_path, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_check_that_raises_is_one_line_and_exit_3(tmp_path: Path, jobs: str) -> None:
    # With --jobs 2 (and no size threshold) the error is raised in a worker process.
    for copy in ("a", "b"):
        shutil.copytree(ROOT / "examples", tmp_path / copy)
    result = _with_failing_check("check", "a", "b", "--jobs", jobs, tmp_path=tmp_path)
    assert result.returncode == 3
    assert result.stdout == ""
    assert result.stderr == (
        "dralint: internal error: ZeroDivisionError: a check divided by zero on two lines (rerun as dralint --debug "
        "COMMAND ... for a traceback and report it at https://github.com/dralint/dralint/issues)\n"
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_debug_shows_the_traceback_of_an_internal_error(tmp_path: Path, jobs: str) -> None:
    for copy in ("a", "b"):
        shutil.copytree(ROOT / "examples", tmp_path / copy)
    result = _with_failing_check("--debug", "check", "a", "b", "--jobs", jobs, tmp_path=tmp_path)
    assert result.returncode == 3
    # With --jobs 2 the worker's traceback comes first, as the cause of the one in the parent.
    assert result.stderr.startswith(
        ("Traceback (most recent call last):\n", "dralint.pipeline.parallel._RemoteTraceback:")
    )
    assert 'tests/failing_check.py", line 13, in check' in result.stderr
    assert result.stderr.endswith("ZeroDivisionError: a check divided by zero\non two lines\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["simulate"],
            "dralint: error: simulate needs the manifests whose pods to place: give PATHS (files, directories, or - for "
            "standard input), or pipe them in",
        ),
        (
            ["check", "--show-supressed"],
            "dralint: error: no such option '--show-supressed'; did you mean '--show-suppressed'? "
            "(see 'dralint check --help')",
        ),
        (["check", "--fail-on"], "dralint: error: option '--fail-on' requires an argument (see 'dralint --help')"),
        (["chek"], "dralint: error: no such command 'chek'; did you mean 'check'? (see 'dralint --help')"),
    ],
)
def test_command_line_mistakes_are_one_dralint_error_line(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert (result.exit_code, result.stderr, result.stdout) == (2, message + "\n", "")


def test_an_error_line_echoing_a_huge_value_is_cut_to_one_readable_line() -> None:
    rule = "X" * 100_000
    result = invoke("explain", rule)
    assert result.exit_code == 2
    expected = f"unknown rule {rule!r}"
    marker = f" … (cut from {len(expected)} characters)"
    assert result.stderr == "dralint: error: " + expected[: 1_000 - len(marker)] + marker + "\n"


def test_a_report_never_replaces_a_checked_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(CLI / "repo", tmp_path / "repo")
    monkeypatch.chdir(tmp_path)
    manifest = Path("repo") / "apps" / "claims.yaml"
    before = manifest.read_bytes()
    result = invoke("check", "repo", "-f", "json", "-o", str(manifest))
    assert (result.exit_code, result.stderr) == (
        2,
        f"dralint: error: -o {manifest}: it is one of the manifests read; write the report to another file\n",
    )
    assert manifest.read_bytes() == before
    # A report written into the checked directory is read back as input next time, and replaced.
    for _ in range(2):
        assert invoke("check", "repo", "-f", "json", "-o", "repo/report.json").exit_code == 1
    assert json.loads(Path("repo/report.json").read_text(encoding="utf-8"))["summary"]["files"] >= 1


@pytest.mark.parametrize("command", ["simulate", "plan"])
def test_a_dry_run_report_never_replaces_a_manifest(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    slices = next(path for path in sorted(Path("examples/cluster").glob("*.yaml")))
    before = slices.read_bytes()
    result = invoke(command, "examples/apps", "-i", "examples/cluster", "-f", "json", "-o", str(slices))
    assert (result.exit_code, result.stderr) == (
        2,
        f"dralint: error: -o {slices}: it is one of the manifests read; write the report to another file\n",
    )
    assert slices.read_bytes() == before


@pytest.mark.parametrize(
    ("command", "name", "starts"),
    [
        ("check", "report.json", '{\n  "version": 1,\n  "findings": ['),
        ("check", "report.sarif", '{\n  "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/'),
        ("check", "report.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites'),
        ("check", "report.txt", "repo/apps/broken.yaml:5:11: error DRA001 "),
        ("simulate", "report.json", '{\n  "version": 1,\n  "target": {'),
        ("simulate", "report.html", "<!DOCTYPE html>\n"),
    ],
)
def test_an_output_without_a_format_takes_the_format_its_extension_names(
    tmp_path: Path, command: str, name: str, starts: str
) -> None:
    inputs = "repo" if command == "check" else str(ROOT / "examples")  # simulate needs an inventory
    result = invoke(command, inputs, "-o", str(tmp_path / name))
    assert result.exit_code in (0, 1) and result.stdout == ""
    assert (tmp_path / name).read_text(encoding="utf-8").startswith(starts)


def test_an_html_page_is_not_written_to_a_terminal(tmp_path: Path) -> None:
    """Run as in a terminal (standard output a pseudo-terminal): the page needs a file."""
    import pty

    controller, terminal = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DRALINT_")}
    environment["PYTHONPATH"] = str(ROOT)
    process = subprocess.run(
        [sys.executable, "-m", "dralint", "simulate", str(ROOT / "examples"), "-f", "html"],
        cwd=CLI,
        env=environment,
        stdout=terminal,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    os.close(terminal)
    os.close(controller)
    assert (process.returncode, process.stderr) == (
        2,
        "dralint: error: --format html writes a web page: give --output FILE.html (or redirect standard output)\n",
    )
    piped = invoke("simulate", str(ROOT / "examples"), "-f", "html")  # a pipe is fine
    assert piped.stdout.startswith("<!DOCTYPE html>\n")
