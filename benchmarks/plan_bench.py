"""Planning speed: ``dralint plan`` for up to 1,000 nodes in 4 node pools with 4,000 pending pods.

Run: ``python benchmarks/plan_bench.py [--pods N] [--start N]``. Four node pools of 8 GPUs per
node may grow to 250 nodes each (1,000 nodes in all); four Deployments of 1,000 replicas of 2
GPUs each (two pinned to a pool's label, two that take any GPU) make 4,000 pods. By default
the pools start empty (``--start 0``: every pod is pending, the issue's case, and the plan adds
all 1,000 nodes); ``--start 25`` gives each pool 25 nodes first, which place 400 of the pods.
Each command runs as a whole process (start-up, reading, dry-run, planning, JSON output), side
by side with ``dralint simulate`` on the same input, which is the dry-run the plan starts from:
the difference is what planning costs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import Figure, record

from testing.manifests import DEVICE_CLASS, claim_template

POOLS = ("a100", "h100", "l4", "t4")
MAX = 250
GPUS_PER_NODE = 8


def inventory(start: int) -> str:
    pools = "".join(
        f"""\
  - name: {name}
    count: {start}
    minCount: {start}
    maxCount: {MAX}
    cost: {i + 1}
    priority: {len(POOLS) - i}
    labels: {{accelerator: {name}}}
    allocatable: {{cpu: "64", memory: 512Gi, pods: "110"}}
    devices:
    - driver: gpu.example.com
      name: "gpu-{{index}}"
      count: {GPUS_PER_NODE}
      attributes: {{model: {name.upper()}}}
"""
        for i, name in enumerate(POOLS)
    )
    head = "apiVersion: dralint.io/v1alpha1\nkind: Inventory\nmetadata:\n  name: bench\nspec:\n  nodePools:\n"
    return head + pools + "---\n" + DEVICE_CLASS


def workloads(pods: int) -> str:
    per = pods // 4
    out = [claim_template("two-gpus", "ml", count=2)]
    for k, pinned in enumerate(("a100", "h100", None, None)):
        selector = f"      nodeSelector: {{accelerator: {pinned}}}\n" if pinned else ""
        out.append(
            f"""\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: train-{k}
  namespace: ml
spec:
  replicas: {per}
  selector:
    matchLabels: {{app: train-{k}}}
  template:
    metadata:
      labels: {{app: train-{k}}}
    spec:
{selector}      containers:
      - name: main
        image: registry.example.com/train:1.0
        resources:
          requests: {{cpu: "4", memory: 16Gi}}
      resourceClaims:
      - name: gpus
        resourceClaimTemplateName: two-gpus
"""
        )
    return "---\n".join(out)


def timed(repeat: int, *args: str) -> tuple[float, str]:
    """The best wall time of ``repeat`` runs of ``dralint ARGS`` (the machine is shared), and the output."""
    elapsed = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "dralint", *args], capture_output=True, text=True, check=False)
        elapsed = min(elapsed, time.perf_counter() - start)
    if done.returncode not in (0, 1):
        raise SystemExit(f"dralint {args[0]} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pods", type=int, default=4_000)
    parser.add_argument("--start", type=int, default=0, help="nodes each pool has before the plan")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (the best counts)")
    options = parser.parse_args()
    pods, start, repeat = options.pods, options.start, options.repeat
    with tempfile.TemporaryDirectory() as tmp:
        cluster, manifests = Path(tmp) / "inventory.yaml", Path(tmp) / "manifests.yaml"
        cluster.write_text(inventory(start), encoding="utf-8")
        manifests.write_text(workloads(pods), encoding="utf-8")
        simulate_s, simulated = timed(repeat, "simulate", str(manifests), "-i", str(cluster), "-f", "json")
        plan_s, output = timed(repeat, "plan", str(manifests), "-i", str(cluster), "-f", "json")
    plan = json.loads(output)
    pending = sum(1 for p in json.loads(simulated)["placements"] if p["outcome"] != "placed")
    added = sum(step["add"] for step in plan["scaleUp"])
    placed = sum(len(step["pods"]) for step in plan["scaleUp"])
    print(
        f"{len(POOLS)} pools, {start * len(POOLS)} nodes growing to at most {MAX * len(POOLS)}; "
        f"{pods} pods, {pending} pending"
    )
    print(f"simulate (the dry-run alone), best of {repeat}: {simulate_s:.2f} s")
    print(f"plan, best of {repeat}: {plan_s:.2f} s: {len(plan['scaleUp'])} decisions add {added} nodes")
    unplaceable, removed = len(plan["unplaceable"]), len(plan["scaleDown"])
    print(f"      for {placed} pending pods, {unplaceable} unplaceable, {removed} nodes removed")
    record(
        Figure(
            f"plan of {pending} pending pods, {len(POOLS)} pools from {start * len(POOLS)} up to "
            f"{MAX * len(POOLS)} nodes (whole process)",
            round(plan_s, 2),
            "s",
            note=f"wall, best of {repeat}; simulate alone {simulate_s:.2f} s; adds {added} nodes",
        )
    )


if __name__ == "__main__":
    main()
