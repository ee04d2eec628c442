"""The composite GitHub Action (action.yml), run locally: its shell steps with the environment a runner sets.

The ``uses:`` steps (setup-python, upload-sarif) are GitHub's; the test checks what they are
given. The shell steps run with bash as the runner runs them (``bash --noprofile --norc -eo
pipefail``), offline: pip looks at no index, only at the setuptools wheel virtualenv ships (for
its isolated build) and at the installed dependencies repacked as wheels (:mod:`testing.wheels`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from testing import wheels
from testing.run import ROOT
from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow

ACTION: dict[str, Any] = YAML(typ="safe", pure=True).load((ROOT / "action.yml").read_text(encoding="utf-8"))
_EXPRESSION = re.compile(r"\$\{\{\s*(?P<name>[\w.-]+)\s*\}\}")


def _evaluate(text: str, inputs: dict[str, str], action_path: Path) -> str:
    """``${{ inputs.x }}`` and ``${{ github.action_path }}``, the only expressions the shell steps use."""

    def value(match: re.Match[str]) -> str:
        name = match["name"]
        if name == "github.action_path":
            return str(action_path)
        assert name.startswith("inputs."), f"unexpected expression {name} in a shell step"
        return inputs[name.removeprefix("inputs.")]

    return _EXPRESSION.sub(value, text)


def _copy_action(target: Path) -> Path:
    """The action's checkout, as a runner downloads it (the repository without its work files)."""
    ignore = shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "build", ".*_cache", "tests", "benchmarks")
    shutil.copytree(ROOT, target, ignore=ignore)
    return target


def _build_wheels() -> str:
    """A folder with a recent setuptools wheel for pip's isolated build, offline: virtualenv's own."""
    try:
        from virtualenv.seed.wheels import embed
    except ImportError:
        pytest.skip("virtualenv (installed with pre-commit) provides the setuptools wheel for an offline build")
    return str(Path(embed.__file__).parent)


def _run_steps(tmp_path: Path, given: dict[str, str]) -> tuple[list[subprocess.CompletedProcess[str]], Path]:
    action_path = _copy_action(tmp_path / "action")
    workspace, runner_temp, tools = tmp_path / "workspace", tmp_path / "runner-temp", tmp_path / "bin"
    for folder in (workspace, runner_temp, tools):
        folder.mkdir()
    shutil.copytree(FIXTURES / "report", workspace / "manifests")
    (tools / "python").symlink_to(sys.executable)  # what setup-python puts first on PATH
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()} | given
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DRALINT_", "GITHUB_", "PYTHON"))}
    base |= {
        "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_ACTION_PATH": str(action_path),
        "RUNNER_TEMP": str(runner_temp),
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "PIP_NO_INDEX": "1",
        # virtualenv's setuptools for the isolated build, dralint's dependencies from the running environment
        "PIP_FIND_LINKS": f"{_build_wheels()} {wheels.wheelhouse(tmp_path / 'wheels')}",
    }
    results = []
    for step in ACTION["runs"]["steps"]:
        if "run" not in step:
            continue
        assert step["shell"] == "bash"
        env = base | {k: _evaluate(str(v), inputs, action_path) for k, v in step.get("env", {}).items()}
        assert "${{" not in step["run"], "inputs must reach the script through env, never pasted into it"
        script = tmp_path / "step.sh"
        script.write_text(step["run"], encoding="utf-8")
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        results.append(result)
        if result.returncode != 0:
            break
    return results, tmp_path


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
def test_action_installs_its_own_checkout_checks_and_writes_sarif(tmp_path: Path) -> None:
    sarif = "dralint.sarif"
    results, root = _run_steps(tmp_path, {"paths": "manifests/many.yaml manifests/mixed.yaml", "sarif-file": sarif})
    install = results[0]
    assert install.returncode == 0, install.stderr
    check = results[1]
    venv = root / "runner-temp" / "dralint-venv"
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import dralint; print(dralint.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")},
    )
    assert where.stdout.startswith(str(venv)), "dralint must come from the action's own checkout"
    # findings: the step fails with dralint's exit code, after annotating and writing its reports
    assert check.returncode == 1, check.stderr
    assert (root / "output").read_text(encoding="utf-8") == "exit-code=1\n"
    assert "::error file=manifests/many.yaml,line=2,col=1,title=DRA200 api-version-not-served::" in check.stdout
    assert (root / "summary.md").read_text(encoding="utf-8").startswith("## dralint\n")
    document = json.loads((root / "workspace" / sarif).read_text(encoding="utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in document["runs"][0]["results"]}
    assert uris == {"manifests/many.yaml", "manifests/mixed.yaml"}


def test_action_uploads_sarif_whenever_a_report_was_written() -> None:
    setup, install, check, upload = ACTION["runs"]["steps"]
    assert setup["uses"].startswith("actions/setup-python@")
    assert setup["with"]["python-version"] == "${{ inputs.python-version }}"
    assert install["env"] == {"DRALINT_ACTION_PATH": "${{ github.action_path }}"}
    assert check["id"] == "check" and "-f github" in check["run"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"] == {"sarif_file": "${{ inputs.sarif-file }}", "category": "dralint"}
    # after a failing check too (findings), but not when no report exists (a usage error)
    assert upload["if"].startswith("${{ always() &&") and "hashFiles(inputs.sarif-file) != ''" in upload["if"]
    assert ACTION["outputs"]["exit-code"]["value"] == "${{ steps.check.outputs.exit-code }}"
