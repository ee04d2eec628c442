"""Every script of ``scripts/`` and ``benchmarks/`` answers ``--help`` without doing its work, and a
missing input (the shared reference data beside the repository, a folder given) is one line on
standard error and exit code 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from testing.run import ROOT

SCRIPTS = sorted(str(p.relative_to(ROOT)) for folder in ("scripts", "benchmarks") for p in (ROOT / folder).glob("*.py"))
MISSING = "/nonexistent/shared"


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DRALINT_")}
    environment["DRALINT_SHARED"] = MISSING
    return subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120, check=False
    )


def test_every_script_is_listed() -> None:
    assert "scripts/check_profiles.py" in SCRIPTS and "benchmarks/simulate_bench.py" in SCRIPTS
    assert len(SCRIPTS) == 31


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_help_describes_it_and_does_nothing_else(script: str) -> None:
    before = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=False)
    result = _run(script, "--help")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith(f"usage: {Path(script).name} ")
    after = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert after.stdout == before.stdout  # nothing was generated or written


SHARED_CORPUS = f"{MISSING}/corpus is missing: the corpus of published manifests"


@pytest.mark.parametrize(
    ("arguments", "line"),
    [
        (["scripts/check_profiles.py"], f"check_profiles.py: error: {MISSING}/corpus/INDEX.tsv is missing"),
        (["scripts/fuzz.py", "--corpus", "no/such/corpus", "--examples", "1"], "fuzz.py: error: no/such/corpus is missing"),
        (["benchmarks/allocator_bench.py"], f"allocator_bench.py: error: {MISSING}/conformance/scale is missing"),
        (["benchmarks/fuzz_bench.py", "--corpus", "no/such/corpus"], "fuzz_bench.py: error: no/such/corpus is missing"),
        (["benchmarks/jobs_bench.py"], f"jobs_bench.py: error: {SHARED_CORPUS}"),
        (["benchmarks/load_bench.py"], f"load_bench.py: error: {SHARED_CORPUS}"),
        (["benchmarks/profile_bench.py"], f"profile_bench.py: error: {MISSING}/corpus/INDEX.tsv is missing"),
        (["benchmarks/suppress_bench.py"], f"suppress_bench.py: error: {MISSING}/corpus/INDEX.tsv is missing"),
        (["benchmarks/validate_bench.py"], f"validate_bench.py: error: {MISSING}/corpus/INDEX.tsv is missing"),
    ],
)
def test_script_without_its_input_says_so_in_one_line(arguments: list[str], line: str) -> None:
    result = _run(*arguments)
    assert result.returncode == 2
    (error,) = result.stderr.splitlines()
    assert error.startswith(line)
    assert f"the shared reference data sits beside the repository, here {MISSING}: set DRALINT_SHARED=DIR" in error
