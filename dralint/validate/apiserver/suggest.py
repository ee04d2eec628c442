"""Did-you-mean suggestions for names that match nothing."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate most similar to ``name`` (case-insensitive), if any is reasonably close."""
    pool = sorted(set(candidates))
    if not pool:
        return None
    by_lower = {c.lower(): c for c in pool}
    if name.lower() in by_lower and by_lower[name.lower()] != name:
        return by_lower[name.lower()]
    matches = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[matches[0]] if matches else None


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """``did you mean `x`?`` for the closest candidate, or ``None``."""
    match = closest(name, candidates)
    return f"did you mean `{match}`?" if match is not None else None


def edit_distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent swaps."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]


def likely_typo(name: str, candidates: Iterable[str]) -> str | None:
    """A candidate ``name`` is almost certainly a misspelling of (one or two slips per 20 characters)."""
    limit = max(1, len(name) // 10)
    best = min(
        ((edit_distance(name.lower(), c.lower()), c) for c in sorted(set(candidates)) if c != name),
        default=None,
    )
    return best[1] if best is not None and best[0] <= limit else None
