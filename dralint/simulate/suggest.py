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


def closest(name: str, known: Iterable[str], *, per_edit: int = 3) -> str | None:
    """The known name nearest to ``name`` when it is plausibly a typo of it (else ``None``).

    Plausible: the names differ only in case, or by at most one edit per ``per_edit`` characters
    of the longer name (at most three edits). Ties go to the alphabetically first name, for
    stable output. Values such as model names want a stricter ``per_edit`` than field names:
    "H100" is not a typo of "A100".
    """
    best: tuple[int, str] | None = None
    for candidate in sorted(set(known)):
        if candidate == name:
            return None
        if candidate.lower() == name.lower():
            return candidate
        d = distance(name.lower(), candidate.lower())
        limit = min(3, max(len(name), len(candidate)) // per_edit)
        if d <= limit and (best is None or d < best[0]):
            best = (d, candidate)
    return best[1] if best else None
