"""Where the shared reference data is, for the tests, the scripts and the benchmarks.

The corpus of published manifests and the allocator's conformance and scale cases are not part
of the repository: they sit beside it in ``../shared`` (``DRALINT_SHARED=DIR`` names another
place, such as the folder beside a worktree). Tests that need them skip without them (CI sets
``DRALINT_REQUIRE_CORPUS=1`` to make that a failure); scripts and benchmarks stop with one line
(:func:`require`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("DRALINT_SHARED") or ROOT.parent / "shared")
CORPUS = SHARED / "corpus"
CONFORMANCE = SHARED / "conformance"


def require(path: Path, what: str, *, flag: str | None = None) -> Path:
    """``path`` if it exists; else exit 2 with one line on standard error saying what is missing and how to
    give it (a script's missing input is the user's environment, not a bug: no traceback)."""
    if path.exists():
        return path
    how = "set DRALINT_SHARED=DIR" + (f" or give {flag}" if flag else "")
    script = Path(sys.argv[0]).name
    sys.stderr.write(
        f"{script}: error: {path} is missing: {what} (the shared reference data sits beside the repository, "
        f"here {SHARED}: {how})\n"
    )
    raise SystemExit(2)
