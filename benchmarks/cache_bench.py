"""``dralint check`` a second time over unchanged files: the results cache against a full check and start-up.

The valid v1 corpus (``INDEX.tsv`` rows with ``expected`` valid and ``resource_k8s_io_apiversions``
v1) is copied into a new git repository (the cache lives at the root of the work tree the check
runs in, ``.dralint_cache/``). Side by side, fresh processes with bytecode compiled as ``pip
install`` leaves it, medians of ``--repeat`` rounds in turn, CPU time:

- ``dralint check --no-cache .``: every file read and checked;
- ``dralint check .`` with the cache filled by a first run: nothing read, nothing checked;
- ``dralint check .`` after one file changed (a comment added, so the findings stay the same):
  that file read again, the checks across files run again;
- ``dralint --version``: start-up (the interpreter and the command line).

Target: the second run over unchanged files at most 0.4 times the full check. What it costs beyond
``dralint --version`` is the ``check`` command's own start-up: its imports (the command line, the
YAML reader, ignore files), finding the files and hashing them, and reading the run's entry. Usage::

    python benchmarks/cache_bench.py [--repeat 7] [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import (  # noqa: E402
    CORPUS,
    Command,
    Figure,
    compile_bytecode,
    corpus_files,
    record,
    run_process,
    side_by_side,
)

TARGET = 0.4  # the second run's CPU / the full check's


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    compile_bytecode(ROOT / "dralint")
    files = corpus_files(args.corpus, expected="valid", api_versions="v1")
    here = {"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": None, "DRALINT_NO_CACHE": None}
    check = [sys.executable, "-m", "dralint", "check", "--no-config", "."]
    with tempfile.TemporaryDirectory() as folder:
        repository = Path(folder)
        subprocess.run(["git", "init", "-q", str(repository)], check=True)
        for file in files:
            destination = repository / Path(file).relative_to(args.corpus)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, destination)
        changed = repository / Path(files[0]).relative_to(args.corpus)
        original = changed.read_text(encoding="utf-8")
        times = side_by_side(
            {
                "full": Command([*check, "--no-cache"], here),
                "cached": Command(check, here),
                "version": Command([sys.executable, "-m", "dralint", "--version"], here),
            },
            args.repeat,
            cwd=repository,
        )
        edits = iter(range(args.repeat))  # a new content each time, so that the file's entry never holds
        one_changed = _after_each(
            lambda: changed.write_text(original + f"# edit {next(edits)}\n", encoding="utf-8"),
            Command(check, here),
            args.repeat,
            repository,
        )
    ratio = times["cached"].cpu / times["full"].cpu
    print(f"the valid v1 corpus, {len(files)} files in a git repository; CPU s, median of {args.repeat} in turn")
    print(f"{'dralint check --no-cache .':40} {times['full'].cpu:8.3f}")
    print(f"{'dralint check . (unchanged, cached)':40} {times['cached'].cpu:8.3f}")
    print(f"{'dralint check . (one file changed)':40} {one_changed:8.3f}")
    print(f"{'dralint --version (start-up)':40} {times['version'].cpu:8.3f}")
    print(f"second run / full check: {ratio:.2f} (target <= {TARGET})")
    record(
        Figure(
            "a second check of unchanged files (results cache), CPU relative to a full check",
            round(ratio, 2),
            "x",
            target=f"<= {TARGET}x",
            met=ratio <= TARGET,
            note=f"{len(files)} files: cached {times['cached'].cpu * 1000:.0f} ms, dralint --version "
            f"{times['version'].cpu * 1000:.0f} ms, --no-cache {times['full'].cpu * 1000:.0f} ms, one file changed "
            f"{one_changed * 1000:.0f} ms; median of {args.repeat} fresh processes in turn",
        )
    )
    return 0


def _after_each(change: Callable[[], object], command: Command, repeat: int, cwd: Path) -> float:
    """The median CPU seconds of ``command`` run after each call of ``change``."""
    samples = []
    for _ in range(repeat):
        change()
        cpu, _, _ = run_process(command, cwd=cwd)
        samples.append(cpu)
    return statistics.median(samples)


if __name__ == "__main__":
    raise SystemExit(main())
