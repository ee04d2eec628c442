"""Where a full check spends its time: cProfile of the corpus check of validate_bench.py, by stage.

One warm run of ``dralint check`` over ../shared/corpus with the examples' cluster as inventory
(everything enabled, one process) under cProfile. Printed: the share of each stage (reading
and decoding, each check, the shared analyses the first check to need them pays for,
suppressions and sorting, writing the report), then the functions with the most own time.
Shares are of the profiled run (cProfile slows small functions most, so decoding looks a
little heavier than it is). Usage::

    python benchmarks/profile_bench.py [--top 15]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import CORPUS, corpus_files  # noqa: E402
from validate_bench import INVENTORY, RELEASE  # noqa: E402

from dralint.commands.check import CheckSettings, run  # noqa: E402

# (label, file suffix, function): stages, in pipeline order.
STAGES = [
    ("configuration and rule catalogue", "dralint/commands/check.py", "configuration"),
    ("read, decode and identify files", "dralint/read/load.py", "load_files"),
    ("  of which YAML composing (C parser, node objects)", "dralint/read/compose.py", "compose"),
    ("  of which building values from nodes", "dralint/read/yamldoc.py", "build"),
    ("normalise to v1 (shared, lazily)", "dralint/api/normalise.py", "normalise"),
    ("pod templates (shared, lazily)", "dralint/pipeline/context.py", "pod_templates"),
    ("schema validation (shared, lazily)", "dralint/pipeline/context.py", "schema_errors"),
    ("inventory (shared, lazily)", "dralint/pipeline/context.py", "inventory"),
    ("dry-run (shared, lazily)", "dralint/pipeline/context.py", "analysis"),
    ("suppressions, sorting", "dralint/pipeline/engine.py", "finish"),
    ("position look-ups", "dralint/pipeline/engine.py", "resolve"),
    ("write the JSON report", "dralint/commands/check.py", "write_outputs"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    settings = CheckSettings(
        paths=tuple(corpus_files(args.corpus)),
        outputs=(("json", os.devnull),),
        release=RELEASE,
        inventory=(str(INVENTORY),),
        no_config=True,
        jobs=1,
    )
    run(settings)  # warm: imports, schema store, compiled validators, CEL environments
    profiler = cProfile.Profile()
    profiler.enable()
    run(settings)
    profiler.disable()
    stats = pstats.Stats(profiler)
    entries = stats.stats  # type: ignore[attr-defined]
    total = max(ct for (file, _, name), (_, _, _, ct, _) in entries.items() if name == "run" and "check.py" in file)

    def cumulative(suffix: str, function: str) -> float:
        return sum(
            ct for (file, _, name), (_, _, _, ct, _) in entries.items() if file.endswith(suffix) and name == function
        )

    print(f"profiled run: {total * 1000:.0f} ms (cProfile overhead included)")
    print("stages (cumulative, share of the run)")
    for label, suffix, function in STAGES:
        seconds = cumulative(suffix, function)
        print(f"  {label:52} {seconds * 1000:7.1f} ms {seconds / total:6.1%}")
    print("checks (cumulative; the first to need a shared analysis pays for it)")
    checks = sorted(
        ((ct, file.rsplit("/", 1)[1][:-3]) for (file, _, name), (_, _, _, ct, _) in entries.items()
         if name == "check" and "/dralint/checks/" in file),
        reverse=True,
    )  # fmt: skip
    for seconds, name in checks:
        print(f"  {name:52} {seconds * 1000:7.1f} ms {seconds / total:6.1%}")
    print(f"functions with the most own time (top {args.top})")
    rows = sorted(entries.items(), key=lambda item: item[1][2], reverse=True)[: args.top]
    for (file, line, name), (_, calls, own, ct, _) in rows:
        where = f"{_short(file)}:{line}({name})"
        print(f"  {own * 1000:7.1f} ms own {ct * 1000:8.1f} ms cum {calls:>8} calls  {where}")
    return 0


def _short(file: str) -> str:
    for marker in ("/dralint/", "/site-packages/", "/lib/python3"):
        if marker in file:
            return file[file.index(marker) + 1 :]
    return file


if __name__ == "__main__":
    raise SystemExit(main())
