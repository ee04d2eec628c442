"""Settings of the whole Python process that dralint needs; only entry points apply them.

The command line (``cli.py``) and a ``--jobs`` worker process apply them: library code never
changes the process it runs in, so a program (or a test) that imports dralint keeps its own
recursion limit and garbage-collector state unless it asks for these.
"""

from __future__ import annotations

import gc
import sys

__all__ = ["RECURSION_LIMIT", "freeze_loaded", "raise_recursion_limit"]

# Frames the deepest input may need. The CEL parser, checker and compiled closures recurse once
# per nesting level, and cel-go accepts 250 levels of each grammar rule (more than Python's
# default 1,000 frames in all); the allocator's search recurses once per device it allocates
# (at most 32 per claim, plus two frames per request and claim).
RECURSION_LIMIT = 20_000


def raise_recursion_limit() -> None:
    """Allow :data:`RECURSION_LIMIT` frames (never lowers a higher limit)."""
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)


def freeze_loaded() -> None:
    """Move everything allocated so far (the loaded documents: many small long-lived objects) out of the
    cyclic garbage collector's generations, so that the collections during the analysis skip them."""
    gc.freeze()
