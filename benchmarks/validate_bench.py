"""Full dralint check of the corpus versus kubernetes-validate's schema-only validation of the same files.

Both sides read the same files from the shared corpus and validate every object for Kubernetes
1.37. Two comparisons, side by side in one run:

- in this process, warm, the whole corpus: dralint's whole ``check`` pipeline (decoding with
  positions, schema, kube-apiserver rules, version skew, references, CEL, and the dry-run: the
  examples' cluster is passed as ``--inventory``, so the corpus' pods are placed on it),
  writing JSON, against kubernetes-validate (a dev dependency) checking each document against
  its strict JSON schema through its Python API;
- as processes, the way a user runs them, on the valid v1 corpus (``INDEX.tsv`` rows with
  ``expected`` valid and ``resource_k8s_io_apiversions`` v1): ``dralint check --no-config
  --no-cache FILES`` (a fresh interpreter, bytecode compiled as ``pip install`` leaves it) against
  the ``kubernetes-validate --strict FILES`` command line; the same files in this process too.
  Beside them, the floor a process cannot go under: ``python -c pass``, and a process that only
  imports the dralint modules the check loads; what the check's process takes beyond that is its
  own work. (The earlier target, 20 times faster than this command line, is retired: the peer
  users pick for speed is kubeconform, compared in ``kubeconform_bench.py``.)

Every figure is the median of ``--repeat`` runs of the sides in turn; CPU time counts (the
machine is shared: wall time mostly measures the neighbours; it is printed too). Usage::

    python benchmarks/validate_bench.py [--repeat 5] [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import (  # noqa: E402
    CORPUS,
    Command,
    Figure,
    Times,
    compile_bytecode,
    corpus_files,
    in_turn,
    record,
    side_by_side,
    with_changes,
)

from dralint.commands.check import CheckSettings, run  # noqa: E402

RELEASE = "1.37"
INVENTORY = ROOT / "examples" / "cluster"


def dralint_once(files: list[str], *, inventory: bool = True) -> int:
    """The whole pipeline over all files (findings written as JSON to /dev/null); returns the exit code."""
    settings = CheckSettings(
        paths=tuple(files),
        outputs=(("json", os.devnull),),
        release=RELEASE,
        inventory=(str(INVENTORY),) if inventory else (),
        no_config=True,
        jobs=1,
    )
    return run(settings)


def loaded_modules(files: list[str], env: dict[str, str | None]) -> list[str]:
    """The dralint modules that a check of ``files`` imports, from one process that runs it and lists them."""
    script = (
        "import atexit, sys\n"
        "names = lambda: sorted(m for m in sys.modules if m.startswith('dralint'))\n"
        "atexit.register(lambda: sys.stderr.write(chr(10) + ' '.join(names())))\n"
        "sys.argv[0] = 'dralint'\n"
        "from dralint.cli import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "check", "--no-config", *files],
        env=with_changes(env),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stderr.splitlines()[-1].split()  # the last line: what the check wrote comes before


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


def _row(label: str, times: Times) -> str:
    return f"{label:44} {times.cpu * 1000:9.1f} {times.wall * 1000:9.1f}"


def bench_in_process(files: list[str], repeat: int) -> None:
    objects = kubernetes_validate_once(files)  # warms the file cache for both sides
    # in_turn calls each once before timing: dralint reads its schema store and compiles validators then.
    times = in_turn({"dralint": lambda: dralint_once(files), "kv": lambda: kubernetes_validate_once(files)}, repeat)
    ratio = times["kv"].cpu / times["dralint"].cpu
    print(f"in this process, the whole corpus: {len(files)} files, {objects} objects, Kubernetes {RELEASE}")
    print(f"{'':44} {'CPU ms':>9} {'wall ms':>9}")
    print(_row("dralint check (all rules, dry-run)", times["dralint"]))
    print(_row("kubernetes-validate (schema only)", times["kv"]))
    wall_ratio = times["kv"].wall / times["dralint"].wall
    print(f"dralint is {ratio:.1f}x faster (CPU; {wall_ratio:.1f}x by wall time), median of {repeat}")
    record(
        Figure(
            "full check of the corpus vs kubernetes-validate (schema only), in one warm process",
            round(ratio, 1),
            "x faster",
            note=f"dralint {times['dralint'].cpu * 1000:.0f} ms vs {times['kv'].cpu * 1000:.0f} ms CPU, median of "
            f"{repeat}, {len(files)} files, {objects} objects, the examples' cluster as inventory",
        )
    )


def bench_processes(files: list[str], repeat: int) -> None:
    """The valid v1 corpus as processes and in this process, side by side."""
    validate = shutil.which("kubernetes-validate", path=str(Path(sys.executable).parent)) or shutil.which(
        "kubernetes-validate"
    )
    if validate is None:
        sys.exit("the kubernetes-validate command is missing: pip install -e '.[dev]'")
    compile_bytecode(ROOT / "dralint")
    here = {"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": None}  # the checkout's dralint
    modules = loaded_modules(files, here)
    processes = side_by_side(
        {
            "dralint": Command([sys.executable, "-m", "dralint", "check", "--no-config", "--no-cache", *files], here),
            "kv": Command([validate, "--strict", "-k", f"{RELEASE}.0", *files]),
            "python": Command([sys.executable, "-c", "pass"]),
            "imports": Command([sys.executable, "-c", "import " + ", ".join(modules)], here),
        },
        repeat,
        cwd=ROOT,
    )
    # The whole-corpus comparison before left its objects (schemas, documents) in this process: frozen,
    # the garbage collector skips them, so neither side pays for rescanning what the other left.
    gc.collect()
    gc.freeze()
    warm = in_turn(
        {"dralint": lambda: dralint_once(files, inventory=False), "kv": lambda: kubernetes_validate_once(files)},
        repeat,
    )
    ratio = processes["kv"].cpu / processes["dralint"].cpu
    print(f"the valid v1 corpus: {len(files)} files, median of {repeat} runs in turn")
    print(f"{'':44} {'CPU ms':>9} {'wall ms':>9}")
    print(_row("dralint check, one process", processes["dralint"]))
    print(_row("kubernetes-validate --strict, one process", processes["kv"]))
    print(_row("dralint check, in this process (warm)", warm["dralint"]))
    print(_row("kubernetes-validate, in this process (warm)", warm["kv"]))
    print(_row("python -c pass, one process", processes["python"]))
    print(_row(f"the check's {len(modules)} dralint modules imported", processes["imports"]))
    floor = processes["imports"].cpu
    own = processes["dralint"].cpu - floor
    print(f"start-up and imports alone take {floor * 1000:.0f} ms; the check's own work {own * 1000:.0f} ms")
    warm_ratio = warm["kv"].cpu / warm["dralint"].cpu
    print(f"as processes dralint is {ratio:.1f}x faster (CPU); in this process {warm_ratio:.1f}x")
    record(
        Figure(
            "the valid v1 corpus: the check's own work (its process less a process that only imports its modules)",
            round(own * 1000),
            "ms",
            note=f"{processes['dralint'].cpu * 1000:.0f} ms in all; importing the {len(modules)} dralint modules the "
            f"check loads takes {floor * 1000:.0f} ms as a process, python -c pass "
            f"{processes['python'].cpu * 1000:.0f} ms",
        )
    )
    record(
        Figure(
            "the valid v1 corpus as one process vs the kubernetes-validate command line",
            round(ratio, 1),
            "x faster",
            note=f"dralint {processes['dralint'].cpu * 1000:.0f} ms vs {processes['kv'].cpu * 1000:.0f} ms CPU, "
            f"median of {repeat} fresh processes in turn, bytecode compiled, {len(files)} files; in one warm process "
            f"{warm['dralint'].cpu * 1000:.0f} vs {warm['kv'].cpu * 1000:.0f} ms ({warm_ratio:.1f}x)",
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    bench_in_process(corpus_files(args.corpus), args.repeat)
    print()
    bench_processes(corpus_files(args.corpus, expected="valid", api_versions="v1"), args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
