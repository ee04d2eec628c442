"""A progress line on standard error for long runs, as pytest and ruff users know them.

Shown only when standard error is a terminal and the run has lasted about a second; it is
overwritten in place and erased when the run ends, so it never mixes with the report (which goes
to standard output or a file) and never reaches a pipe or a log. The stages of a run report
their counts with :func:`update` as the work advances (each file read, each part of the files
checked, each pod placed); without an active line (tests, libraries, ``--quiet``) that
costs one comparison.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

DELAY = 1.0  # seconds before the line first appears: short runs print nothing
INTERVAL = 0.1  # seconds between redraws


class Progress:
    """The line's counters and when it was last drawn."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.drawn_at: float | None = None
        self.counts: dict[str, int] = {}

    def update(self, **counts: int) -> None:
        self.counts.update(counts)
        now = self.clock()
        if now - self.start < DELAY or (self.drawn_at is not None and now - self.drawn_at < INTERVAL):
            return
        self.drawn_at = now
        self.stream.write("\r\033[K" + text(self.counts))
        self.stream.flush()

    def clear(self) -> None:
        if self.drawn_at is not None:
            self.stream.write("\r\033[K")
            self.stream.flush()


# What each counter is called on the line, in its order: the thing counted and what was done.
LABELS = {"files": ("file", "read"), "objects": ("object", "checked"), "pods": ("pod", "placed")}


def text(counts: dict[str, int]) -> str:
    """``dralint: 12 files read, 340 objects checked, 1 pod placed``."""
    return "dralint: " + ", ".join(
        f"{counts[key]} {noun}{'s' if counts[key] != 1 else ''} {done}"
        for key, (noun, done) in LABELS.items()
        if key in counts
    )


_active: Progress | None = None


def update(**counts: int) -> None:
    """Report counts to the active progress line, if there is one."""
    if _active is not None:
        _active.update(**counts)


def advance(**deltas: int) -> None:
    """Add to the active line's counters: work finished elsewhere (a worker process's part of the files)."""
    if _active is not None:
        _active.update(**{key: _active.counts.get(key, 0) + value for key, value in deltas.items()})


def detach() -> None:
    """Forget the line in a worker process that inherited it (fork): only the process that showed it draws."""
    global _active
    _active = None


@contextmanager
def paused() -> Iterator[None]:
    """No updates in the block: work whose counts are added once it is done (a part checked beside workers)."""
    global _active
    active, _active = _active, None
    try:
        yield
    finally:
        _active = active


@contextmanager
def shown(stream: TextIO, *, enabled: bool) -> Iterator[Progress | None]:
    """A progress line on ``stream`` for the duration of the block, when ``enabled`` and ``stream`` is a terminal."""
    global _active
    if not enabled or not stream.isatty():
        yield None
        return
    line = _active = Progress(stream)
    try:
        yield line
    finally:
        _active = None
        line.clear()
