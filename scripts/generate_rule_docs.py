#!/usr/bin/env python
"""Regenerate ``docs/rules/`` from the rule catalogue (``rules/*.yaml``).

Nobody edits the generated pages; ``tests/rules/docs_test.py`` fails when they are stale.
Run ``python scripts/generate_rule_docs.py`` after changing a rule (``--check`` only reports).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dralint.rules import builtin_rules  # noqa: E402
from dralint.rules.render import pages  # noqa: E402

DOCS = ROOT / "docs" / "rules"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files (exit 1)")
    args = parser.parse_args(argv)
    wanted = pages(builtin_rules().values())
    existing = {p.name for p in DOCS.glob("*.md")} if DOCS.is_dir() else set()
    stale = sorted(
        name for name in wanted if not (DOCS / name).is_file() or (DOCS / name).read_text("utf-8") != wanted[name]
    )
    extra = sorted(existing - set(wanted))
    if args.check:
        for name in stale + extra:
            print(f"docs/rules/{name} is stale", file=sys.stderr)
        return int(bool(stale or extra))
    DOCS.mkdir(parents=True, exist_ok=True)
    for name in stale:
        (DOCS / name).write_text(wanted[name], encoding="utf-8", newline="\n")
    for name in extra:
        (DOCS / name).unlink()
    print(f"docs/rules: {len(stale)} written, {len(extra)} removed, {len(wanted)} total")
    return 0


if __name__ == "__main__":
    sys.exit(main())
