"""The pre-commit hook definition (.pre-commit-hooks.yaml) is valid and runs dralint's console script."""

from __future__ import annotations

import subprocess
import sys

from ruamel.yaml import YAML

from tests.conftest import ROOT


def test_hook_manifest_is_valid_for_pre_commit() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_hook_runs_the_dralint_check_command_on_manifests() -> None:
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [hook["id"] for hook in hooks] == ["dralint"]
    hook = hooks[0]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert hook["entry"].split() == ["dralint", "check"]
    assert '[project.scripts]\ndralint = "dralint.cli:main"' in pyproject
    assert (hook["language"], hook["types_or"], hook["require_serial"]) == ("python", ["yaml", "json"], True)
