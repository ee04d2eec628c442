"""CEL fuzzing with a fixed seed: inputs run, crashes, and the worst CPU time and allocation.

The families of ``testing/fuzz_cel.py``: grammar-generated selectors, each evaluated on the 16
devices of the examples' inventory, and CEL errors in every YAML scalar style checked end to end.
The default limits apply (the same as ``dralint check``). Usage::

    python benchmarks/fuzz_cel_bench.py [--selectors 5000] [--styled 500] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, record  # noqa: E402

from testing.fuzz_cel import run_family  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--selectors", type=int, default=5000)
    parser.add_argument("--styled", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.process_time()
    with tempfile.TemporaryDirectory() as directory:
        summary = run_family(args.selectors, args.styled, args.seed, Path(directory))
    total = time.process_time() - start
    cpu, memory = summary.worst_cpu, summary.worst_memory
    print(f"{summary.inputs} inputs (seed {args.seed}) in {total:.1f} s CPU: {summary.crashes} crashes")
    print(f"styles: {dict(sorted(summary.styles.items()))}")
    if cpu is not None and memory is not None:
        print(f"worst CPU {cpu.cpu_seconds:.3f} s ({cpu.outcome}): {cpu.expression[:160]}")
        print(f"worst allocation {memory.allocated / 2**20:.1f} MiB ({memory.outcome}): {memory.expression[:160]}")
    if summary.failure:
        print(f"first crash: {summary.failure[:400]}")
    worst = f"worst {cpu.cpu_seconds:.2f} s CPU, {memory.allocated / 2**20:.1f} MiB allocated" if cpu and memory else ""
    record(
        Figure(
            "CEL fuzzing (grammar selectors on 16 devices, errors in 5 YAML scalar styles)",
            summary.crashes,
            "crashes",
            "0",
            summary.crashes == 0,
            f"{summary.inputs} inputs, seed {args.seed}; {worst}; limits 2 s CPU and 256 MiB per input",
        )
    )
    return 1 if summary.crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
