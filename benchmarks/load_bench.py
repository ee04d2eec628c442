"""Loading speed on the shared corpus and start-up time of the command line.

Run from the repository root: ``python benchmarks/load_bench.py [--repeat N]``. Figures are the
best of N runs of CPU time (user + system; on a busy shared machine wall time mostly measures
the neighbours) and of wall time; start-up times are compared with ``python -c pass`` measured
the same way in the same run, so the ratios hold on any machine.

- documents per second for loading only (read, decode, identify) and for a full ``check``
  (loading, normalising, every registered check, formatting) over ../shared/corpus;
- ``dralint --version`` and a one-file ``dralint check`` (the pre-commit case; target: under
  0.3 s including the interpreter's start-up), each as a subprocess, against the interpreter's
  own start-up: with compiled bytecode (``__pycache__``, as ``pip install`` leaves it) and
  without (every module compiled on each run, as under ``PYTHONDONTWRITEBYTECODE=1`` with no
  cache);
- the heaviest imports of the one-file check (``python -X importtime``), to keep them lazy.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
ONE_FILE = ROOT / "examples" / "apps" / "inference" / "chat.yaml"
TARGET_MS = 300
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, best_of, corpus_files, record  # noqa: E402


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


def run(args: list[str], env: dict[str, str] | None = None) -> None:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    environment.update(env or {})
    subprocess.run(args, env=environment, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def bench_startup(repeat: int) -> None:
    python = sys.executable
    check = [python, "-m", "dralint", "check", "--no-config", str(ONE_FILE)]
    run(check)  # writes the bytecode caches
    baseline = best_of(repeat, lambda: run([python, "-c", "pass"]))
    version = best_of(repeat, lambda: run([python, "-m", "dralint", "--version"]))
    one_file = best_of(repeat, lambda: run(check))
    with tempfile.TemporaryDirectory() as empty:
        # An empty cache prefix and no writing: every module is compiled on every run.
        cold_env = {"PYTHONPYCACHEPREFIX": empty, "PYTHONDONTWRITEBYTECODE": "1"}
        cold = best_of(repeat, lambda: run(check, cold_env))
    print(f"start-up (best of {repeat} subprocesses)   CPU ms   wall ms")
    print(f"  python -c pass                    {baseline[0] * 1000:7.1f}  {baseline[1] * 1000:7.1f}")
    rows = (
        ("dralint --version", version),
        ("dralint check one file", one_file),
        ("  the same without bytecode", cold),
    )
    for label, (cpu, wall) in rows:
        print(f"  {label:<30}  {cpu * 1000:7.1f}  {wall * 1000:7.1f}  (+{(wall - baseline[1]) * 1000:.0f} ms wall)")
    record(
        Figure(
            "one-file check (pre-commit), interpreter start-up included",
            round(one_file[1] * 1000),
            "ms",
            target=f"< {TARGET_MS} ms",
            met=one_file[1] * 1000 < TARGET_MS,
            note=f"wall, best of {repeat}, {ONE_FILE.relative_to(ROOT)}; CPU {one_file[0] * 1000:.0f} ms; "
            f"python -c pass {baseline[1] * 1000:.0f} ms; without bytecode {cold[1] * 1000:.0f} ms",
        )
    )


def bench_imports() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "dralint", "check", "--no-config", str(ONE_FILE)],
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
    print("heaviest imports of a one-file check (own time, cumulative)")
    for own_us, cumulative_us, module in sorted(rows, reverse=True)[:8]:
        print(f"  {own_us / 1000:6.1f} ms  {cumulative_us / 1000:6.1f} ms  {module}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (the best one counts)")
    options = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"{CORPUS} is missing: the corpus sits beside the repository")
    bench_loading(options.repeat)
    bench_startup(options.repeat)
    bench_imports()


if __name__ == "__main__":
    main()
