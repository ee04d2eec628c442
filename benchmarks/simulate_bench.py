"""Cluster dry-run speed: 1,000 nodes × 8 devices, 250 / 1,000 / 4,000 pods of one device each.

Run: ``python benchmarks/simulate_bench.py``. Prints the seconds of the dry-run (inventory
expansion, CEL selectors, placement and utilisation) and of load + dry-run, and the growth
ratios between sizes: linear growth means time grows no faster than the pod count. Target: the
4,000-pod run under 5 s on the 2-core reference machine. A last run with 10,000 pods (2,000 of
them unplaced) times the failure path too.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import Figure, record

from dralint.api.versions import make_target
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from testing.manifests import DEVICE_CLASS, claim_template

NODES = 1_000
DEVICES_PER_NODE = 8
SIZES = (250, 1_000, 4_000)
OVERSUBSCRIBED = 10_000

INVENTORY = (
    f"""\
apiVersion: dralint.io/v1alpha1
kind: Inventory
metadata:
  name: bench
spec:
  nodePools:
  - name: gpu
    count: {NODES}
    labels:
      accelerator: a100
    devices:
    - driver: gpu.example.com
      name: "gpu-{{index}}"
      count: {DEVICES_PER_NODE}
      attributes:
        model: A100
        index:
          int: "{{index}}"
      capacity:
        memory: 40Gi
---
"""
    + DEVICE_CLASS
    + "---\n"
    + claim_template("a100", selector='device.attributes["gpu.example.com"].model == "A100"')
)

WORKLOAD = """\
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: trainer
spec:
  replicas: {replicas}
  selector:
    matchLabels: {{app: trainer}}
  template:
    metadata:
      labels: {{app: trainer}}
    spec:
      nodeSelector:
        accelerator: a100
      containers:
      - name: train
        image: registry.example.com/train:1.0
        resources:
          claims:
          - name: gpu
      resourceClaims:
      - name: gpu
        resourceClaimTemplateName: a100
"""


def run(pods: int, directory: Path) -> tuple[float, float, int]:
    path = directory / f"bench-{pods}.yaml"
    path.write_text(INVENTORY + WORKLOAD.format(replicas=pods), encoding="utf-8")
    start = time.perf_counter()
    workspace = load([str(path)])
    loaded = time.perf_counter()
    ctx = CheckContext(workspace, make_target())
    result = ctx.dry_run()
    placed = sum(1 for p in result.simulation.placements if p.outcome == "placed")
    _ = result.utilisation
    done = time.perf_counter()
    return done - loaded, done - start, placed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(50, Path(tmp))  # warm-up: imports, CEL compilation
        rows = []
        for pods in SIZES:
            dry_run, total, placed = run(pods, Path(tmp))
            rows.append((pods, dry_run, total, placed))
        over = run(OVERSUBSCRIBED, Path(tmp))
    print(f"{NODES} nodes x {DEVICES_PER_NODE} devices")
    print(f"{'pods':>6} {'placed':>6} {'dry-run s':>10} {'total s':>8} {'ms/pod':>7}")
    for pods, dry_run, total, placed in rows:
        print(f"{pods:>6} {placed:>6} {dry_run:>10.2f} {total:>8.2f} {dry_run / pods * 1000:>7.2f}")
    base_pods, base_time = rows[0][0], rows[0][1]
    for pods, dry_run, _, _ in rows[1:]:
        growth = dry_run / base_time
        print(f"{base_pods} -> {pods} pods: x{pods / base_pods:.0f} pods, x{growth:.2f} time")
    verdict = "within" if rows[-1][1] < 5.0 else "OVER"
    record(
        Figure(
            f"dry-run of {rows[-1][0]} pods on {NODES} nodes x {DEVICES_PER_NODE} devices",
            round(rows[-1][1], 2),
            "s",
            target="< 5 s",
            met=rows[-1][1] < 5.0,
            note=f"wall; {rows[0][0]} -> {rows[-1][0]} pods: x{rows[-1][1] / base_time:.1f} time",
        )
    )
    print(f"{rows[-1][0]} pods: {rows[-1][1]:.2f} s ({verdict} the 5 s target)")
    print(f"{OVERSUBSCRIBED} pods ({OVERSUBSCRIBED - over[2]} unplaced): {over[0]:.2f} s")


if __name__ == "__main__":
    main()
