"""Run every benchmark and write BENCHMARKS.md: headline figures, the machine, commands, what dominates.

    python benchmarks/run_all.py [--quick] [--output BENCHMARKS.md]

Each benchmark runs as a subprocess (its own interpreter, as a user runs it) with
``DRALINT_BENCH_FIGURES`` naming a file in which it records its headline figures
(``benchmarks/figures.py``); every figure is measured against a baseline in the same script.
BENCHMARKS.md gets the machine (cores, CPU, load average before and after: the machine is
shared, so CPU time is reported where wall time is unreliable, and every figure is a best of
N), the table of figures with their targets, the notes below (what dominates and what was
changed: written by hand, they cite the sections that follow), and each benchmark's whole
output under the command that reproduces it. ``--quick`` uses fewer repetitions and smaller
inputs (a smoke test of the harness, not figures to publish).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import ENV, Figure  # noqa: E402


@dataclass(frozen=True, slots=True)
class Benchmark:
    script: str
    args: tuple[str, ...]
    quick: tuple[str, ...]
    title: str


BENCHMARKS = [
    Benchmark("validate_bench.py", ("--repeat", "5"), ("--repeat", "1"), "Full check of the corpus"),
    Benchmark("load_bench.py", ("--repeat", "10"), ("--repeat", "2"), "Loading, and the one-file check"),
    Benchmark("kubeconform_bench.py", ("--repeat", "5"), ("--repeat", "1", "--copies", "2"), "Against kubeconform"),
    Benchmark("cache_bench.py", ("--repeat", "5"), ("--repeat", "1"), "The results cache"),
    Benchmark("jobs_bench.py", ("--copies", "20", "--repeat", "3"), ("--copies", "3", "--repeat", "1"), "--jobs"),
    Benchmark("hostile_bench.py", (), ("--skip-raised",), "Hostile input"),
    Benchmark("profile_bench.py", (), (), "Profile of the corpus check"),
    Benchmark("allocator_bench.py", (), ("--repeat", "1"), "Allocator"),
    Benchmark("simulate_bench.py", (), (), "Cluster dry-run"),
    Benchmark(
        "cluster_bench.py",
        ("--sizes", "1/8,1/4,1/2,1", "--in-process", "1/8"),
        ("--sizes", "1/64,1/32", "--in-process", "1/64"),
        "The largest GPU clusters: growth from 1/8 to 10,000 nodes",
    ),
    Benchmark(
        "cluster_bench.py",
        ("--cluster", "oversubscribed", "--sizes", "1/8,1", "--in-process", "", "--same-at", "1/8"),
        ("--cluster", "oversubscribed", "--sizes", "1/64,1/32", "--in-process", "", "--same-at", "1/64"),
        "An oversubscribed cluster: demand beyond supply, from 1/8 to 10,000 nodes",
    ),
    Benchmark("scale_bench.py", (), ("--sizes", "100,300"), "Growth in workloads"),
    Benchmark("plan_bench.py", (), ("--pods", "1000"), "Node pool planning"),
    Benchmark("cel_bench.py", (), ("--devices", "1000", "--repeat", "1"), "CEL selectors"),
    Benchmark("apiserver_bench.py", (), ("--slices", "50", "--repeat", "1"), "kube-apiserver checks"),
    Benchmark("suppress_bench.py", (), ("--repeat", "1"), "Suppressions and reporters"),
    Benchmark("lsp_bench.py", (), ("--apps", "100", "--edits", "2"), "Language server"),
    Benchmark("fuzz_cel_bench.py", (), ("--selectors", "200", "--styled", "20"), "CEL fuzzing"),
    Benchmark("fuzz_bench.py", ("--examples", "1500"), ("--examples", "5"), "Fuzzing"),
    Benchmark(
        "kubectl_bench.py", ("--documents", "12000"), ("--documents", "200", "--batch", "100"), "YAML against kubectl"
    ),
]

NOTES = """\
## What dominates, and what changed

**How the figures are taken.** A user runs one `dralint` process, so every figure of a command
is a whole process: a fresh interpreter per run, bytecode compiled beforehand as `pip install`
leaves it, the child's own CPU time (`wait4`), runs alternating with the baseline they are
compared with in the same run (`python -c pass`, kubeconform and the `kubernetes-validate` CLI
on the same files, a smaller size of the same input). The benchmarks run without the results
cache (`DRALINT_NO_CACHE=1`), except `cache_bench.py`, which measures it. In-process figures
(a warm interpreter, imports done) stand beside them where they say something of their own;
they are labelled so. The machine is shared: CPU time and ratios are quoted, wall time only
where a figure is about waiting.

**The largest GPU clusters** (`cluster_bench.py`, issue 12): 10,000 nodes of 8 GPUs and 2 NICs,
40,000 pods in 5,000 workloads. `check` took 105 s of CPU and `simulate` 89 s when the issue
was filed, and grew 14-16x from 1/8 of the size. What was super-linear, and what replaced it:
every shared claim tested its allocation against every eligible node (now a node index by name
and label); the compact Inventory was expanded twice per check and per node even where its
devices name no node (now once, shared); a search that found no devices on one node was
repeated on every node the allocator cannot tell apart (now answered from the first, charged
the same search steps, so the step budget runs out exactly as before); full garbage
collections rescanned millions of live objects some twenty times (the thresholds of
`dralint/process.py`); CEL device values and capacity judgements were rebuilt per diagnosis.
What remains grows linearly; about half of `check` is the allocator's work for the pods it
places. The output grows with the pods and nodes (lines, exactly); its bytes grow a little
faster because generated names gain digits.

**An oversubscribed cluster** (`cluster_bench.py --cluster oversubscribed`, issue 27): 10,000
nodes in four pools of 8 GPUs and 2 NICs with consumable bandwidth, 5,000 workloads (about
40,000 pods, 1-8 GPUs each, a fifth through prioritized lists, three tenths with NIC bandwidth,
some aligned by matchAttribute on pcieRoot), generated seeded by `testing/oversubscribed.py`.
Demand exceeds supply, so most pods were tried on most nodes: at the start of this work `check`
took 156 s of CPU and 2.6 GB and `simulate` 145 s and 2.8 GB (one run each, whole processes,
on this machine). Nearly every attempt was a search that ends at the pod's first request because
no device of the node can be picked for it. `dralint/dryrun/screen.py` tells such nodes apart
from what is allocated in their pools (a necessary condition only: any doubt leaves the node to
the allocator), per first request and node shape, and `dralint/dryrun/skip.py` passes over them
with a union-find that never revisits a node found full, charging the steps the allocator would
have taken (the step budget runs out at the same pod and step: tested). The explanations of
unplaced pods are shared by nodes of the same shape, and whether a failing template fits the
empty cluster is asked once per template and candidate list. The output is byte-identical with
and without the screen (the `--same-at` column, and `tests/dryrun/screen_test.py` on every
fixture). Claims the allocator satisfied on a node are satisfied by the same devices on every
node of the same shape, also for claims alike in another namespace: `dralint/dryrun/carry.py`
carries the results over, renaming pools, share IDs and a node selector pinned to the node
(`tests/dryrun/carry_test.py` checks every carried allocation against the allocator's own), and
the clusters of one run (the dry-run's, the empty one, the replays in other orders, which now
skip full nodes too) share what they learn (`dralint/dryrun/learnt.py`). What remains is the
per-attempt bookkeeping of 40,000 pods, the reading, admission and per-object checks of 5,000
workloads, and the diagnosis; the CPU figures of this table were taken with the machine's two
cores shared by several busy processes (load average in the header), which inflates CPU time too.

**Against kubeconform** (`kubeconform_bench.py`): kubeconform v0.6.7, built from its repository
with Go 1.19 (`GOFLAGS=-mod=vendor go build ./cmd/kubeconform`, offline), strict, with local
schemas for 1.37 written by `benchmarks/kubeconform_schemas.py` from the kubernetes-validate
bundle; nothing of it is committed. kubeconform validates the schema only; dralint runs every
rule and the dry-run of the corpus's inventories. With `--jobs N` the main process now checks
parts too, beside N-1 workers, instead of waiting idle for them: on two cores two jobs used to
be one worker's work plus the parent's pickling. The wall-time figure is only meaningful on a
machine whose cores are free; the load average beside it says how busy they were.

**The results cache** (`cache_bench.py`): `check` in a git repository keeps, per file, what
reading it and its per-object checks found, and per run the whole report
(`dralint/pipeline/cache.py`). A second run over unchanged files reads the run's entry and checks
nothing; what it still costs is the `check` command's start-up (its imports, finding the files
under the ignore files, hashing them). With one file changed, the changed file is read and
checked again, the others come from the cache, and the checks across files run on everything.

**Growth in workloads** (`scale_bench.py`): the issue's case of many one-replica Deployments on
a 240-GPU cluster took 221 s at 3,000 workloads and wrote 368 MB; DRA501 now names at most five
holders and counts the rest, the accounting behind it is done once per class, and the case
takes seconds.

**The one-file check** (`load_bench.py`, the pre-commit case): most of it is start-up. Creating
some 180 dataclasses compiled six methods each (a third of the run): `dralint/dataclass.py`
compiles a method on its first call instead, with the standard library's own source, and a
class's first `__init__` calls bind their arguments in Python. The rule catalogue and the
driver profiles are read from `decoded.json` beside their YAML (written by
`scripts/generate_decoded.py`, used only when its CRC matches the file), jsonschema is no
longer imported for dralint's own files or drivers' configuration (`validate/usercompiled.py`),
and the garbage collector no longer collects during imports nor at exit.

**The corpus against kubernetes-validate** (`validate_bench.py`): the valid v1 files of the
corpus as one process each way. kubernetes-validate validates the schema only; dralint runs
every rule, the API server's semantics and the dry-run of the corpus's own inventories. It is
11-15x faster as processes (7.5x when issue 12 was filed). The target of 20x is retired
(issue 27: the peer users pick for speed is kubeconform, above); what was found when it stood:
a process that only imports the modules the check loads,
interpreter start-up included, takes 35-50% of the check's process and leaves the check's own
work (the rest of the process, 180-210 ms) 50-70 ms under the 20x budget: it would have to run
three times faster, on top of imports that cannot shrink much below what the check uses. The
same check in a warm process takes 0.17-0.19 s, 20-35x faster than kubernetes-validate in the
same process. A sampling
profile of the process (py-spy at 2,000 Hz over six runs) puts about 30% in imports (8% of it
unmarshalling the bytecode of 386 modules), 13% in reading YAML with positions, 9% in
compiling the corpus's 115 distinct selector expressions, and a quarter in the dry-run of the
corpus's own inventories. A persistent on-disk cache of compiled selectors would remove at
most those 9%, so it was not built (the results cache, above, saves the per-file work of a
second run, not of the first); compiling dralint with mypyc removed 8-21% of the
instructions in a trial, not the two thirds needed.

**`--jobs`** cuts the inputs into consecutive slices that worker processes read, decode and
run the per-object checks on; the parent merges them in input order, runs the checks that need
the whole input (references, admin access, the dry-run, sharing) and asks the workers that hold
the files' node trees for the positions of their findings, in one exchange per worker. The
output is the same bytes for any N (tested, and checked by `jobs_bench.py`). The gain is
bounded by what stays in the parent (its CPU time in the table): on the replicated corpus that
is over half of the work, because the corpus carries inventories and the dry-run over twenty
copies of them (the allocator set up for every pod and node, CEL values of every device) is
serial by nature; receiving the workers' documents adds about a tenth. So even with a free core
per worker, 2 jobs save little on this input, and on this shared 2-core machine (load average
around 1) the measured wall time moves by +-20% between runs. Inputs below 1 MiB are always
checked in one process. Manifests without an inventory leave much more to the workers.

**The allocator** is timed on its own (`allocator_bench.py`), without a ratio to the upstream Go
allocator: the Go figures it used to divide by were measured on another day and machine and
hard-coded, so the ratio mixed two machines and two loads. Nothing here runs Go; to compare,
run the upstream allocator's benchmark beside this script on the same machine.

**Hostile input** ends within bounded time and memory with a finding at a limit (`limits:` in
the configuration, defaults in the README): see the table of `hostile_bench.py`. Checked in
full (limits raised), a 50 MB file of ResourceSlices would take a minute and 2.7 GB, which is
why the default file limit is now 16 MiB; an exponential allocation search stops at 1,000,000
steps (2-3 s) with DRA008, and a CEL selector of 10**8 steps at the API server's cost limit.

**CEL on hostile input** (issue 18): 2,000 claims with selectors of their own beside 10,000
devices took 238 s in DRA420 alone, which ran every selector on every device; it now evaluates
one device per group that agrees on what a selector reads (the last row of `hostile_bench.py`):
about 6 s for the whole check and 370 MB, much of it compiling the 2,000 expressions in two
environments (overload resolution on concrete types is a per-environment cache).
`limits.maxSelectorEvaluations` bounds what is left. A selector over the cost limit (DRA403) is
no longer evaluated, and runtime cost is charged before a value is built, so
`lists.range(100000000)` stops at once.

**Planning** (`plan_bench.py`, issue 15): 4,000 pending pods on four empty node pools that may
grow to 1,000 nodes, as a whole process; the plan re-runs the dry-run on each pool's template
nodes once per round, so it costs two to three times the dry-run alone (`simulate` on the same input).

**The language server** (`lsp_bench.py`, issue 17) answers an edit in two steps: the edited
file's own checks, published with the last cross-file findings moved to where their objects now
are (the figure under the 50 ms target), then the checks across files (references, the dry-run
of every pod on 1,000 nodes) in a thread, which republish every open document a few hundred
milliseconds later. That second step is not incremental: any edit that changes content runs all
of it again, which the dry-run's speed-up (above) made about three times shorter.

**CEL fuzzing** (`fuzz_cel_bench.py`, the long form of `tests/fuzz_cel_test.py`): 5,000
grammar-generated selectors, each evaluated on the 16 devices of the examples' inventory, and 500
manifests with a CEL error in a random YAML scalar style, seed 0: 0 crashes; the worst input took
0.13 s of CPU and allocated 0.2 MiB (bounds: 2 s and 256 MiB per input).

**Fuzzing** (`fuzz_bench.py`, the long form of `tests/fuzz_test.py`): 1,500 mutated manifests
(the corpus and the examples) and 1,500 mutated inventories (ResourceSlices, DeviceClasses,
Nodes, Inventory documents, given with `--inventory`), seed 18, each through `check` and
`simulate` in every output format: 0 crashes (the table has the worst CPU time and memory). The
first full run of this session found one: a `metadata.name` of 5,000 octal digits, an integer
Python refuses to print in decimal, ended in exit 3; such literals are now numbers out of range
(`tests/fixtures/hostile/wide-integers-*.yaml`). The issue aims at 100,000 inputs: this run is
3,000; `python scripts/fuzz.py --family manifests --examples 100000` runs longer ones.
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, smaller inputs (a smoke test)")
    parser.add_argument("--output", type=Path, default=ROOT / "BENCHMARKS.md")
    parser.add_argument("--only", nargs="*", help="run only these scripts (for trying the harness)")
    parser.add_argument(
        "--merge", action="store_true", help="with --only: keep the other benchmarks' figures and output from --output"
    )
    parser.add_argument("--args", default=None, help='with one --only script: its arguments instead ("--x 1")')
    args = parser.parse_args()
    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = _load()
    sections: list[str] = []
    figures: list[tuple[Benchmark, Figure]] = []
    with tempfile.TemporaryDirectory() as folder:
        for number, bench in enumerate(BENCHMARKS):
            if args.only and bench.script not in args.only:
                continue
            figure_file = Path(folder) / f"{number}-{bench.script}.jsonl"  # (a script may run twice)
            arguments = shlex.split(args.args) if args.args is not None else bench.quick if args.quick else bench.args
            command = [sys.executable, f"benchmarks/{bench.script}", *arguments]
            print(f"running {' '.join(command[1:])}", flush=True)
            start = time.perf_counter()
            result = subprocess.run(
                command,
                cwd=ROOT,
                # (without the results cache: every run of a benchmark must do the work it measures)
                env={**os.environ, ENV: str(figure_file), "PYTHONPATH": str(ROOT), "DRALINT_NO_CACHE": "1"},
                capture_output=True,
                text=True,
                check=False,
            )
            elapsed = time.perf_counter() - start
            output = (result.stdout + result.stderr).rstrip()
            status = "" if result.returncode == 0 else f" (exit code {result.returncode})"
            sections.append(
                f"### {bench.title}\n\n`python {' '.join(command[1:])}`{status}, {elapsed:.0f} s\n\n"
                f"```\n{output}\n```\n"
            )
            if figure_file.exists():
                for line in figure_file.read_text(encoding="utf-8").splitlines():
                    figures.append((bench, Figure(**json.loads(line))))
    text = _render(args.quick, started, load_before, _load(), figures, sections)
    if args.merge and args.only and args.output.exists():
        text = _merge(args.output.read_text(encoding="utf-8"), text, args.only)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


def _render(
    quick: bool,
    started: datetime.datetime,
    load_before: str,
    load_after: str,
    figures: list[tuple[Benchmark, Figure]],
    sections: list[str],
) -> str:
    rows = []
    for bench, figure in figures:
        verdict = "" if figure.met is None else (" ✓" if figure.met else " ✗")
        command = f"`python benchmarks/{bench.script}`"
        rows.append(
            f"| {figure.name} | {figure.value:g} {figure.unit} | {figure.target}{verdict} | {figure.note} | {command} |"
        )
    header = [
        "# Benchmarks",
        "",
        "Written by `python benchmarks/run_all.py`"
        + (" --quick (smoke test: not figures to quote)" if quick else "")
        + f" on {started:%Y-%m-%d %H:%M} UTC. Do not edit by hand: change the scripts in"
        " `benchmarks/` (or the notes in `run_all.py`) and run it again.",
        "",
        f"Machine: {os.cpu_count()} cores ({_cpu_model()}), Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}; load average {load_before} before, {load_after} after "
        "(the machine is shared: CPU time is reported where wall time measures the neighbours, and "
        "every figure is the best or the median of several runs, as its note says; whole processes are "
        "run in turn, side by side).",
        "",
        "| Figure | Result | Target | Measured against | Reproduce |",
        "|---|---|---|---|---|",
        *rows,
        "",
        NOTES,
        "## Output of each benchmark",
        "",
    ]
    return "\n".join(header) + "\n".join(sections)


def _merge(old: str, new: str, rerun: list[str]) -> str:
    """``new`` (of the ``rerun`` scripts only) with the other scripts' table rows and sections from ``old``."""
    titles = {bench.title for bench in BENCHMARKS if bench.script in rerun}

    def rows(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith("| ") and "`python benchmarks/" in line]

    def sections(text: str) -> list[str]:
        body = text.split("## Output of each benchmark\n", 1)[-1]
        return ["### " + part for part in body.split("### ")[1:]]

    def rerun_row(row: str) -> bool:
        return any(f"`python benchmarks/{script}`" in row for script in rerun)

    kept_rows = [row for row in rows(old) if not rerun_row(row)]
    kept_sections = [part for part in sections(old) if part.split("\n", 1)[0][4:] not in titles]
    order = [bench.script for bench in BENCHMARKS]
    all_rows = sorted(
        kept_rows + rows(new),
        key=lambda row: next((i for i, script in enumerate(order) if f"`python benchmarks/{script}`" in row), 99),
    )
    titles_order = [bench.title for bench in BENCHMARKS]
    all_sections = sorted(
        kept_sections + sections(new),
        key=lambda part: titles_order.index(t) if (t := part.split("\n", 1)[0][4:]) in titles_order else 99,
    )
    head, _, _ = new.partition("| Figure | Result |")
    _, _, notes = new.partition("\n\n" + NOTES.split("\n", 1)[0])
    table = "| Figure | Result | Target | Measured against | Reproduce |\n|---|---|---|---|---|\n"
    return (
        head
        + table
        + "\n".join(all_rows)
        + "\n\n"
        + NOTES.split("\n", 1)[0]
        + notes.split("## Output of each benchmark\n")[0]
        + "## Output of each benchmark\n\n"
        + "".join(part.rstrip("\n") + "\n\n" for part in all_sections).rstrip("\n")
        + "\n"
    )


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    raise SystemExit(main())
