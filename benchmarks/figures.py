"""Headline figures for BENCHMARKS.md: each benchmark calls :func:`record`, ``run_all.py`` collects them.

When the environment variable ``DRALINT_BENCH_FIGURES`` names a file, every figure is appended
to it as one JSON line; otherwise :func:`record` does nothing and the script's printed output
is its whole report. Also the small timing helpers the benchmarks share.
"""

from __future__ import annotations

import csv
import json
import os
import resource
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

ENV = "DRALINT_BENCH_FIGURES"
# ``python -c PEAK_COMMAND ARGS`` is the dralint command line, writing its peak resident memory
# (VmHWM) to stderr at exit. Linux resets VmHWM at exec; a child's wait4 ``ru_maxrss`` would
# include the memory of the parent it was forked from.
PEAK_COMMAND = (
    "import atexit, sys\n"
    "def peak():\n"
    "    with open('/proc/self/status') as status:\n"
    "        sys.stderr.write(next(l for l in status if l.startswith('VmHWM')))\n"
    "atexit.register(peak)\n"
    "sys.argv[0] = 'dralint'\n"
    "from dralint.cli import main\n"
    "main()\n"
)


def peak_mb(stderr: str) -> tuple[float, str]:
    """(peak MB, stderr without the VmHWM line) of a PEAK_COMMAND run."""
    lines = stderr.splitlines(keepends=True)
    peak = next((int(line.split()[1]) for line in lines if line.startswith("VmHWM")), 0)
    return peak / 1024, "".join(line for line in lines if not line.startswith("VmHWM"))


def own_peak_mb() -> float:
    """This process's peak resident memory so far (VmHWM; ru_maxrss where /proc is missing)."""
    try:
        with open("/proc/self/status", encoding="utf-8") as status:
            return int(next(line for line in status if line.startswith("VmHWM")).split()[1]) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


@dataclass(frozen=True, slots=True)
class Figure:
    name: str  # what was measured
    value: float
    unit: str  # "ms", "s", "x", "MB", ...
    target: str = ""  # e.g. "< 300 ms", ">= 20x"; empty when there is none
    met: bool | None = None  # whether the target is met
    note: str = ""  # baseline, clock (CPU or wall), best of N, ...


def record(figure: Figure) -> Figure:
    path = os.environ.get(ENV)
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(asdict(figure)) + "\n")
    return figure


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (user + system)."""
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + children.ru_utime + children.ru_stime


def best_of(repeat: int, function: Callable[[], object]) -> tuple[float, float]:
    """(least CPU seconds, least wall seconds) of ``repeat`` calls."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        cpu, wall = cpu_seconds(), time.perf_counter()
        function()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, cpu_seconds() - cpu)
    return best_cpu, best_wall


def corpus_files(corpus: Path = CORPUS) -> list[str]:
    """The corpus files, in the order of its INDEX.tsv."""
    with open(corpus / "INDEX.tsv", encoding="utf-8") as handle:
        return [str(corpus / row["file"]) for row in csv.DictReader(handle, delimiter="\t")]
