"""Growth in workloads: many one-replica Deployments of 4 GPUs each against a fixed 240-GPU cluster.

Run: ``python benchmarks/scale_bench.py [--sizes 100,300,600,3000]``. For each size it writes one
manifest file (an Inventory of 30 nodes × 8 GPUs, a DeviceClass, a ResourceClaimTemplate and N
Deployments) and measures, side by side in the same run:

- the whole ``dralint check`` process as a user runs it (a fresh interpreter): CPU seconds
  (user + system of the child), peak resident memory, bytes written to stdout;
- the in-process dry-run and check (load, checks, report rendered to memory), CPU seconds.

Cost should grow linearly in workloads: the last line prints the growth ratio of CPU time
against the growth ratio of workloads. Most workloads cannot be placed (demand exceeds
supply), so this also exercises the oversubscription findings and their size.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import PEAK_COMMAND, Figure, peak_mb, record  # noqa: E402

from testing.manifests import DEVICE_CLASS, claim_template  # noqa: E402

NODES = 30
GPUS_PER_NODE = 8
GPUS_PER_POD = 4

HEADER = (
    f"""\
apiVersion: dralint.io/v1alpha1
kind: Inventory
metadata:
  name: scale
spec:
  nodePools:
  - name: h100
    count: {NODES}
    labels:
      accelerator: h100
    devices:
    - driver: gpu.example.com
      name: "gpu-{{index}}"
      count: {GPUS_PER_NODE}
      attributes:
        model: H100
      capacity:
        memory: 80Gi
---
"""
    + DEVICE_CLASS
    + "---\n"
    + claim_template(
        "four-h100", "ml", count=GPUS_PER_POD, selector='device.attributes["gpu.example.com"].model == "H100"'
    )
)

DEPLOYMENT = """\
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: train-{index}
  namespace: ml
spec:
  replicas: 1
  selector:
    matchLabels: {{app: train-{index}}}
  template:
    metadata:
      labels: {{app: train-{index}}}
    spec:
      containers:
      - name: train
        image: registry.example.com/train:1.0
        resources:
          claims:
          - name: gpu
      resourceClaims:
      - name: gpu
        resourceClaimTemplateName: four-h100
"""


def write(directory: Path, workloads: int) -> Path:
    path = directory / f"scale-{workloads}.yaml"
    body = "".join(DEPLOYMENT.format(index=i) for i in range(workloads))
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def as_process(path: Path, root: Path = ROOT) -> tuple[float, float, int]:
    """(CPU seconds, peak MB, stdout bytes) of one ``dralint check`` process of the checkout at ``root``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", PEAK_COMMAND, "check", "--no-config", str(path)],
        capture_output=True,
        check=False,
        cwd=path.parent,  # not the checkout: ``python -c`` puts the working directory first on sys.path
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"dralint check {path} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak, _ = peak_mb(done.stderr.decode())
    return cpu, peak, len(done.stdout)


def in_process(path: Path) -> float:
    """CPU seconds of the same check inside this (warm) interpreter, the report rendered to memory."""
    from click.testing import CliRunner

    from dralint.cli import main

    start = time.process_time()
    CliRunner().invoke(main, ["check", "--no-config", str(path)], catch_exceptions=False)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="100,300,600,3000", help="comma-separated workload counts (the sizes of issue 12)"
    )
    parser.add_argument("--compare", type=Path, help="another dralint checkout, measured as a process beside this one")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    other: list[tuple[int, float, float, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        in_process(write(Path(tmp), 10))  # warm-up: imports, CEL compilation
        for workloads in sizes:
            path = write(Path(tmp), workloads)
            cpu, peak, out = as_process(path)
            rows.append((workloads, cpu, peak, out, in_process(path)))
            if args.compare is not None:
                other.append((workloads, *as_process(path, args.compare)))
    print(f"{NODES} nodes × {GPUS_PER_NODE} GPUs; one-replica Deployments of {GPUS_PER_POD} GPUs each")
    print(f"{'workloads':>9} {'process CPU s':>13} {'peak MB':>8} {'output bytes':>12} {'in-process CPU s':>16}")
    for workloads, cpu, peak, out, warm in rows:
        print(f"{workloads:>9} {cpu:>13.2f} {peak:>8.0f} {out:>12} {warm:>16.2f}")
    if other:
        print(f"the checkout at {args.compare}, as a process:")
        print(f"{'workloads':>9} {'process CPU s':>13} {'peak MB':>8} {'output bytes':>12}")
        for workloads, cpu, peak, out in other:
            print(f"{workloads:>9} {cpu:>13.2f} {peak:>8.0f} {out:>12}")
    first, last = rows[0], rows[-1]
    growth = last[1] / first[1]
    scale = last[0] / first[0]
    print(f"{first[0]} -> {last[0]} workloads: x{scale:.0f} workloads, x{growth:.2f} process CPU")
    record(
        Figure(
            f"dralint check of {last[0]} one-replica GPU Deployments, as a process",
            round(last[1], 2),
            "s",
            target=f"growth <= x{scale:.0f} (linear)",
            met=growth <= scale,
            note=f"CPU; {first[0]} -> {last[0]} workloads: x{growth:.1f} time, output {last[3]} bytes",
        )
    )


if __name__ == "__main__":
    main()
