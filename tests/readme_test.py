"""The README's examples work.

The sample run on ``examples/`` is what dralint really prints (update it when a rule starts
finding more), and every fenced block of the sections on driver profiles, rules, configuration,
suppressions and CI is either written into a scenario or run in it.

Each section (``## ...``) starts from a fresh copy of ``tests/fixtures/readme`` (a repository
with ``manifests/`` and an inventory in ``cluster/``) plus ``rules/examples/`` as ``policies/``.
Info strings drive the test (GitHub renders only the language):

- ``yaml file=PATH``: written to PATH before the section's commands run;
- ``sh`` / ``sh exit=N``: run with bash, one block at a time; the block must exit with N (if
  given) and never with 2 or 3 unless N says so;
- ``text output``: lines the previous command prints, in order (``...`` skips lines);
- the GitHub Actions workflow's ``run:`` steps are run too (not ``pip install``), and the SARIF
  file it uploads must exist and be valid.

``helm`` and ``kustomize`` are stand-ins that print rendered fixtures.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from dralint import cli
from testing.run import ROOT
from tests.conftest import FIXTURES

SECTIONS = ("From device plugins to DRA", "Driver profiles", "Rules", "Configuration", "Suppressing findings", "CI and pre-commit")
_FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)


@dataclass
class Block:
    language: str
    options: dict[str, str]
    body: str
    line: int


@dataclass
class Section:
    title: str
    blocks: list[Block] = field(default_factory=list)


def _sections() -> list[Section]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"^## (.+)$", text, re.MULTILINE)]
    out = []
    for n, (start, title) in enumerate(starts):
        if title not in SECTIONS:
            continue
        end = starts[n + 1][0] if n + 1 < len(starts) else len(text)
        section = Section(title)
        for match in _FENCE.finditer(text, start, end):
            words = match.group("info").split()
            options = dict(w.split("=", 1) if "=" in w else (w, "") for w in words[1:])
            line = text.count("\n", 0, match.start()) + 1
            section.blocks.append(Block(words[0] if words else "", options, match.group("body"), line))
        out.append(section)
    return out


SECTION_LIST = _sections()


def _bin(directory: Path) -> Path:
    """``dralint`` running this checkout, and stand-ins for ``helm`` and ``kustomize``."""
    directory.mkdir()
    scripts = {
        "dralint": f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m dralint "$@"\n',
        "helm": f'#!/bin/sh\ncat "{FIXTURES / "stdin" / "helm-template.yaml"}"\n',
        "kustomize": f'#!/bin/sh\ncat "{FIXTURES / "stdin" / "kustomize-build.yaml"}"\n',
    }
    for name, body in scripts.items():
        path = directory / name
        path.write_text(body)
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return directory


def _run(script: str, cwd: Path, bin_dir: Path) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DRALINT_", "GITHUB_"))}
    environment.pop("NO_COLOR", None)
    environment["PATH"] = f"{bin_dir}{os.pathsep}{environment['PATH']}"
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=environment, capture_output=True, text=True, check=False)


def _expect_lines(expected: str, actual: str, where: str) -> None:
    remaining = actual.splitlines()
    for line in expected.splitlines():
        if line == "...":
            continue
        assert line in remaining, f"{where}: the output lacks (or misorders) {line!r}; it was:\n{actual}"
        remaining = remaining[remaining.index(line) + 1 :]


def _workflow(body: str, scenario: Path, bin_dir: Path, where: str) -> None:
    workflow = YAML(typ="safe", pure=True).load(body)
    steps = workflow["jobs"]["dralint"]["steps"]
    for step in steps:
        command = step.get("run", "")
        if command and not command.startswith("pip install"):
            result = _run(command, scenario, bin_dir)
            assert result.returncode in (0, 1), f"{where}: {command!r} failed: {result.stderr}"
    (upload,) = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif")]
    sarif = json.loads((scenario / upload["with"]["sarif_file"]).read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["tool"]["driver"]["name"] == "dralint"


@pytest.mark.parametrize("section", SECTION_LIST, ids=[s.title for s in SECTION_LIST])
def test_readme_section_examples_work(section: Section, tmp_path: Path) -> None:
    scenario = tmp_path / "repo"
    shutil.copytree(FIXTURES / "readme", scenario)
    (scenario / ".git").mkdir()
    shutil.copytree(ROOT / "rules" / "examples", scenario / "policies")
    shutil.copytree(ROOT / "examples" / "migrate", scenario / "examples" / "migrate")
    bin_dir = _bin(tmp_path / "bin")
    for block in section.blocks:
        if "file" in block.options:
            target = scenario / block.options["file"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.body, encoding="utf-8")
    last: subprocess.CompletedProcess[str] | None = None
    ran = 0
    for block in section.blocks:
        where = f"README.md:{block.line} ({section.title})"
        if block.language == "sh":
            last = _run(block.body, scenario, bin_dir)
            ran += 1
            expected = int(block.options["exit"]) if "exit" in block.options else None
            if expected is not None:
                assert last.returncode == expected, f"{where}: exit {last.returncode}, {last.stdout}{last.stderr}"
            else:
                assert last.returncode in (0, 1), f"{where}: exit {last.returncode}: {last.stderr}"
        elif block.language == "text" and "output" in block.options:
            assert last is not None, f"{where}: output block without a command before it"
            _expect_lines(block.body, last.stdout + last.stderr, where)
        elif block.options.get("file", "").startswith(".github/workflows/"):
            _workflow(block.body, scenario, bin_dir, where)
            ran += 1
        elif block.options.get("file") == ".pre-commit-config.yaml":
            config = YAML(typ="safe", pure=True).load(block.body)
            hooks = YAML(typ="safe", pure=True).load((ROOT / ".pre-commit-hooks.yaml").read_text())
            ids = {hook["id"] for hook in hooks}
            assert {hook["id"] for repo in config["repos"] for hook in repo["hooks"]} <= ids
    assert ran, f"{section.title}: no example was run"


def test_readme_has_the_tested_sections() -> None:
    assert [s.title for s in SECTION_LIST] == list(SECTIONS)


def test_readme_sample_output_is_the_real_output(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ dralint check examples/\n", 1)[1].split("$ echo $?\n", 1)
    sample, exit_code = block[0], block[1].split("\n", 1)[0]
    monkeypatch.chdir(ROOT)
    for variable in ("NO_COLOR", "GITHUB_ACTIONS"):
        monkeypatch.delenv(variable, raising=False)
    result = CliRunner().invoke(cli.main, ["check", "examples/"])
    assert (result.stdout, str(result.exit_code)) == (sample, exit_code)
