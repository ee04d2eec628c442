#!/usr/bin/env python
"""Regenerate ``rules/catalogue.json``, the built-in rule files decoded, from ``rules/*.yaml``.

dralint reads it instead of decoding the YAML files on every run, as long as it was written
from the files as they are (otherwise it reads the YAML); ``tests/rules/catalogue_test.py``
fails when it is stale. Run ``python scripts/generate_catalogue.py`` after changing a rule
(``--check`` only reports).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dralint.rules import COMPILED_FILE, compiled_catalogue  # noqa: E402

TARGET = ROOT / "rules" / COMPILED_FILE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report a stale file (exit 1)")
    args = parser.parse_args(argv)
    wanted = compiled_catalogue()
    stale = not TARGET.is_file() or TARGET.read_text(encoding="utf-8") != wanted
    if args.check:
        if stale:
            print(f"rules/{COMPILED_FILE} is stale", file=sys.stderr)
        return int(stale)
    if stale:
        TARGET.write_text(wanted, encoding="utf-8", newline="\n")
    print(f"rules/{COMPILED_FILE}: {'written' if stale else 'current'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
