"""Loading speed on the shared corpus, and a one-file check as one process (the pre-commit case).

Run from the repository root: ``python benchmarks/load_bench.py [--repeat N]``.

- documents per second for loading only (read, decode, identify) and for a full ``check``
  (loading, normalising, every registered check, formatting) over the corpus, in this process,
  best of N;
- whole processes, as a user runs them: ``python -c pass`` (the interpreter's own start-up),
  ``dralint --version`` and a one-file ``dralint check`` of two typical pre-commit files (a
  Deployment with its ResourceClaimTemplate; a DeviceClass and a claim template with CEL
  selectors and a driver's opaque configuration), each a fresh interpreter with dralint's
  bytecode compiled (as ``pip install`` leaves it), run in turn N times (median CPU time of the
  child: on a shared machine wall time measures the neighbours); then the first file with a
  configuration file, and without bytecode (every module compiled on each run, as under
  ``PYTHONDONTWRITEBYTECODE=1`` with no cache). Target: a one-file check at most 4 times the
  CPU time of ``python -c pass``. Next to each, the same check in this process (warm: imports,
  catalogue and schemas already loaded), so the difference is what a process pays to start;
- the heaviest imports of the one-file check (``python -X importtime``), to keep them lazy.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import (  # noqa: E402
    CORPUS,
    Command,
    Figure,
    best_of,
    compile_bytecode,
    corpus_files,
    in_turn,
    record,
    require,
    side_by_side,
)

DRANET_MPI = CORPUS / "google__dranet" / "examples__mpi_operator__dra_resources.yaml"
ONE_FILES = {  # label: file (in the repository, or in the shared data)
    "Deployment + ResourceClaimTemplate": ROOT / "examples" / "apps" / "inference" / "chat.yaml",
    "DeviceClass + claim template, CEL, opaque config": DRANET_MPI,
}
CONFIGURATION = 'kubernetesVersion: "1.37"\nfailOn: error\nrules:\n  ignore: [DRA804]\n'
TARGET_RATIO = 4.0  # a one-file check: at most this many times the CPU time of `python -c pass`


def bench_loading(repeat: int) -> None:
    from dralint.commands import check as check_command
    from dralint.read.load import load

    files = corpus_files()
    documents = len(load(files).documents)
    load_time, _ = best_of(repeat, lambda: load(files))
    settings = check_command.CheckSettings(paths=tuple(files), jobs=1, no_config=True)

    def full_check() -> None:
        with redirect_stdout(io.StringIO()):
            check_command.run(settings)

    check_time, _ = best_of(repeat, full_check)
    print(f"corpus: {len(files)} files, {documents} documents")
    print(f"  load only   {load_time * 1000:8.1f} ms  {documents / load_time:8.0f} documents/s")
    print(f"  full check  {check_time * 1000:8.1f} ms  {documents / check_time:8.0f} documents/s")


def _relative(path: Path) -> str:
    for base in (ROOT, CORPUS.parent):
        if path.is_relative_to(base):
            return str(path.relative_to(base))
    return str(path)


def bench_processes(repeat: int) -> None:
    from dralint.commands import check as check_command

    python = sys.executable
    # The checkout's dralint (cwd and PYTHONPATH), whatever the environment has installed.
    here = {"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": None}
    compile_bytecode(ROOT / "dralint")
    commands = {
        "python -c pass": Command([python, "-c", "pass"], here),
        "dralint --version": Command([python, "-m", "dralint", "--version"], here),
    }
    for label, path in ONE_FILES.items():
        commands[f"dralint check: {label}"] = Command(
            [python, "-m", "dralint", "check", "--no-config", str(path)], here
        )
    first = next(iter(ONE_FILES.values()))
    with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as repository:
        # As in a repository with a configuration file (read, and validated against its schema).
        configured = Path(repository) / first.name
        shutil.copy(first, configured)
        (Path(repository) / ".dralint.yaml").write_text(CONFIGURATION, encoding="utf-8")
        commands["  the first with a configuration file"] = Command(
            [python, "-m", "dralint", "check", "--config", str(Path(repository) / ".dralint.yaml"), str(configured)],
            here,
        )
        # An empty cache prefix and no writing: every module is compiled on every run.
        cold = {**here, "PYTHONPYCACHEPREFIX": empty, "PYTHONDONTWRITEBYTECODE": "1"}
        commands["  the first without bytecode"] = Command(
            [python, "-m", "dralint", "check", "--no-config", str(first)], cold
        )
        processes = side_by_side(commands, repeat, cwd=ROOT)

    def in_process(path: Path) -> Callable[[], object]:
        settings = check_command.CheckSettings(paths=(str(path),), jobs=1, no_config=True)

        def check() -> None:
            with redirect_stdout(io.StringIO()):
                check_command.run(settings)

        return check

    warm = in_turn({label: in_process(path) for label, path in ONE_FILES.items()}, repeat)
    baseline = processes["python -c pass"].cpu
    print(f"whole processes (fresh interpreter, bytecode compiled), median of {repeat} runs in turn")
    print(f"  {'':66} CPU ms  wall ms  x python -c pass (CPU)  in process (warm) CPU ms")
    for name, times in processes.items():
        label = name.removeprefix("dralint check: ")
        inside = f"{warm[label].cpu * 1000:.1f}" if label in warm else ""
        ratio = times.cpu / baseline
        print(f"  {name:66} {times.cpu * 1000:6.1f} {times.wall * 1000:8.1f} {ratio:10.2f}x  {inside:>27}")
    for label, path in ONE_FILES.items():
        times = processes[f"dralint check: {label}"]
        ratio = times.cpu / baseline
        record(
            Figure(
                f"one-file check as one process ({label}), CPU relative to python -c pass",
                round(ratio, 2),
                "x",
                target=f"<= {TARGET_RATIO:g}x",
                met=ratio <= TARGET_RATIO,
                note=f"{_relative(path)}; median of {repeat} fresh processes in turn, bytecode compiled: "
                f"{times.cpu * 1000:.0f} ms CPU vs python -c pass {baseline * 1000:.0f} ms; "
                f"in process (warm) {warm[label].cpu * 1000:.0f} ms",
            )
        )


def bench_imports() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    first = next(iter(ONE_FILES.values()))
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "dralint", "check", "--no-config", str(first)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    rows: list[tuple[int, int, str]] = []
    for line in result.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:") :].split("|")
        rows.append((int(own), int(cumulative), name.strip()))
    print(f"heaviest imports of a one-file check ({_relative(first)}; own time, cumulative)")
    for own_us, cumulative_us, module in sorted(rows, reverse=True)[:8]:
        print(f"  {own_us / 1000:6.1f} ms  {cumulative_us / 1000:6.1f} ms  {module}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement")
    options = parser.parse_args()
    require(CORPUS, "the corpus of published manifests")
    bench_loading(options.repeat)
    bench_processes(options.repeat)
    bench_imports()


if __name__ == "__main__":
    main()
