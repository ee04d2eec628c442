#!/usr/bin/env python
"""Fuzz ``dralint check`` and ``simulate`` with structurally mutated manifests and inventories, for as long as you like.

The long form of tests/fuzz_test.py (same strategies and property, testing/fuzz.py): random
seeds (or ``--seed``), many examples, one family at a time (``manifests``: the mutated document
is checked; ``inventories``: it is the ``--inventory`` of a check of the example apps), every
output format of both commands. Every ``--cli-every`` cases the command line itself runs in a
subprocess (exit code 0, 1 or 2, nothing on stderr but a one-line error), measured for CPU time
and peak memory. Hypothesis shrinks a failing case and prints it; the case file is kept in
``--keep``. ``--report FILE`` writes the counts and the worst case as JSON (benchmarks/fuzz_bench.py
reads it). Usage::

    python scripts/fuzz.py [--family manifests|inventories|cel] [--examples 2000] [--seed N]
                           [--keep fuzz-cases/] [--cli-every 100] [--corpus DIR] [--report out.json]

``--family cel`` runs the CEL families of testing/fuzz_cel.py instead (grammar-generated
selectors on the examples' inventory, and CEL errors in every YAML scalar style): ``--examples``
selectors and a tenth as many styled manifests, from ``--seed`` (0 when not given); it prints the
inputs run, the crashes (with the first one) and the worst CPU time and allocation.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import PEAK_COMMAND, own_peak_mb, peak_mb  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import dralint.cel.program  # noqa: E402, F401  (raises the recursion limit when imported: before hypothesis starts)
from testing.fuzz import APPS, FAMILIES, INVENTORY, MUTATIONS, Family, Mutation, check_property, documents  # noqa: E402
from testing.shared import require  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=(*FAMILIES, "cel"), default="manifests")
    parser.add_argument("--examples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=None, help="random when not given")
    parser.add_argument("--keep", type=Path, default=ROOT / "fuzz-cases", help="where a failing case is written")
    parser.add_argument("--cli-every", type=int, default=100, help="run the command line on every Nth case")
    parser.add_argument("--corpus", type=Path, default=None, help="the corpus folder (default: shared/corpus beside)")
    parser.add_argument("--report", type=Path, default=None, help="write counts and worst case as JSON here")
    parser.add_argument("--shrink", action="store_true", help="shrink a failing case (slow) before reporting it")
    args = parser.parse_args()
    if args.corpus is not None:
        require(args.corpus, "the corpus folder given", flag="another --corpus")
    if args.family == "cel":
        return _cel(args.examples, args.seed or 0)
    family: Family = args.family
    pool = documents(family, corpus=args.corpus)
    stats: dict[str, Any] = {
        "family": family,
        "documents": len(pool),
        "cases": 0,
        "check_exit_codes": {"0": 0, "1": 0, "2": 0},
        "crashes": 0,
        "worst_cpu_s": 0.0,  # check + simulate of one case, in process, every format
        "cli_runs": 0,
        "worst_cli_cpu_s": 0.0,  # one command line run (start-up included)
        "worst_cli_rss_mb": 0.0,
        "seed": args.seed,
    }
    started = time.perf_counter()

    @settings(
        max_examples=args.examples,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        # No explain phase: it traces every line of a failing case again, which takes hours here;
        # shrinking only when asked (it can take long too: the failing case is kept either way).
        phases=[Phase.explicit, Phase.reuse, Phase.generate, *([Phase.shrink] if args.shrink else [])],
    )
    @given(
        index=st.integers(min_value=0, max_value=10**6),
        mutations=st.lists(MUTATIONS, min_size=1, max_size=6),
        as_json=st.booleans(),
    )
    def fuzz(index: int, mutations: list[Mutation], as_json: bool) -> None:
        stats["cases"] += 1
        with tempfile.TemporaryDirectory() as directory:
            try:
                result = check_property(Path(directory), pool[index % len(pool)], mutations, as_json, family)
                stats["check_exit_codes"][str(result.exit_code)] += 1
                stats["worst_cpu_s"] = max(stats["worst_cpu_s"], result.cpu)
                if args.cli_every and stats["cases"] % args.cli_every == 0:
                    _cli(Path(directory), family, stats)
            except BaseException:
                args.keep.mkdir(parents=True, exist_ok=True)
                for case in Path(directory).iterdir():
                    if case.name.startswith("case."):
                        shutil.copy(case, args.keep / case.name)
                raise

    if args.seed is not None:
        fuzz = seed(args.seed)(fuzz)
    failure: BaseException | None = None
    try:
        fuzz()
    except Exception as error:  # the property failed: counted and reported, the case kept in --keep
        stats["crashes"] = 1
        failure = error
    stats["seconds"] = round(time.perf_counter() - started, 1)
    # The process's own peak: an upper bound of every in-process case's memory.
    stats["peak_rss_mb"] = round(own_peak_mb(), 1)
    codes = stats["check_exit_codes"]
    print(
        f"{family}: {stats['cases']} cases ({len(pool)} documents mutated), {stats['crashes']} crashes; "
        f"check exit 0/1/2: {codes['0']}/{codes['1']}/{codes['2']}; worst case {stats['worst_cpu_s']:.2f} s CPU "
        f"(check + simulate, every format); process peak {stats['peak_rss_mb']} MB; {stats['cli_runs']} command "
        f"lines, worst {stats['worst_cli_cpu_s']:.2f} s CPU and {stats['worst_cli_rss_mb']} MB; {stats['seconds']} s"
    )
    if args.report is not None:
        args.report.write_text(json.dumps(stats, indent=1) + "\n", encoding="utf-8")
    if failure is not None:
        raise failure
    return 0


def _cel(examples: int, seed_value: int) -> int:
    from testing.fuzz_cel import run_family

    with tempfile.TemporaryDirectory() as directory:
        summary = run_family(examples, max(examples // 10, 1), seed_value, Path(directory))
    print(f"{summary.inputs} inputs, {summary.crashes} crashes; styles {summary.styles}")
    cpu, memory = summary.worst_cpu, summary.worst_memory
    if cpu is not None and memory is not None:
        print(f"worst CPU {cpu.cpu_seconds:.3f} s: {cpu.expression[:200]}")
        print(f"worst allocation {memory.allocated / 2**20:.1f} MiB: {memory.expression[:200]}")
    if summary.failure:
        print(f"first crash: {summary.failure}")
    return 1 if summary.crashes else 0


def _cli(directory: Path, family: Family, stats: dict[str, Any]) -> None:
    case = next(directory.glob("case.*"), None)
    if case is None:
        return
    paths, inventory = ([str(case)], str(INVENTORY)) if family == "manifests" else ([str(APPS)], str(case))
    for command in (["check", *paths, "-i", inventory, "--no-config", "-f", "json", "-j", "1"],
                    ["check", *paths, "-i", inventory, "--no-config", "-f", "json", "-j", "2"],
                    ["simulate", *paths, "-i", inventory, "--no-config", "-f", "json"]):  # fmt: skip
        returncode, stderr, cpu, rss = _measured([sys.executable, "-c", PEAK_COMMAND, *command])
        stats["cli_runs"] += 1
        stats["worst_cli_cpu_s"] = round(max(stats["worst_cli_cpu_s"], cpu), 2)
        stats["worst_cli_rss_mb"] = round(max(stats["worst_cli_rss_mb"], rss), 1)
        assert returncode in (0, 1, 2), stderr
        assert stderr.count("\n") <= 1 and "Traceback" not in stderr, stderr


def _measured(command: list[str]) -> tuple[int, str, float, float]:
    """(exit code, stderr, CPU seconds, peak RSS in MB) of one subprocess (CPU by wait4, memory by VmHWM)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, env={"PYTHONPATH": str(ROOT), "PATH": ""})
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        peak, stderr = peak_mb(err.read().decode("utf-8", "replace"))
    return process.returncode, stderr, usage.ru_utime + usage.ru_stime, peak


if __name__ == "__main__":
    raise SystemExit(main())
