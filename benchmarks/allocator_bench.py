"""Time the allocator on the scale scenarios of shared/conformance/scale/.

Usage: python benchmarks/allocator_bench.py [--repeat N] [SCALE_DIR]

For each scenario: a fresh Allocator and one ``allocate`` per node (what one scheduling cycle of
one pod does), repeated; the best run's process CPU time (stable on a shared machine) with wall
time beside it. Parsing the scenario is not timed. There is no comparison with the upstream Go
allocator: figures taken on another day and machine are not a baseline, and this script does
not run Go; compare two dralint checkouts by running it in each, side by side.
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

from figures import SHARED, Figure, record, require  # noqa: E402

from dralint.api.scenario import scenario  # noqa: E402
from dralint.commands.allocate import allocate_scenario  # noqa: E402

SCENARIOS = (
    "scale-1node-2000dev",
    "scale-100nodes-8dev",
    "scale-8claims-4req",
    "scale-partitionable-104dev",
    "scale-consumable-64dev",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scale_dir", nargs="?", default=str(SHARED / "conformance" / "scale"))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    directory = require(Path(args.scale_dir), "the allocator's scale scenarios", flag="SCALE_DIR")
    total = 0.0
    print(f"{'scenario':32} {'cpu ms':>8} {'wall ms':>8} {'median':>8}")
    for name in SCENARIOS:
        loaded = scenario(json.loads((directory / f"{name}.scenario.json").read_text()))
        cpu, wall = [], []
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            allocate_scenario(loaded)
            cpu.append((time.process_time() - start_cpu) * 1000)
            wall.append((time.perf_counter() - start) * 1000)
        total += min(cpu)
        print(f"{name:32} {min(cpu):8.1f} {min(wall):8.1f} {statistics.median(wall):8.1f}")
    print(f"all {len(SCENARIOS)} scenarios: {total:.1f} ms CPU")
    record(
        Figure(
            "allocator on the scale scenarios",
            round(total, 1),
            "ms",
            note=f"CPU, sum of the best of {args.repeat} per scenario, {len(SCENARIOS)} scenarios of "
            "shared/conformance/scale; no Go baseline (see the notes)",
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
