"""Full dralint check of the corpus versus kubernetes-validate's schema-only validation of the same files.

Both sides read the same files from ../shared/corpus and validate every object for Kubernetes
1.37. dralint runs its whole ``check`` pipeline: decoding with positions, schema, kube-apiserver
rules, version skew, references, CEL, and the dry-run (the examples' cluster is passed as
``--inventory``, so the corpus' pods are placed on it), writing JSON. kubernetes-validate (a
dev dependency) checks each document against its strict JSON schema. Both run in this process,
warm, ``--repeat`` times; the least CPU time counts (the machine is shared: wall time mostly
measures the neighbours; it is printed too). Target: dralint at least 20 times faster. Usage::

    python benchmarks/validate_bench.py [--repeat 5] [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, best_of, corpus_files, record  # noqa: E402

from dralint.commands.check import CheckSettings, run  # noqa: E402

RELEASE = "1.37"
TARGET = 20.0
INVENTORY = ROOT / "examples" / "cluster"


def dralint_once(files: list[str]) -> int:
    """The whole pipeline over all files (findings written as JSON to /dev/null); returns the exit code."""
    settings = CheckSettings(
        paths=tuple(files),
        outputs=(("json", os.devnull),),
        release=RELEASE,
        inventory=(str(INVENTORY),),
        no_config=True,
        jobs=1,
    )
    return run(settings)


def kubernetes_validate_once(files: list[str]) -> int:
    """Strict schema validation of every object with kubernetes-validate; returns the objects checked."""
    import kubernetes_validate
    import yaml

    checked = 0
    for file in files:
        try:
            with open(file, encoding="utf-8") as handle:
                documents = list(yaml.safe_load_all(handle))
        except yaml.YAMLError:
            continue
        for document in documents:
            if not isinstance(document, dict) or "apiVersion" not in document or "kind" not in document:
                continue
            checked += 1
            with contextlib.suppress(kubernetes_validate.ValidationError, kubernetes_validate.SchemaNotFoundError):
                kubernetes_validate.validate(document, RELEASE, strict=True)
    return checked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    files = corpus_files(args.corpus)
    objects = kubernetes_validate_once(files)  # warms the file cache for both sides
    cold_cpu, cold_wall = best_of(1, lambda: dralint_once(files))  # reads the schema store, compiles validators
    cpu, wall = best_of(args.repeat, lambda: dralint_once(files))
    base_cpu, base_wall = best_of(args.repeat, lambda: kubernetes_validate_once(files))
    ratio = base_cpu / cpu
    print(f"corpus: {len(files)} files, {objects} objects, Kubernetes {RELEASE}, best of {args.repeat}")
    print(f"{'':38} {'CPU ms':>9} {'wall ms':>9}")
    print(f"{'dralint check, first run':38} {cold_cpu * 1000:9.1f} {cold_wall * 1000:9.1f}")
    print(f"{'dralint check (all rules, dry-run)':38} {cpu * 1000:9.1f} {wall * 1000:9.1f}")
    print(f"{'kubernetes-validate (schema only)':38} {base_cpu * 1000:9.1f} {base_wall * 1000:9.1f}")
    print(f"dralint is {ratio:.1f}x faster (CPU; {base_wall / wall:.1f}x by wall time); target >= {TARGET:.0f}x")
    record(
        Figure(
            "full check of the corpus vs kubernetes-validate (schema only)",
            round(ratio, 1),
            "x faster",
            target=f">= {TARGET:.0f}x",
            met=ratio >= TARGET,
            note=f"dralint {cpu * 1000:.0f} ms vs {base_cpu * 1000:.0f} ms CPU, best of {args.repeat}, "
            f"{len(files)} files, {objects} objects",
        )
    )
    return 0 if ratio >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
