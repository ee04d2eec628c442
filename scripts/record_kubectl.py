#!/usr/bin/env python
"""Record kubectl's verdict on each file of ``tests/fixtures/kubectl`` beside it (``<file>.expected.json``).

The fixtures are the cases where dralint's YAML reader and kubectl once disagreed, one file a
case; their expected results are what kubectl makes of them (``kubectl label --local -f DIR
KEY=1 -o json``: the objects it decodes, the error that stops it, the objects it skips), so
this script writes them and ``tests/read/kubectl_test.py`` holds dralint to them (and, where
kubectl is installed, checks the recording against kubectl live). ``--check`` only reports
recordings that differ from what kubectl says now (exit 1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from testing.kubectl import KUBECTL, Verdict, kubectl_verdicts, record_text  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "kubectl"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report recordings kubectl disagrees with (exit 1)")
    args = parser.parse_args(argv)
    if KUBECTL is None:
        print("record_kubectl.py: kubectl is not installed (it is the source of the recorded results)", file=sys.stderr)
        return 2
    cases = sorted(p for p in FIXTURES.iterdir() if not p.name.endswith(".expected.json"))
    verdicts = kubectl_verdicts(FIXTURES, [p.name for p in cases])
    stale = 0
    for path in cases:
        wanted = record_text(verdicts.get(path.name, Verdict()))
        target = path.with_name(path.name + ".expected.json")
        current = target.is_file() and target.read_text(encoding="utf-8") == wanted
        if not current and not args.check:
            target.write_text(wanted, encoding="utf-8", newline="\n")
        stale += not current
        state = "current" if current else "differs" if args.check else "written"
        print(f"{target.relative_to(ROOT)}: {state}")
    return int(args.check and bool(stale))


if __name__ == "__main__":
    sys.exit(main())
