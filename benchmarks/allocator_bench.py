"""Time the allocator on the scale scenarios of shared/conformance/scale/ against the Go figures.

Usage: python benchmarks/allocator_bench.py [--repeat N] [SCALE_DIR]

For each scenario: a fresh Allocator and one ``allocate`` per node (what one scheduling cycle of
one pod does), repeated; the best run is compared with the upstream allocator's in-process time
(steady state, Go 1.27). Parsing the scenario is not timed. The ratio uses process CPU time,
which is stable on a shared machine; wall time is printed beside it. Target: ratio <= 3.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, record  # noqa: E402

from dralint.api.scenario import scenario  # noqa: E402
from dralint.commands.allocate import allocate_scenario  # noqa: E402

# Upstream Go allocator, in-process, steady state (issue 5), in milliseconds.
GO_MS = {
    "scale-1node-2000dev": 71.0,
    "scale-100nodes-8dev": 9.0,
    "scale-8claims-4req": 4.5,
    "scale-partitionable-104dev": 3.0,
    "scale-consumable-64dev": 2.0,
}
TARGET_RATIO = 3.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scale_dir", nargs="?", default=str(ROOT.parent / "shared" / "conformance" / "scale"))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    directory = Path(args.scale_dir)
    worst = 0.0
    print(f"{'scenario':32} {'cpu ms':>8} {'wall ms':>8} {'median':>8} {'Go ms':>7} {'ratio':>6}")
    for name, go_ms in GO_MS.items():
        loaded = scenario(json.loads((directory / f"{name}.scenario.json").read_text()))
        cpu, wall = [], []
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            allocate_scenario(loaded)
            cpu.append((time.process_time() - start_cpu) * 1000)
            wall.append((time.perf_counter() - start) * 1000)
        ratio = min(cpu) / go_ms
        worst = max(worst, ratio)
        print(f"{name:32} {min(cpu):8.1f} {min(wall):8.1f} {statistics.median(wall):8.1f} {go_ms:7.1f} {ratio:6.2f}")
    print(f"worst ratio {worst:.2f} (target <= {TARGET_RATIO})")
    record(
        Figure(
            "allocator vs the Go allocator, worst scale scenario",
            round(worst, 2),
            "x Go's time",
            target=f"<= {TARGET_RATIO}",
            met=worst <= TARGET_RATIO,
            note=f"CPU, best of {args.repeat}, {len(GO_MS)} scenarios of shared/conformance/scale",
        )
    )
    return 0 if worst <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
