"""Same input, same bytes out: across runs, hash seeds and numbers of jobs (a subprocess per run)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from dralint.pipeline import parallel
from tests.conftest import CORPUS, FIXTURES, ROOT, require_shared


def run_check(
    seed: str, out: Path, jobs: int = 1, inputs: list[str] | None = None
) -> tuple[int, bytes, bytes, bytes, bytes]:
    corpus = require_shared(CORPUS)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed}
    text, json_report, sarif = out / f"{seed}-{jobs}.txt", out / f"{seed}-{jobs}.json", out / f"{seed}-{jobs}.sarif"
    args = inputs or [str(corpus), str(FIXTURES / "cli" / "repo"), str(FIXTURES / "workloads")]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "dralint",
            "check",
            *args,
            "-f",
            "text",
            "-o",
            str(text),
            "-f",
            "json",
            "-o",
            str(json_report),
            "-f",
            "sarif",
            "-o",
            str(sarif),
            "--jobs",
            str(jobs),
        ],
        env=env,
        capture_output=True,
        check=False,
    )
    return (
        result.returncode,
        result.stdout + result.stderr,
        text.read_bytes(),
        json_report.read_bytes(),
        sarif.read_bytes(),
    )


def test_output_is_byte_identical_across_hash_seeds(tmp_path: Path) -> None:
    first = run_check("0", tmp_path)
    second = run_check("4242", tmp_path)
    assert first[0] == 1  # the corpus has findings
    assert first[1] == b""
    assert len(first[2].splitlines()) > 50
    assert first == second


def test_output_is_byte_identical_for_any_number_of_jobs(tmp_path: Path) -> None:
    # Two copies of the corpus are above parallel.MIN_PARALLEL_BYTES: with --jobs 2 and 3 they
    # are checked in workers (and findings of the global checks positioned by them).
    corpus = require_shared(CORPUS)
    inputs = [str(tmp_path / "a"), str(tmp_path / "b"), str(FIXTURES / "cli" / "repo")]
    shutil.copytree(corpus, inputs[0])
    shutil.copytree(corpus, inputs[1])
    assert sum(path.stat().st_size for path in tmp_path.rglob("*.yaml")) > parallel.MIN_PARALLEL_BYTES
    alone = run_check("1", tmp_path, jobs=1, inputs=inputs)
    assert alone[0] == 1 and alone[1] == b""
    assert b"DRA300" in alone[2]
    assert run_check("2", tmp_path, jobs=2, inputs=inputs) == alone
    assert run_check("3", tmp_path, jobs=3, inputs=inputs) == alone
