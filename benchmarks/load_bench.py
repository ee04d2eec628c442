"""Loading speed on the shared corpus and start-up time of the command line.

Run from the repository root: ``python benchmarks/load_bench.py [--repeat N]``. Figures are the
best of N runs of CPU time (user + system; on a busy shared machine wall time mostly measures
the neighbours); start-up times are compared with ``python -c pass`` measured the same way in
the same run, so the ratios hold on any machine.

- documents per second for loading only (read, decode, identify) and for a full ``check``
  (loading, normalising, every registered check, formatting) over ../shared/corpus;
- wall time of ``dralint --version`` and of a one-file ``dralint check`` (the pre-commit case),
  each as a subprocess, against the interpreter's own start-up;
- the heaviest imports of the one-file check (``python -X importtime``), to keep them lazy.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
ONE_FILE = ROOT / "examples" / "apps" / "inference" / "chat.yaml"
sys.path.insert(0, str(ROOT))


def best_of(repeat: int, function: Callable[[], object]) -> float:
    """Least CPU time (this process and its finished children) of ``repeat`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = _cpu()
        function()
        best = min(best, _cpu() - start)
    return best


def _cpu() -> float:
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + children.ru_utime + children.ru_stime


def corpus_files() -> list[str]:
    return sorted(str(path) for path in CORPUS.rglob("*.yaml"))


def bench_loading(repeat: int) -> None:
    from dralint.commands import check as check_command
    from dralint.load import load

    files = corpus_files()
    documents = len(load(files).documents)
    load_time = best_of(repeat, lambda: load(files))
    settings = check_command.CheckSettings(paths=tuple(files))

    def full_check() -> None:
        with redirect_stdout(io.StringIO()):
            check_command.run(settings)

    check_time = best_of(repeat, full_check)
    print(f"corpus: {len(files)} files, {documents} documents")
    print(f"  load only   {load_time * 1000:8.1f} ms  {documents / load_time:8.0f} documents/s")
    print(f"  full check  {check_time * 1000:8.1f} ms  {documents / check_time:8.0f} documents/s")


def run(args: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def bench_startup(repeat: int) -> None:
    python = sys.executable
    baseline = best_of(repeat, lambda: run([python, "-c", "pass"]))
    version = best_of(repeat, lambda: run([python, "-m", "dralint", "--version"]))
    one_file = best_of(repeat, lambda: run([python, "-m", "dralint", "check", str(ONE_FILE)]))
    print("start-up (best CPU time of a subprocess)")
    print(f"  python -c pass           {baseline * 1000:7.1f} ms")
    for label, seconds in (("dralint --version", version), ("dralint check one file", one_file)):
        extra = (seconds - baseline) * 1000
        print(f"  {label:<24} {seconds * 1000:7.1f} ms  (+{extra:.1f} ms, {seconds / baseline:.2f}x the interpreter)")


def bench_imports() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "dralint", "check", str(ONE_FILE)],
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
