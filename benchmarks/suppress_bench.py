"""Cost of the rules layer (configuration, suppressions, reporters) relative to the checks themselves.

On the shared corpus, for Kubernetes 1.37, with every rule enabled:

- baseline: ``engine.run`` without suppressions (the checks, position resolution, sorting);
- with suppressions: the same plus a ``Suppressor`` holding 200 configuration exceptions
  (path, kind and name globs), a baseline of every finding, and the corpus' own comments and
  annotations;
- each reporter rendering the finished report.

Each measurement is the best of ``--repeat`` runs on a fresh context. Usage::

    python benchmarks/suppress_bench.py [--repeat 5] [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import datetime
import io
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import CORPUS, Figure, best_of, corpus_files, record  # noqa: E402

from dralint import report  # noqa: E402
from dralint.api.versions import make_target  # noqa: E402
from dralint.findings import Location  # noqa: E402
from dralint.pipeline import engine  # noqa: E402
from dralint.pipeline.context import CheckContext  # noqa: E402
from dralint.read.load import load  # noqa: E402
from dralint.rules import builtin_rules  # noqa: E402
from dralint.suppress import Suppressor  # noqa: E402
from dralint.suppress.baseline import Baseline  # noqa: E402
from dralint.suppress.exceptions import ConfigException  # noqa: E402
from dralint.suppress.fingerprint import fingerprint  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    files = corpus_files(args.corpus)
    workspace = load(files)
    rules = builtin_rules()
    selection = engine.Selection(enabled=frozenset(rules))
    target = make_target("1.37")
    exceptions = [
        ConfigException(
            rules=frozenset({"DRA200", "DRA101"}),
            reason="benchmark",
            location=Location(".dralint.yaml", n + 1, 3),
            paths=(f"team-{n}/**",),
            kinds=("ResourceClaim*",),
            names=(f"claim-{n}-*",),
        )
        for n in range(200)
    ]
    findings = engine.run(CheckContext(workspace, target), rules, selection)
    recorded = Counter(fingerprint(f) for f in findings)

    def plain() -> object:
        return engine.run(CheckContext(workspace, target), rules, selection)

    def suppressed() -> object:
        ctx = CheckContext(workspace, target)
        baseline = Baseline("/b.json", Counter(recorded))
        suppressor = Suppressor(ctx, rules, exceptions=exceptions, baseline=baseline, today=datetime.date(2030, 1, 1))
        return engine.run(ctx, rules, selection, suppressor)

    baseline_time = best_of(args.repeat, plain)[1]
    suppress_time = best_of(args.repeat, suppressed)[1]
    result = report.Report(
        findings=tuple(findings),
        summary=report.Summary(len(files), len(workspace.documents), len(workspace.objects), 0),
        rules=rules,
    )
    objects = len(workspace.objects)
    print(f"corpus: {len(files)} files, {objects} objects, {len(findings)} findings, best of {args.repeat}")
    print(f"checks without suppressions:         {baseline_time * 1000:8.1f} ms")
    print(f"checks with suppressions:            {suppress_time * 1000:8.1f} ms")
    print(f"ratio:                               {suppress_time / baseline_time:8.2f}")
    record(
        Figure(
            "suppressions (200 exceptions, a full baseline) relative to the checks alone",
            round(suppress_time / baseline_time, 2),
            "x",
            note=f"{suppress_time * 1000:.0f} ms vs {baseline_time * 1000:.0f} ms on the corpus, best of {args.repeat}",
        )
    )
    for name in sorted(report.FORMATS):
        render = report.renderer(name)
        elapsed = best_of(args.repeat, lambda render=render: render(result, io.StringIO()))[1]  # type: ignore[misc]
        share = elapsed / baseline_time
        print(f"render {name:<6}                       {elapsed * 1000:8.1f} ms ({share:.2f} of the checks)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
