"""Settings of the whole Python process that dralint needs; only entry points apply them.

The command line (``cli.py``) and a ``--jobs`` worker process apply them: library code never
changes the process it runs in, so a program (or a test) that imports dralint keeps its own
recursion limit and garbage-collector state unless it asks for these.
"""

from __future__ import annotations

import gc
import sys

__all__ = ["COLLECTOR_THRESHOLDS", "RECURSION_LIMIT", "freeze_loaded", "raise_recursion_limit", "tune_collector"]

# Frames the deepest input may need. The CEL parser, checker and compiled closures recurse once
# per nesting level, and cel-go accepts 250 levels of each grammar rule (more than Python's
# default 1,000 frames in all); the allocator's search recurses once per device it allocates
# (at most 32 per claim, plus two frames per request and claim).
RECURSION_LIMIT = 20_000

# The cyclic garbage collector's thresholds (CPython's default: 700, 10, 10). The analysis of a
# large cluster allocates millions of small objects that live to the end of the run (the typed
# inventory, pods, placements, CEL values) and nearly no cycles: with the defaults, full
# collections rescanned all of them some twenty times at 10,000 nodes, a third of the run, and
# freed nothing (the peak memory is the same without any collection). A young collection every
# 200,000 allocations still frees short-lived cycles early. mypy runs with the same thresholds.
COLLECTOR_THRESHOLDS = (200_000, 30, 30)


def raise_recursion_limit() -> None:
    """Allow :data:`RECURSION_LIMIT` frames (never lowers a higher limit)."""
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)


def tune_collector() -> None:
    """Collect garbage cycles less often: see :data:`COLLECTOR_THRESHOLDS` (never more often than now)."""
    current = gc.get_threshold()
    if current[0] and current[0] < COLLECTOR_THRESHOLDS[0]:
        gc.set_threshold(*COLLECTOR_THRESHOLDS)


def freeze_loaded() -> None:
    """Move everything allocated so far (the loaded documents: many small long-lived objects) out of the
    cyclic garbage collector's generations, so that the collections during the analysis skip them."""
    gc.freeze()
