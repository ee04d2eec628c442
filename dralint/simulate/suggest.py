"""Did-you-mean: the known name closest to a misspelt one (attribute names, domains, values)."""

from __future__ import annotations

from collections.abc import Iterable


def distance(a: str, b: str) -> int:
    """Optimal string alignment distance (Levenshtein plus adjacent transpositions)."""
    if a == b:
        return 0
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name nearest to ``name`` when it is plausibly a typo of it (else ``None``).

    Plausible: at most a third of the longer name differs (at least one edit, at most three), or the
    names differ only in case. Ties go to the alphabetically first name, for stable output.
    """
    best: tuple[int, str] | None = None
    for candidate in sorted(set(known)):
        if candidate == name:
            return None
        if candidate.lower() == name.lower():
            return candidate
        d = distance(name.lower(), candidate.lower())
        limit = min(3, max(1, max(len(name), len(candidate)) // 3))
        if d <= limit and (best is None or d < best[0]):
            best = (d, candidate)
    return best[1] if best else None
