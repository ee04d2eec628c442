"""Headline figures for BENCHMARKS.md: each benchmark calls :func:`record`, ``run_all.py`` collects them.

When the environment variable ``DRALINT_BENCH_FIGURES`` names a file, every figure is appended
to it as one JSON line; otherwise :func:`record` does nothing and the script's printed output
is its whole report. Also the small timing helpers the benchmarks share, among them the
whole-process ones (:func:`side_by_side`): what a user experiences is one process, interpreter
start-up, imports and exit included, so figures compare fresh processes, run in turn in the
same minutes so that a busy machine slows all of them alike.
"""

from __future__ import annotations

import compileall
import csv
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
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


# The shared reference data beside the repository (or DRALINT_SHARED), as in tests.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from testing.shared import CORPUS, SHARED, require  # noqa: E402

__all__ = ["CORPUS", "SHARED", "require"]


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


def corpus_files(corpus: Path = CORPUS, *, expected: str | None = None, api_versions: str | None = None) -> list[str]:
    """The corpus files, in the order of its INDEX.tsv; only those with that ``expected`` verdict and
    ``resource_k8s_io_apiversions`` column when given (``expected="valid", api_versions="v1"``)."""
    index = require(corpus / "INDEX.tsv", "the corpus of published manifests", flag="--corpus")
    with open(index, encoding="utf-8") as handle:
        return [
            str(corpus / row["file"])
            for row in csv.DictReader(handle, delimiter="\t")
            if (expected is None or row["expected"] == expected)
            and (api_versions is None or row["resource_k8s_io_apiversions"] == api_versions)
        ]


@dataclass(frozen=True, slots=True)
class Times:
    """Medians of several runs, in seconds."""

    cpu: float  # user + system
    wall: float
    runs: int


def compile_bytecode(package: Path) -> None:
    """Write the bytecode of every module of ``package``, as ``pip install`` leaves an installed package."""
    compileall.compile_dir(str(package), quiet=1)


@dataclass(frozen=True, slots=True)
class Command:
    """A command line, run as a fresh process, with environment variables changed for it."""

    args: Sequence[str]
    env: Mapping[str, str | None] | None = None  # None as a value: unset


def with_changes(changes: Mapping[str, str | None] | None) -> dict[str, str]:
    """This process's environment with ``changes`` made (``None`` as a value: unset), and without the
    results cache (a benchmark runs the same files again and again: each run must do the work; a
    command that measures the cache sets ``DRALINT_NO_CACHE`` to ``None``)."""
    environment = {**os.environ, "DRALINT_NO_CACHE": "1"}
    for name, value in (changes or {}).items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    return environment


def run_process(command: Command, *, cwd: Path | None = None) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, exit code) of one run of ``command``: the CPU time is the child's own,
    from ``os.wait4`` (``RUSAGE_CHILDREN`` deltas would also count other children of this process)."""
    environment = with_changes(command.env)
    start = time.perf_counter()
    child = subprocess.Popen(
        list(command.args), cwd=cwd, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    return usage.ru_utime + usage.ru_stime, wall, child.returncode


def side_by_side(commands: Mapping[str, Command], repeat: int, *, cwd: Path | None = None) -> dict[str, Times]:
    """Median CPU and wall time of each command as a fresh process, over ``repeat`` rounds.

    Each command runs once first (file caches, bytecode written); then each round runs every
    command once, in turn, so that neighbours on a shared machine slow them all alike.
    """
    for command in commands.values():
        run_process(command, cwd=cwd)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            cpu, wall, _ = run_process(command, cwd=cwd)
            samples[name].append((cpu, wall))
    return {name: _medians(runs) for name, runs in samples.items()}


def in_turn(functions: Mapping[str, Callable[[], object]], repeat: int) -> dict[str, Times]:
    """Median CPU and wall time of each function called in this process, over ``repeat`` rounds
    (each called once first, then in turn, as :func:`side_by_side` does with processes)."""
    for function in functions.values():
        function()
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            cpu, wall = cpu_seconds(), time.perf_counter()
            function()
            samples[name].append((cpu_seconds() - cpu, time.perf_counter() - wall))
    return {name: _medians(runs) for name, runs in samples.items()}


def _medians(runs: list[tuple[float, float]]) -> Times:
    return Times(statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs), len(runs))


if __name__ == "__main__":
    import argparse

    # A module the benchmarks import, not a benchmark: --help says so, and running it does nothing.
    argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog="Run the benchmarks that import it: python benchmarks/run_all.py"
    ).parse_args()
