"""``--jobs``: the corpus replicated ``--copies`` times (6,000 files, 36 MB by default), one process versus N.

Each run is a ``dralint check`` subprocess writing text and JSON reports; the outputs of every
``--jobs`` value must be the same bytes (the script fails otherwise). Figures are the best of
``--repeat`` runs: wall time (what the speed-up is about) and the CPU time of the whole process
tree (what parallelism costs: pickling the workspace to the parent, positions asked of the
workers). The machine's load average is printed beside them: on a shared machine the wall-time
speed-up is bounded by the cores the neighbours leave free. A second measurement, one copy of
the corpus with the size threshold lifted, shows why inputs under ``MIN_PARALLEL_BYTES`` are
checked in one process. Usage::

    python benchmarks/jobs_bench.py [--copies 20] [--jobs 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, record  # noqa: E402

from dralint.parallel import MIN_PARALLEL_BYTES, default_jobs  # noqa: E402

# Runs the command line with the parallel size threshold lifted (for the small-input measurement).
NO_THRESHOLD = "import dralint.parallel as p; p.MIN_PARALLEL_BYTES = 0; from dralint.cli import main; main()"


def run(args: list[str], out: Path, *, threshold: bool = True) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of the process tree, the report bytes) of one check."""
    text, report = out / "report.txt", out / "report.json"
    command = [sys.executable, "-m", "dralint"] if threshold else [sys.executable, "-c", NO_THRESHOLD]
    command += ["check", "--no-config", *args, "-f", "text", "-o", str(text), "-f", "json", "-o", str(report)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(
            f"dralint failed ({process.returncode}): {process.stderr.read().decode() if process.stderr else ''}"
        )
    return wall, usage.ru_utime + usage.ru_stime, text.read_bytes() + report.read_bytes()


def best(repeat: int, args: list[str], out: Path, *, threshold: bool = True) -> tuple[float, float, bytes]:
    runs = [run(args, out, threshold=threshold) for _ in range(repeat)]
    outputs = {output for _, _, output in runs}
    assert len(outputs) == 1, "the same input gave different output"
    return min(w for w, _, _ in runs), min(c for _, c, _ in runs), runs[0][2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=max(2, default_jobs()))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        inputs = Path(folder) / "inputs"
        for n in range(args.copies):
            shutil.copytree(CORPUS, inputs / f"copy-{n:02}")
        files = [p for p in inputs.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml", ".json")]
        size = sum(p.stat().st_size for p in files)
        out = Path(folder)
        print(f"cores: {os.cpu_count()} (usable {default_jobs()}); load average before: {_load()}")
        print(f"{args.copies} copies of the corpus: {len(files)} files, {size / 1e6:.1f} MB, best of {args.repeat}")
        print(f"{'':22} {'wall s':>8} {'CPU s':>8} {'speed-up':>9}")
        one = best(args.repeat, ["-j", "1", str(inputs)], out)
        print(f"{'--jobs 1':22} {one[0]:8.2f} {one[1]:8.2f} {'':>9}")
        many = best(args.repeat, ["-j", str(args.jobs), str(inputs)], out)
        speedup = one[0] / many[0]
        print(f"{f'--jobs {args.jobs}':22} {many[0]:8.2f} {many[1]:8.2f} {speedup:8.2f}x")
        if many[2] != one[2]:
            raise SystemExit("--jobs changed the output")
        print("outputs identical for --jobs 1 and --jobs", args.jobs)

        small = [str(CORPUS)]
        corpus_size = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
        alone = best(args.repeat, ["-j", "1", *small], out)
        forced = best(args.repeat, ["-j", str(args.jobs), *small], out, threshold=False)
        print(
            f"one copy ({corpus_size / 1e6:.2f} MB, under MIN_PARALLEL_BYTES = {MIN_PARALLEL_BYTES / 1e6:.2f} MB): "
            f"--jobs 1 {alone[0]:.2f} s, --jobs {args.jobs} forced {forced[0]:.2f} s wall"
        )
        print(f"load average after: {_load()}")
    record(
        Figure(
            f"--jobs {args.jobs} vs --jobs 1 on {args.copies} copies of the corpus ({size / 1e6:.0f} MB)",
            round(speedup, 2),
            "x faster",
            note=f"wall, best of {args.repeat}: {one[0]:.1f} s -> {many[0]:.1f} s "
            f"(CPU {one[1]:.1f} -> {many[1]:.1f} s); {os.cpu_count()} cores shared, load average {_load()}; "
            "outputs identical",
        )
    )
    return 0


def _load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
