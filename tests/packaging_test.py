"""The wheel carries everything dralint reads at run time: the rule catalogue, the schemas and the driver profiles
(rules/, schemas/, profiles/)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from testing import wheels
from tests.conftest import ROOT


def _run(*args: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=False)


@pytest.mark.slow
def test_an_installed_wheel_checks_the_examples_from_outside_the_checkout(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DRALINT_CONFIG")}
    # Offline: the dependencies come from the environment running the tests, repacked as wheels
    # (a venv's --system-site-packages would see the base interpreter's packages, not a virtualenv's).
    env |= {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels.wheelhouse(tmp_path / "wheels"))}
    # A copy of what the build reads, so that building leaves no build/ or egg-info in the checkout.
    source = tmp_path / "source"
    for folder in ("dralint", "rules", "schemas", "profiles"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for file in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / file, source / file)
    built = _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", tmp_path / "dist", source,
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("dralint-*.whl")
    venv = tmp_path / "venv"
    created = _run(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=env)
    assert created.returncode == 0, created.stderr
    python = venv / "bin" / "python"
    installed = _run(python, "-m", "pip", "install", wheel, cwd=tmp_path, env=env)
    assert installed.returncode == 0, installed.stderr

    work = tmp_path / "work"  # outside the checkout, with a configuration file (its schema is read too)
    shutil.copytree(ROOT / "examples", work / "examples")
    (work / ".dralint.yaml").write_text("failOn: error\nrules:\n  ignore: [DRA804]\n", encoding="utf-8")
    where = _run(
        python,
        "-c",
        "from dralint import data; print(*map(data.folder, ('rules', 'schemas', 'profiles')))",
        cwd=work,
        env=env,
    )
    assert where.stdout.split() == [
        str(venv / "share" / "dralint" / "rules"),
        str(venv / "share" / "dralint" / "schemas"),
        str(venv / "share" / "dralint" / "profiles"),
    ]
    for folder in ("rules", "profiles"):  # their YAML files decoded ahead of time (dralint/data.py)
        assert (venv / "share" / "dralint" / folder / "decoded.json").is_file()

    result = _run(venv / "bin" / "dralint", "check", "examples/", cwd=work, env=env)
    in_tree = _run(
        sys.executable, "-m", "dralint", "check", "examples/", cwd=work, env={**env, "PYTHONPATH": str(ROOT)}
    )
    assert (result.returncode, result.stderr) == (1, "")
    assert "examples/apps/legacy/benchmark.yaml:3:1: error DRA200 " in result.stdout
    assert (result.returncode, result.stdout, result.stderr) == (in_tree.returncode, in_tree.stdout, in_tree.stderr)
