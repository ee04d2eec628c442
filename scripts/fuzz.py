#!/usr/bin/env python
"""Fuzz ``dralint check`` with structurally mutated manifests, for as long as you like.

The long form of tests/fuzz_test.py (same strategies and property, testing/fuzz.py): random
seeds, many examples, and every ``--cli-every`` cases the command line itself in a subprocess
(exit code 0, 1 or 2, nothing on stderr but a one-line error). Hypothesis shrinks a failing case
and prints it; the case file is kept in ``--keep``. Usage::

    python scripts/fuzz.py [--examples 2000] [--seed N] [--keep fuzz-cases/] [--cli-every 100]

``--family cel`` runs the CEL families of testing/fuzz_cel.py instead (grammar-generated
selectors on the examples' inventory, and CEL errors in every YAML scalar style): ``--examples``
selectors and a tenth as many styled manifests, from ``--seed`` (0 when not given); it prints the
inputs run, the crashes (with the first one) and the worst CPU time and allocation.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import dralint.cel.program  # noqa: E402, F401  (raises the recursion limit when imported: before hypothesis starts)
from testing.fuzz import INVENTORY, MUTATIONS, Mutation, check_property, documents  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=None, help="random when not given")
    parser.add_argument("--keep", type=Path, default=ROOT / "fuzz-cases", help="where a failing case is written")
    parser.add_argument("--cli-every", type=int, default=100, help="run the command line on every Nth case")
    parser.add_argument("--family", choices=("manifests", "cel"), default="manifests")
    args = parser.parse_args()
    if args.family == "cel":
        return _cel(args.examples, args.seed or 0)
    pool = documents()
    counts = {0: 0, 1: 0, 2: 0}
    cases = 0

    @settings(
        max_examples=args.examples,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        index=st.integers(min_value=0, max_value=10**6),
        mutations=st.lists(MUTATIONS, min_size=1, max_size=6),
        as_json=st.booleans(),
    )
    def fuzz(index: int, mutations: list[Mutation], as_json: bool) -> None:
        nonlocal cases
        cases += 1
        with tempfile.TemporaryDirectory() as directory:
            try:
                result = check_property(Path(directory), pool[index % len(pool)], mutations, as_json)
                counts[result.exit_code] += 1
                if args.cli_every and cases % args.cli_every == 0:
                    _cli(Path(directory))
            except BaseException:
                args.keep.mkdir(parents=True, exist_ok=True)
                for case in Path(directory).iterdir():
                    shutil.copy(case, args.keep / case.name)
                raise

    if args.seed is not None:
        fuzz = seed(args.seed)(fuzz)
    fuzz()
    print(f"{cases} cases: {counts[0]} clean, {counts[1]} with findings, {counts[2]} refused (exit 2)")
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


def _cli(directory: Path) -> None:
    for case in directory.iterdir():
        for jobs in ("1", "2"):
            result = subprocess.run(
                [sys.executable, "-m", "dralint", "check", str(case), "-i", str(INVENTORY), "--no-config", "-j", jobs],
                capture_output=True,
                text=True,
                env={"PYTHONPATH": str(ROOT), "PATH": ""},
                check=False,
            )
            assert result.returncode in (0, 1, 2), result.stderr
            assert result.stderr.count("\n") <= 1 and "Traceback" not in result.stderr, result.stderr


if __name__ == "__main__":
    raise SystemExit(main())
