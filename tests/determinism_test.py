"""Same input, same bytes out: across runs and hash seeds (a subprocess per seed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import CORPUS, FIXTURES, ROOT, require_shared


def run_check(seed: str, out: Path) -> tuple[int, bytes, bytes, bytes]:
    corpus = require_shared(CORPUS)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed}
    text, json_report = out / f"{seed}.txt", out / f"{seed}.json"
    args = [str(corpus), str(FIXTURES / "cli" / "repo"), str(FIXTURES / "workloads")]
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
        ],
        env=env,
        capture_output=True,
        check=False,
    )
    return result.returncode, result.stdout + result.stderr, text.read_bytes(), json_report.read_bytes()


def test_output_is_byte_identical_across_hash_seeds(tmp_path: Path) -> None:
    first = run_check("0", tmp_path)
    second = run_check("4242", tmp_path)
    assert first[0] == 1  # the corpus has findings
    assert first[1] == b""
    assert len(first[2].splitlines()) > 50
    assert first == second
