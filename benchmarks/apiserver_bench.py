"""kube-apiserver validation of a large inventory versus loading and normalising it.

Generates ``--slices`` ResourceSlices of ``--devices`` devices each (attributes, a version, a
capacity: what GPU drivers publish), writes them as one ``kubectl get -o json`` style List, and
times, best of ``--repeat``: the baseline (decode with positions and normalise to v1: what every
check needs first) and the apiserver, admin-access and references checks on the loaded input,
each time in a new check context (the checks' results are cached in the context), with the
collector tuned as the ``dralint`` command tunes it.
Usage::

    python benchmarks/apiserver_bench.py [--slices 500] [--devices 64] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, best_of, record  # noqa: E402

from dralint.api.versions import make_target  # noqa: E402
from dralint.checks import admin_access, apiserver, references  # noqa: E402
from dralint.pipeline.context import CheckContext  # noqa: E402
from dralint.process import tune_garbage_collection  # noqa: E402
from dralint.read.load import load  # noqa: E402


def inventory(slices: int, devices: int) -> dict[str, Any]:
    items = []
    for s in range(slices):
        items.append(
            {
                "apiVersion": "resource.k8s.io/v1",
                "kind": "ResourceSlice",
                "metadata": {"name": f"node-{s}-gpu.example.com"},
                "spec": {
                    "driver": "gpu.example.com",
                    "pool": {"name": f"node-{s}", "generation": 1, "resourceSliceCount": 1},
                    "nodeName": f"node-{s}",
                    "devices": [
                        {
                            "name": f"gpu-{d}",
                            "attributes": {
                                "model": {"string": "a100"},
                                "index": {"int": d},
                                "uuid": {"string": f"gpu-{s}-{d}"},
                                "driverVersion": {"version": "550.54.15"},
                            },
                            "capacity": {"memory": {"value": "80Gi"}},
                        }
                        for d in range(devices)
                    ],
                },
            }
        )
    return {"apiVersion": "v1", "kind": "List", "items": items}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=500)
    parser.add_argument("--devices", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tune_garbage_collection()  # as the dralint command does: what a user's run pays
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "inventory.json"
        path.write_text(json.dumps(inventory(args.slices, args.devices)), encoding="utf-8")

        def baseline() -> CheckContext:
            ctx = CheckContext(load([str(path)]), make_target())
            _ = ctx.normalised
            return ctx

        ctx = baseline()

        def checks() -> int:
            fresh = CheckContext(ctx.workspace, ctx.target)  # the checks cache their results in a context
            fresh.__dict__["normalised"] = ctx.normalised  # the baseline's work, done once
            found = 0
            for check in (apiserver.check, admin_access.check, references.check):
                found += sum(1 for _ in check(fresh))
            return found

        assert checks() == 0, "the generated inventory is valid"
        baseline_time = best_of(args.repeat, baseline)[1]
        checks_time = best_of(args.repeat, checks)[1]
    total = args.slices * args.devices
    print(f"{args.slices} slices x {args.devices} devices = {total} devices, best of {args.repeat}")
    print(f"load and normalise (baseline):       {baseline_time * 1000:8.1f} ms")
    print(
        f"apiserver + admin + references:      {checks_time * 1000:8.1f} ms"
        f"  ({checks_time / total * 1e6:.1f} us/device)"
    )
    print(f"ratio checks / baseline:             {checks_time / baseline_time:8.2f}")
    record(
        Figure(
            f"kube-apiserver checks of {total} devices, relative to loading them",
            round(checks_time / baseline_time, 2),
            "x the load time",
            note=f"{checks_time * 1000:.0f} ms vs {baseline_time * 1000:.0f} ms to load and normalise, "
            f"best of {args.repeat}",
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
