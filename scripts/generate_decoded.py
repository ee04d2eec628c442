#!/usr/bin/env python
"""Regenerate ``rules/decoded.json`` and ``profiles/decoded.json``: the shipped YAML files, decoded.

dralint reads a file's decoded copy instead of decoding its YAML, as long as the copy was
written from the file as it is (see ``dralint/data.py``); tests fail when a copy is stale. Run
``python scripts/generate_decoded.py`` after changing a rule or a driver profile (``--check``
only reports).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dralint import data  # noqa: E402
from dralint.profiles.load import builtin, decode_shipped  # noqa: E402
from dralint.rules import builtin_texts, decode_builtin  # noqa: E402


def decoded_files() -> dict[Path, str]:
    """Each ``decoded.json`` and the text it should have."""
    rules = {name: (text, decode_builtin(name, text)) for name, text in builtin_texts().items()}
    profiles = {}
    for path in builtin().values():
        text = path.read_text(encoding="utf-8")
        profiles[path.name] = (text, decode_shipped(path.name, text))
    return {
        data.folder("rules") / data.DECODED_FILE: data.decoded_text(rules),
        data.folder("profiles") / data.DECODED_FILE: data.decoded_text(profiles),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files (exit 1)")
    args = parser.parse_args(argv)
    stale = 0
    for path, wanted in decoded_files().items():
        current = path.is_file() and path.read_text(encoding="utf-8") == wanted
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        if args.check:
            if not current:
                print(f"{name} is stale", file=sys.stderr)
        elif not current:
            path.write_text(wanted, encoding="utf-8", newline="\n")
        stale += not current
        print(f"{name}: {'stale' if args.check and not current else 'written' if not current else 'current'}")
    return int(args.check and bool(stale))


if __name__ == "__main__":
    sys.exit(main())
