"""Did-you-mean: the known name that a name matching nothing was most likely meant to be.

One edit distance (optimal string alignment: adjacent swaps count as one edit) and three
closeness rules, from strict to loose: :func:`likely_typo` (a slip or two in a long name, for
references whose target must exist), :func:`closest` (a few edits relative to length, for
attribute names, domains and values), :func:`similar` (difflib's similarity, for free text).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["closest", "did_you_mean", "distance", "likely_typo", "similar"]


def distance(a: str, b: str, limit: int | None = None) -> int:
    """Optimal string alignment distance (Levenshtein plus adjacent transpositions).

    With ``limit``, any distance above it is returned as ``limit + 1`` as soon as that is
    certain (a row's minimum never decreases), so comparing a name with many candidates stays
    cheap.
    """
    if a == b:
        return 0
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if limit is not None and min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[len(b)]


def closest(name: str, known: Iterable[str], *, per_edit: int = 3) -> str | None:
    """The known name nearest to ``name`` when it is plausibly a typo of it (else ``None``).

    Plausible: the names differ only in case, or by at most one edit per ``per_edit`` characters
    of the longer name (at most three edits). Ties go to the alphabetically first name, for
    stable output. Values such as model names want a stricter ``per_edit`` than field names:
    "H100" is not a typo of "A100". ``None`` as well when ``name`` itself is known.
    """
    best: tuple[int, str] | None = None
    lowered = name.lower()
    for candidate in sorted(set(known)):
        if candidate == name:
            return None
        if candidate.lower() == lowered:
            return candidate
        limit = min(3, max(len(name), len(candidate)) // per_edit)
        d = distance(lowered, candidate.lower(), limit)  # stops as soon as it is over the limit
        if d <= limit and (best is None or d < best[0]):
            best = (d, candidate)
    return best[1] if best else None


def likely_typo(name: str, candidates: Iterable[str]) -> str | None:
    """A candidate ``name`` is almost certainly a misspelling of (one or two slips per 20 characters)."""
    limit = max(1, len(name) // 10)
    lowered = name.lower()
    best = min(
        ((distance(lowered, c.lower(), limit), c) for c in sorted(set(candidates)) if c != name),
        default=None,
    )
    return best[1] if best is not None and best[0] <= limit else None


def similar(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate most similar to ``name`` (case-insensitive), if any is reasonably close."""
    pool = sorted(set(candidates))
    if not pool:
        return None
    by_lower = {c.lower(): c for c in pool}
    if name.lower() in by_lower and by_lower[name.lower()] != name:
        return by_lower[name.lower()]
    import difflib  # only when there is something to suggest a name for

    matches = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[matches[0]] if matches else None


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """``did you mean `x`?`` for the most :func:`similar` candidate, or ``None``."""
    match = similar(name, candidates)
    return f"did you mean `{match}`?" if match is not None else None
