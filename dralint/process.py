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


# The cyclic garbage collector's thresholds (CPython's default: 700, 10, 10). dralint allocates
# objects that nearly all live to the end of the run (its modules, the decoded documents, the typed
# inventory, pods, placements, CEL values) and nearly no cycles. With the defaults, a one-file
# check spent 11 ms and the corpus 56 ms collecting for nothing to free while importing and
# decoding, and at 10,000 nodes full collections rescanned millions of live objects some twenty
# times, a third of the run (the peak memory is the same without any collection). A young
# collection every 200,000 allocations still frees short-lived cycles early; mypy runs with the
# same thresholds.
GC_THRESHOLDS = (200_000, 30, 30)


def tune_garbage_collection() -> None:
    """Collect garbage cycles less often (:data:`GC_THRESHOLDS`), and skip the collections at exit.

    At exit the interpreter collects again after the ``atexit`` handlers, traversing every
    object still alive to free memory that the operating system reclaims anyway (9 ms of a
    one-file check, 70 ms on the corpus); frozen objects are not traversed, so the last handler
    freezes them. dralint closes its output files itself, so no finalizer is left to run then.
    """
    if gc.get_threshold()[0] < GC_THRESHOLDS[0]:  # never more often than the embedding program asked
        gc.set_threshold(*GC_THRESHOLDS)
    atexit.unregister(gc.freeze)  # once per process, however many commands it runs (tests)
    atexit.register(gc.freeze)
