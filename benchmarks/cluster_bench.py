"""``dralint check`` and ``dralint simulate`` on the largest GPU clusters, as a user runs them.

Run: ``python benchmarks/cluster_bench.py [--cluster gpu|oversubscribed] [--sizes 1/8,1/4,1/2,1]
[--in-process 1/8,1/4] [--same-at 1/8]``. Two clusters, each generated here, seeded:

- ``gpu`` (issue 12, ``testing.manifests.gpu_cluster``): 10,000 nodes of 8 GPUs and 2 NICs at full
  size, a tenth of the GPUs partitionable and the NICs shared by consumable bandwidth, given as one
  compact Inventory; on it 40,000 pods in 5,000 workloads (Deployments, Jobs and StatefulSets of
  eight pods; claim templates, shared claims, firstAvailable, a matchAttribute constraint; one
  workload in a hundred cannot be placed): the pods fit.
- ``oversubscribed`` (issue 27, ``testing.oversubscribed.cluster``): 10,000 nodes in four pools
  of 8 GPUs and 2 NICs with consumable bandwidth; 5,000 workloads (about 40,000 pods) asking for
  1 to 8 GPUs each, a fifth through prioritized lists, three tenths with NIC bandwidth, some
  aligned with the GPUs by matchAttribute on pcieRoot: demand exceeds supply, so most pods are
  tried on most nodes (and the dry-run stops at limits.maxDryRunSteps, as it did before).

Each size is a fraction of both nodes and workloads.

For each size and command it measures, side by side in the same run:

- the whole process (a fresh interpreter, the bytecode compiled beforehand as ``pip install``
  leaves it): CPU seconds of the child (user + system, from ``wait4``), its peak resident memory,
  and the bytes it wrote to standard output;
- for the sizes of ``--in-process``: the same command inside this interpreter, warm (imports
  done), CPU seconds.

- for the size of ``--same-at``: whether the output of each command is the same bytes when the
  dry-run tries every node with the allocator (the node screen of ``dralint/dryrun/screen.py``
  turned off), in this interpreter.

Targets: each command under 20 s of CPU at full size, under 2 GB (issue 12) and under 1 GB for
the oversubscribed cluster (issue 27); from 1/8 to full size (8x the input) at most 9x the CPU
time, and output growing no faster than the input.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout, suppress
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import PEAK_COMMAND, Figure, peak_mb, record  # noqa: E402

from testing import oversubscribed  # noqa: E402
from testing.manifests import CLUSTER_NODES, CLUSTER_WORKLOADS, gpu_cluster  # noqa: E402

CPU_TARGET = 20.0  # seconds, at full size
MEMORY_TARGET = {"gpu": 2048.0, "oversubscribed": 1024.0}  # MB, at full size
GROWTH_TARGET = 9.0  # CPU time from 1/8 to full size
COMMANDS = ("check", "simulate")
CLUSTERS = {"gpu": gpu_cluster, "oversubscribed": oversubscribed.cluster}
TITLES = {"gpu": "the 10,000-node cluster", "oversubscribed": "the oversubscribed 10,000-node cluster"}


@dataclass(frozen=True, slots=True)
class Run:
    cpu: float  # seconds, user + system
    peak: float  # MB
    output: int  # bytes on standard output
    lines: int  # lines on standard output: findings, placements, nodes (bytes also grow with the names' digits)
    exit_code: int


def write(directory: Path, cluster: str, fraction: Fraction) -> tuple[Path, Path]:
    inventory, workloads = CLUSTERS[cluster](float(fraction))
    name = str(fraction).replace("/", "-")
    paths = directory / f"inventory-{name}.yaml", directory / f"workloads-{name}.yaml"
    paths[0].write_text(inventory, encoding="utf-8")
    paths[1].write_text(workloads, encoding="utf-8")
    return paths


def arguments(command: str, inventory: Path, workloads: Path) -> list[str]:
    cache = ["--no-cache"] if command == "check" else []
    return [command, "--no-config", *cache, str(workloads), "--inventory", str(inventory)]


def as_process(args: list[str], directory: Path) -> Run:
    """One ``dralint`` process: its own CPU time (``wait4``), peak memory (VmHWM at exit), output bytes."""
    out_path, err_path = directory / "stdout", directory / "stderr"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-c", PEAK_COMMAND, *args],
            stdout=out,
            stderr=err,
            cwd=directory,  # not the checkout: ``python -c`` puts the working directory first on sys.path
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    peak, stderr = peak_mb(err_path.read_text(encoding="utf-8", errors="replace"))
    if process.returncode not in (0, 1):
        sys.exit(f"dralint {' '.join(args)} exited {process.returncode}: {stderr[-500:]}")
    output = out_path.read_bytes()
    return Run(usage.ru_utime + usage.ru_stime, peak, len(output), output.count(b"\n"), process.returncode)


def in_process(args: list[str]) -> tuple[float, str]:
    """CPU seconds of the same command inside this (warm) interpreter, and its output."""
    from dralint.cli import main

    start = time.process_time()
    with redirect_stdout(io.StringIO()) as out, suppress(SystemExit):
        main(args, prog_name="dralint", standalone_mode=False)
    return time.process_time() - start, out.getvalue()


def without_screen(args: list[str]) -> str:
    """The command's output when every node is tried with the allocator (no node screen)."""
    from dralint.dryrun.state import Cluster

    screened = Cluster.first_request
    Cluster.first_request = lambda self, shape, claims: None  # type: ignore[method-assign,assignment]
    try:
        return in_process(args)[1]
    finally:
        Cluster.first_request = screened  # type: ignore[method-assign]


def compile_bytecode() -> None:
    """Bytecode for every module, as ``pip install`` leaves it (an editable checkout may have none)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "dralint")], check=True)


def parse_sizes(text: str) -> list[Fraction]:
    return [Fraction(part) for part in text.split(",") if part]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cluster", choices=sorted(CLUSTERS), default="gpu")
    parser.add_argument("--sizes", default="1/8,1/4,1/2,1", help="fractions of the full size, comma-separated")
    parser.add_argument("--in-process", default="1/8,1/4", help="sizes also measured in this interpreter")
    parser.add_argument("--same-at", default="", help="sizes whose output is compared with the screen off")
    args = parser.parse_args()
    cluster = args.cluster
    sizes = parse_sizes(args.sizes)
    warm = set(parse_sizes(args.in_process))
    same_at = set(parse_sizes(args.same_at))
    compile_bytecode()
    rows: list[tuple[Fraction, str, Run, float | None]] = []
    same: list[tuple[Fraction, str, bool]] = []
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        for fraction in sizes:
            inventory, workloads = write(directory, cluster, fraction)
            for command in COMMANDS:
                command_line = arguments(command, inventory, workloads)
                run = as_process(command_line, directory)
                warm_cpu = None
                if fraction in warm or fraction in same_at:
                    warm_cpu, output = in_process(command_line)
                    if fraction in same_at:
                        same.append((fraction, command, output == without_screen(command_line)))
                rows.append((fraction, command, run, warm_cpu if fraction in warm else None))
                print(f"  {fraction} {command}: {run.cpu:.1f} s CPU", file=sys.stderr, flush=True)
    if cluster == "gpu":
        print(
            f"full size: {CLUSTER_NODES:,} nodes x (8 GPUs + 2 NICs), {CLUSTER_WORKLOADS:,} workloads, "
            f"{CLUSTER_WORKLOADS * 8:,} pods; one process per run (CPU of the child, peak RSS)"
        )
    else:
        print(
            f"full size: {oversubscribed.NODES:,} nodes in {len(oversubscribed.POOLS)} pools x (8 GPUs + 2 NICs), "
            f"{oversubscribed.WORKLOADS:,} workloads of 1-15 pods, seed {oversubscribed.SEED}; one process per "
            "run (CPU of the child, peak RSS)"
        )
    header = f"{'size':>5} {'nodes':>6} {'command':>8} {'CPU s':>7} {'peak MB':>8} {'output B':>10} {'lines':>7}"
    print(header + f" {'exit':>4} {'in-process CPU s':>16}")
    for fraction, command, run, warm_cpu in rows:
        nodes = round(CLUSTER_NODES * fraction)
        warm_text = f"{warm_cpu:16.2f}" if warm_cpu is not None else f"{'-':>16}"
        print(
            f"{fraction!s:>5} {nodes:>6} {command:>8} {run.cpu:7.2f} {run.peak:8.0f} {run.output:>10}"
            f" {run.lines:>7} {run.exit_code:>4} {warm_text}"
        )
    for fraction, command, equal in same:
        verdict = "the same" if equal else "DIFFERENT"
        print(f"{fraction} {command}: output with every node tried by the allocator: {verdict}")
        record(
            Figure(
                f"dralint {command} of {fraction} of {TITLES[cluster]}: output without the node screen",
                0 if equal else 1,
                "differences",
                target="0 (the same bytes)",
                met=equal,
                note="in this interpreter: every node tried by the allocator, as before the screen",
            )
        )
    for command in COMMANDS:
        mine = [(f, run) for f, c, run, _ in rows if c == command]
        (small, first), (large, last) = mine[0], mine[-1]
        full = large == 1
        memory = MEMORY_TARGET[cluster]
        record(
            Figure(
                f"dralint {command} of {large} of {TITLES[cluster]}, as a process",
                round(last.cpu, 1),
                "s",
                target=f"< {CPU_TARGET:g} s, < {memory:g} MB" if full else "(full size not run)",
                met=(last.cpu < CPU_TARGET and last.peak < memory) if full else None,
                note=f"CPU; peak {last.peak:.0f} MB; output {last.output} bytes",
            )
        )
        if large == small:
            continue
        scale = float(large / small)
        growth, output_growth = last.cpu / first.cpu, last.output / max(first.output, 1)
        line_growth = last.lines / max(first.lines, 1)
        print(
            f"{command}: {small} -> {large} of the size (x{scale:g}): x{growth:.2f} CPU, "
            f"x{last.peak / first.peak:.2f} peak memory, x{output_growth:.2f} output bytes, x{line_growth:.2f} lines"
        )
        allowed = GROWTH_TARGET if scale == 8 else scale * GROWTH_TARGET / 8
        record(
            Figure(
                f"dralint {command}: growth of CPU time from {small} to {large} of {TITLES[cluster]}",
                round(growth, 2),
                "x",
                target=f"<= {allowed:g}x (input x{scale:g}), output lines <= x{scale:g}",
                # Linear output: as many lines per pod and node at every size. Bytes grow a little
                # faster, since the generated names gain digits (notebook-4997 beside notebook-497).
                met=growth <= allowed and line_growth <= scale,
                note=f"output lines x{line_growth:.2f}, bytes x{output_growth:.2f}",
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
