"""Hostile input at full size: time, peak memory and the finding, with the default limits.

The inputs come from ``testing/hostile.py`` (the tests use the same generators, smaller): an
alias bomb of 10**9 values, nesting of 100 and of 300 levels, a 50 MB file, 100,000 documents,
a CEL selector whose cost blows up (beside devices), a claim whose allocation search is
exponential, and 2,000 claims with selectors of their own beside 10,000 devices (DRA420 and the
dry-run evaluate each on each device's projection). Each is one ``dralint check`` subprocess; the wall time
and the peak resident memory of that process are printed with the first finding. The 50 MB
file and the 100,000 documents are also run with the limits raised, to show what a full check
of them would cost. Usage::

    python benchmarks/hostile_bench.py [--skip-raised]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import PEAK_COMMAND, Figure, peak_mb, record  # noqa: E402

from testing import hostile, hostile_cel  # noqa: E402


def _costly() -> str:
    devices = hostile.exponential_search(2).replace(
        "count: 1}", "count: 1}\n      - name: costly\n        exactly: {deviceClassName: costly.example.com}"
    )
    return devices + "---\n" + hostile.costly_selector(8) + "\n"


CASES: list[tuple[str, str, Callable[[], str]]] = [
    ("alias bomb (10**9 values)", "bomb.yaml", lambda: hostile.alias_bomb(levels=9, width=10)),
    ("100-level nesting", "deep-100.json", lambda: hostile.deep_nesting(100)),
    ("300-level nesting", "deep-300.json", lambda: hostile.deep_nesting(300)),
    ("50 MB file", "big.yaml", lambda: hostile.big_file(50_000_000)),
    ("100,000 documents", "many.yaml", lambda: hostile.many_documents(100_000)),
    ("CEL cost blow-up (10**8 steps)", "costly.yaml", _costly),
    ("exponential allocation search", "search.yaml", lambda: hostile.exponential_search(20)),
    ("2,000 selectors x 10,000 devices", "selectors.yaml", lambda: hostile_cel.many_selectors(2000, 1250)),
]
RAISED = "limits: {maxFileBytes: 67108864, maxDocumentsPerFile: 200000}\n"


def run(path: Path, config: Path | None) -> tuple[float, float, int, str]:
    """(wall seconds, peak MB, exit code, first finding or error line) of one check."""
    command = [sys.executable, "-c", PEAK_COMMAND, "check", "-j", "1", str(path)]
    command += ["--config", str(config)] if config else ["--no-config"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    peak, stderr = peak_mb(result.stderr)
    lines = [line for line in (result.stdout + stderr).splitlines() if line.strip()]
    first = next((line for line in lines if " DRA" in line), lines[0] if lines else "")
    return wall, peak, result.returncode, first.split(": ", 1)[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-raised", action="store_true", help="skip the full checks with raised limits")
    args = parser.parse_args()
    print(f"{'input':32} {'size':>9} {'limits':>8} {'wall s':>7} {'peak MB':>8} exit  first finding")
    with tempfile.TemporaryDirectory() as folder:
        for label, name, make in CASES:
            path = Path(folder) / name
            path.write_text(make(), encoding="utf-8")
            size = f"{path.stat().st_size / 1e6:.2f} MB"
            modes: list[tuple[str, Path | None]] = [("default", None)]
            if not args.skip_raised and name in ("big.yaml", "many.yaml"):
                raised = Path(folder) / "raised.yaml"
                raised.write_text(RAISED, encoding="utf-8")
                modes.append(("raised", raised))
            for mode, config in modes:
                wall, peak, code, finding = run(path, config)
                print(f"{label:32} {size:>9} {mode:>8} {wall:7.2f} {peak:8.0f} {code:>4}  {finding[:140]}")
                record(
                    Figure(
                        f"hostile input: {label}, {mode} limits",
                        round(wall, 2),
                        "s",
                        note=f"peak {peak:.0f} MB, exit {code}: {finding[:150]}",
                    )
                )
            path.unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
