"""Full dralint validation of the corpus versus kubernetes-validate's schema-only validation of it.

Both sides read the same files from ../shared/corpus and validate every object for Kubernetes
1.37: dralint runs its whole ``check`` pipeline (decoding with positions, every registered rule),
kubernetes-validate (a dev dependency) checks each document against its strict JSON schema.
Each side runs ``--repeat`` times; the best time counts. Usage::

    python benchmarks/validate_bench.py [--repeat 5] [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dralint.commands.check import CheckSettings, run  # noqa: E402

RELEASE = "1.37"


def corpus_files(corpus: Path) -> list[str]:
    with open(corpus / "INDEX.tsv", encoding="utf-8") as handle:
        return [str(corpus / row["file"]) for row in csv.DictReader(handle, delimiter="\t")]


def dralint_once(files: list[str]) -> int:
    """The whole pipeline over all files (findings written as JSON to /dev/null); returns the exit code."""
    settings = CheckSettings(paths=tuple(files), outputs=(("json", os.devnull),), release=RELEASE)
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


def best_of(repeat: int, function: Callable[[list[str]], int], files: list[str]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(files)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    files = corpus_files(args.corpus)
    objects = kubernetes_validate_once(files)  # warms the file cache for both sides
    # The first run also reads the schema store and compiles validators (cached for later runs).
    cold_time = best_of(1, dralint_once, files)
    dralint_time = best_of(args.repeat, dralint_once, files)
    baseline_time = best_of(args.repeat, kubernetes_validate_once, files)
    print(f"corpus: {len(files)} files, {objects} objects, Kubernetes {RELEASE}, best of {args.repeat}")
    print(f"dralint check, first run:            {cold_time * 1000:8.1f} ms")
    print(f"dralint check (all rules):           {dralint_time * 1000:8.1f} ms")
    print(f"kubernetes-validate (schema only):   {baseline_time * 1000:8.1f} ms")
    print(f"ratio dralint / kubernetes-validate: {dralint_time / baseline_time:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
