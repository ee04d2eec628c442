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
