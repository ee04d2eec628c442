"""Settings of the whole Python process that dralint needs; only entry points apply them.

The command line (``cli.py``) and a ``--jobs`` worker process apply them: library code never
changes the process it runs in, so a program (or a test) that imports dralint keeps its own
recursion limit and garbage-collector state unless it asks for these.
"""

from __future__ import annotations

import atexit
import gc
import sys

__all__ = ["GC_THRESHOLDS", "RECURSION_LIMIT", "freeze_loaded", "raise_recursion_limit", "tune_garbage_collection"]

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


# Python collects its youngest generation every 700 net allocations, and an older one every ten
# of those: while dralint imports its modules and decodes documents (allocations that all stay
# alive) that is a collection every fraction of a millisecond, each older one traversing every
# object loaded so far, for nothing to free (11 ms of a one-file check, 56 ms on the corpus). A
# young generation of 50,000 objects keeps the collector's bookkeeping rare while garbage cycles
# are still collected: delayed by at most that many allocations, a few megabytes.
GC_THRESHOLDS = (50_000, 20, 100)


def tune_garbage_collection() -> None:
    """Collect garbage cycles less often (:data:`GC_THRESHOLDS`), and skip the collections at exit.

    At exit the interpreter collects again after the ``atexit`` handlers, traversing every
    object still alive to free memory that the operating system reclaims anyway (9 ms of a
    one-file check, 70 ms on the corpus); frozen objects are not traversed, so the last handler
    freezes them. dralint closes its output files itself, so no finalizer is left to run then.
    """
    gc.set_threshold(*GC_THRESHOLDS)
    atexit.unregister(gc.freeze)  # once per process, however many commands it runs (tests)
    atexit.register(gc.freeze)
