"""Fuzzing at length: inputs run, crashes, and the worst time and memory, per family.

Runs ``scripts/fuzz.py`` once per family (mutated manifests checked against the examples'
cluster; mutated inventories given with ``--inventory`` to a check of the example apps), each
case through ``check`` and ``simulate`` in every output format, with a fixed seed. The worst
case is the most CPU one case took in process (check and simulate, every format); memory is
the fuzzing process's own peak, an upper bound of every case's, and the peak of the command
lines run every ``--cli-every`` cases (interpreter start-up included). The aim of issue 18 is
no crash, no run over 20 s of CPU, none over 1 GB. Usage::

    python benchmarks/fuzz_bench.py [--examples 1500] [--seed 18] [--families manifests inventories] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, record, require  # noqa: E402

from testing.fuzz import FAMILIES  # noqa: E402

CPU_LIMIT_S = 20
MEMORY_LIMIT_MB = 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1500, help="inputs per family")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--cli-every", type=int, default=50)
    parser.add_argument("--families", nargs="*", choices=FAMILIES, default=list(FAMILIES))
    parser.add_argument("--corpus", default=None, help="the corpus folder (default: shared/corpus beside)")
    args = parser.parse_args()
    if args.corpus:
        require(Path(args.corpus), "the corpus folder given", flag="another --corpus")
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        for family in args.families:
            report = Path(folder) / f"{family}.json"
            command = [
                sys.executable, "scripts/fuzz.py", "--family", family, "--examples", str(args.examples),
                "--seed", str(args.seed), "--cli-every", str(args.cli_every), "--report", str(report),
                "--keep", str(Path(folder) / "cases"), *(["--corpus", args.corpus] if args.corpus else []),
            ]  # fmt: skip
            result = subprocess.run(
                command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True
            )
            print(result.stdout.strip())
            if result.returncode != 0:
                print(result.stderr.strip()[-3000:])
                failed += 1
            if not report.exists():
                continue
            stats = json.loads(report.read_text(encoding="utf-8"))
            worst_cpu = max(stats["worst_cpu_s"], stats["worst_cli_cpu_s"])
            worst_mb = max(stats["peak_rss_mb"], stats["worst_cli_rss_mb"])
            met = stats["crashes"] == 0 and worst_cpu <= CPU_LIMIT_S and worst_mb <= MEMORY_LIMIT_MB
            codes = stats["check_exit_codes"]
            record(
                Figure(
                    f"fuzzing: mutated {family}, check + simulate in every format",
                    stats["cases"],
                    "inputs",
                    target=f"0 crashes, <= {CPU_LIMIT_S} s CPU and <= {MEMORY_LIMIT_MB} MB each",
                    met=met,
                    note=(
                        f"{stats['crashes']} crashes; worst case {stats['worst_cpu_s']:.2f} s CPU in process, "
                        f"peak {stats['peak_rss_mb']:.0f} MB (fuzzing process); {stats['cli_runs']} command lines: "
                        f"worst {stats['worst_cli_cpu_s']:.2f} s CPU, {stats['worst_cli_rss_mb']:.0f} MB; "
                        f"check exit 0/1/2 {codes['0']}/{codes['1']}/{codes['2']}; "
                        f"{stats['documents']} documents mutated, seed {stats['seed']}, {stats['seconds']:.0f} s"
                    ),
                )
            )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
