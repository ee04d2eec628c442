"""``--jobs``: the corpus replicated ``--copies`` times (6,000 files, 36 MB by default), one process versus N.

Each run is a ``dralint check`` subprocess writing text and JSON reports; the outputs of every
``--jobs`` value must be the same bytes (the script fails otherwise). Figures are the best of
``--repeat`` runs: wall time (what the speed-up is about), and the CPU time of the parent and
of its workers. On a shared machine the wall-time speed-up is bounded by the cores the
neighbours leave free (the load average is printed), so the wall time with a free core per
worker is estimated too: the parent's CPU time (its part is serial) plus the workers' divided
by their number. A second measurement, one copy of
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import CORPUS, Figure, record, require  # noqa: E402

from dralint.pipeline.parallel import MIN_PARALLEL_BYTES, default_jobs  # noqa: E402

# The command line, printing at exit the CPU seconds of the parent itself and of its workers;
# with "p.MIN_PARALLEL_BYTES = 0" first for the small-input measurement.
CLI = (
    "import atexit, resource, sys\n"
    "def cpu():\n"
    "    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "    sys.stderr.write(f'CPU {own.ru_utime + own.ru_stime} {workers.ru_utime + workers.ru_stime}\\n')\n"
    "atexit.register(cpu)\n"
    "sys.argv[0] = 'dralint'\n"
    "from dralint.cli import main\n"
    "main()\n"
)
NO_THRESHOLD = "import dralint.pipeline.parallel as p\np.MIN_PARALLEL_BYTES = 0\n" + CLI


@dataclass(frozen=True, slots=True)
class Run:
    wall: float  # seconds
    parent: float  # CPU seconds of the parent process
    workers: float  # CPU seconds of its workers
    output: bytes  # the reports

    def ideal(self, jobs: int) -> float:
        """The wall time if every worker had a core of its own (the parent's part is serial)."""
        return self.parent + self.workers / jobs


def run(args: list[str], out: Path, *, threshold: bool = True) -> Run:
    """One check as a subprocess: its wall time, CPU split, and report bytes."""
    text, report = out / "report.txt", out / "report.json"
    command = [sys.executable, "-c", CLI if threshold else NO_THRESHOLD]
    command += ["check", "--no-config", *args, "-f", "text", "-o", str(text), "-f", "json", "-o", str(report)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    result = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if result.returncode not in (0, 1):
        raise SystemExit(f"dralint failed ({result.returncode}): {result.stderr}")
    parent, workers = next(
        map(float, line.split()[1:]) for line in result.stderr.splitlines() if line.startswith("CPU")
    )
    return Run(wall, parent, workers, text.read_bytes() + report.read_bytes())


def best(repeat: int, args: list[str], out: Path, *, threshold: bool = True) -> Run:
    runs = [run(args, out, threshold=threshold) for _ in range(repeat)]
    assert len({r.output for r in runs}) == 1, "the same input gave different output"
    return min(runs, key=lambda r: r.wall)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=max(2, default_jobs()))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    require(CORPUS, "the corpus of published manifests")
    with tempfile.TemporaryDirectory() as folder:
        inputs = Path(folder) / "inputs"
        for n in range(args.copies):
            shutil.copytree(CORPUS, inputs / f"copy-{n:02}")
        files = [p for p in inputs.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml", ".json")]
        size = sum(p.stat().st_size for p in files)
        out = Path(folder)
        print(f"cores: {os.cpu_count()} (usable {default_jobs()}); load average before: {_load()}")
        print(f"{args.copies} copies of the corpus: {len(files)} files, {size / 1e6:.1f} MB, best of {args.repeat}")
        print(f"{'':12} {'wall s':>7} {'parent CPU s':>13} {'workers CPU s':>14} {'on idle cores s':>16}")
        one = best(args.repeat, ["-j", "1", str(inputs)], out)
        many = best(args.repeat, ["-j", str(args.jobs), str(inputs)], out)
        for label, result, jobs in (("--jobs 1", one, 1), (f"--jobs {args.jobs}", many, args.jobs)):
            ideal = result.ideal(jobs)
            print(f"{label:12} {result.wall:7.2f} {result.parent:13.2f} {result.workers:14.2f} {ideal:16.2f}")
        if many.output != one.output:
            raise SystemExit("--jobs changed the output")
        speedup = one.wall / many.wall
        ideal_speedup = one.ideal(1) / many.ideal(args.jobs)
        print(f"speed-up {speedup:.2f}x measured, {ideal_speedup:.2f}x with a free core per worker")
        print("outputs identical for --jobs 1 and --jobs", args.jobs)

        corpus_size = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
        alone = best(args.repeat, ["-j", "1", str(CORPUS)], out)
        forced = best(args.repeat, ["-j", str(args.jobs), str(CORPUS)], out, threshold=False)
        print(
            f"one copy ({corpus_size / 1e6:.2f} MB, under MIN_PARALLEL_BYTES = {MIN_PARALLEL_BYTES / 1e6:.2f} MB): "
            f"--jobs 1 {alone.wall:.2f} s; --jobs {args.jobs} forced {forced.wall:.2f} s "
            f"({forced.ideal(args.jobs):.2f} s with free cores)"
        )
        print(f"load average after: {_load()}")
    record(
        Figure(
            f"--jobs {args.jobs} vs --jobs 1 on {args.copies} copies of the corpus ({size / 1e6:.0f} MB)",
            round(speedup, 2),
            "x faster",
            note=f"wall, best of {args.repeat}: {one.wall:.1f} s -> {many.wall:.1f} s; {ideal_speedup:.2f}x with a "
            f"free core per worker (parent CPU + workers' CPU / {args.jobs}); {os.cpu_count()} cores shared, "
            f"load average {_load()}; outputs identical",
        )
    )
    return 0


def _load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
