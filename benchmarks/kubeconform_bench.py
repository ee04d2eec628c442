"""dralint check against kubeconform, the fastest schema validator people use, as a user runs each.

kubeconform (Go) validates the schema only; dralint runs every rule (schema, kube-apiserver
semantics, version skew, references, CEL, the dry-run of the inputs' own inventories). Both
validate for Kubernetes 1.37, strictly, with nothing fetched over the network. Two comparisons,
the tools alternating in the same run (fresh processes, medians of ``--repeat`` rounds, CPU time
of each whole process tree: user + system of the process, its threads and its workers):

- the valid v1 corpus (``INDEX.tsv`` rows with ``expected`` valid and ``resource_k8s_io_apiversions``
  v1), 147 files: ``dralint check --no-config --no-cache FILES`` against ``kubeconform -n 1``.
  Target: dralint at most 1.0 times kubeconform's CPU;
- those files copied ``--copies`` times (2,940 files by default) into a temporary folder:
  ``dralint check --jobs 2`` against ``kubeconform -n 2``. Targets: dralint at most 1.5 times
  kubeconform's CPU, and its wall time at most 0.65 times its own CPU time (the two workers really
  run side by side; on a machine whose cores are busy with other work no program can show that,
  so the load average is printed beside it).

kubeconform is not in the package registries and is not installed by ``pip install -e '.[dev]'``:
build it from its repository (see BENCHMARKS.md) and give its path in ``KUBECONFORM``; its schemas
are written by ``python benchmarks/kubeconform_schemas.py DIR`` (from the kubernetes-validate
bundle, a dev dependency), given in ``KUBECONFORM_SCHEMAS``. Without either the comparison is
skipped, saying so. bytecode is compiled beforehand, as ``pip install`` leaves it. Usage::

    KUBECONFORM=/path/kubeconform KUBECONFORM_SCHEMAS=/path/schemas python benchmarks/kubeconform_bench.py
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import CORPUS, Command, Figure, Times, compile_bytecode, corpus_files, record, side_by_side  # noqa: E402

RELEASE = "1.37.0"
ONE_PROCESS_TARGET = 1.0  # dralint CPU / kubeconform CPU, the valid v1 corpus
JOBS_TARGET = 1.5  # the same with two workers each, on the copies
PARALLEL_TARGET = 0.65  # dralint's wall time / its CPU time with two workers


def kubeconform(binary: str, schemas: str, jobs: int, paths: list[str]) -> Command:
    return Command(
        [
            binary,
            "-strict",
            "-ignore-missing-schemas",  # custom resources: kubeconform has no schema for them, dralint skips them too
            "-summary",
            "-n",
            str(jobs),
            "-kubernetes-version",
            RELEASE,
            "-schema-location",
            schemas,
            *paths,
        ]
    )


def dralint(jobs: int, paths: list[str]) -> Command:
    here = {"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": None}  # the checkout's dralint, its bytecode
    return Command(
        [sys.executable, "-m", "dralint", "check", "--no-config", "--no-cache", "-j", str(jobs), *paths], here
    )


def _row(label: str, times: Times) -> str:
    return f"{label:46} {times.cpu:8.3f} {times.wall:8.3f}"


def _load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    binary, schemas = os.environ.get("KUBECONFORM"), os.environ.get("KUBECONFORM_SCHEMAS")
    if not binary or not Path(binary).is_file() or not schemas or not Path(schemas).is_dir():
        print(
            "kubeconform comparison skipped: set KUBECONFORM to a kubeconform binary and KUBECONFORM_SCHEMAS to the "
            "folder benchmarks/kubeconform_schemas.py writes (see BENCHMARKS.md for how they were set up)"
        )
        return 0
    version = subprocess.run([binary, "-v"], capture_output=True, text=True, check=False).stdout.strip()
    compile_bytecode(ROOT / "dralint")
    files = corpus_files(args.corpus, expected="valid", api_versions="v1")
    print(f"kubeconform {version}; Kubernetes {RELEASE}; cores {os.cpu_count()}; load average before {_load()}")
    print(f"{'':46} {'CPU s':>8} {'wall s':>8}")

    alone = side_by_side(
        {"dralint": dralint(1, files), "kubeconform": kubeconform(binary, schemas, 1, files)}, args.repeat
    )
    ratio = alone["dralint"].cpu / alone["kubeconform"].cpu
    print(f"the valid v1 corpus, {len(files)} files, one process each, median of {args.repeat} in turn")
    print(_row("dralint check --no-cache", alone["dralint"]))
    print(_row("kubeconform -n 1", alone["kubeconform"]))
    print(f"dralint / kubeconform CPU: {ratio:.2f} (target <= {ONE_PROCESS_TARGET})")
    record(
        Figure(
            "the valid v1 corpus as one process, CPU relative to kubeconform -n 1",
            round(ratio, 2),
            "x",
            target=f"<= {ONE_PROCESS_TARGET}x",
            met=ratio <= ONE_PROCESS_TARGET,
            note=f"dralint {alone['dralint'].cpu * 1000:.0f} ms vs kubeconform {version} "
            f"{alone['kubeconform'].cpu * 1000:.0f} ms CPU, median of {args.repeat} fresh processes in turn, "
            f"{len(files)} files, bytecode compiled, no cache",
        )
    )

    with tempfile.TemporaryDirectory() as folder:
        copies = Path(folder)
        for n in range(args.copies):
            target = copies / f"copy-{n:02}"
            for file in files:
                destination = target / Path(file).relative_to(args.corpus)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(file, destination)
        count = len(files) * args.copies
        size = sum(p.stat().st_size for p in copies.rglob("*") if p.is_file())
        both = side_by_side(
            {"dralint": dralint(2, [str(copies)]), "kubeconform": kubeconform(binary, schemas, 2, [str(copies)])},
            args.repeat,
        )
    jobs_ratio = both["dralint"].cpu / both["kubeconform"].cpu
    parallel = both["dralint"].wall / both["dralint"].cpu
    print(
        f"{args.copies} copies: {count} files, {size / 1e6:.1f} MB, two workers each, median of {args.repeat} in turn"
    )
    print(_row("dralint check --no-cache --jobs 2", both["dralint"]))
    print(_row("kubeconform -n 2", both["kubeconform"]))
    print(f"dralint / kubeconform CPU: {jobs_ratio:.2f} (target <= {JOBS_TARGET})")
    print(f"dralint wall / CPU: {parallel:.2f} (target <= {PARALLEL_TARGET}); load average after {_load()}")
    note = (
        f"dralint {both['dralint'].cpu:.2f} s vs kubeconform {both['kubeconform'].cpu:.2f} s CPU, median of "
        f"{args.repeat} in turn, {count} files ({size / 1e6:.0f} MB)"
    )
    record(
        Figure(
            f"{count} files with two workers, CPU relative to kubeconform -n 2",
            round(jobs_ratio, 2),
            "x",
            target=f"<= {JOBS_TARGET}x",
            met=jobs_ratio <= JOBS_TARGET,
            note=note,
        )
    )
    record(
        Figure(
            f"{count} files with --jobs 2: dralint's wall time relative to its CPU time",
            round(parallel, 2),
            "x",
            target=f"<= {PARALLEL_TARGET}x",
            met=parallel <= PARALLEL_TARGET,
            note=f"wall {both['dralint'].wall:.2f} s, CPU {both['dralint'].cpu:.2f} s (parent and workers); "
            f"{os.cpu_count()} cores shared, load average {_load()}",
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
