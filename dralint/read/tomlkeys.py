"""Where the keys of one TOML table are written: the positions tomllib does not keep.

``[tool.dralint]`` in ``pyproject.toml`` is decoded by the standard library's ``tomllib``, which
returns plain values without positions; a configuration error would then point at the table's
header whatever key it is about. This scanner reads the text line by line, the way the keys of
a table can be written in TOML (``key = ...``, dotted keys, ``[table.sub]`` headers and
``[[table.array]]`` entries, each counted), and records the line and column of every key path
under one table. It is a reader of positions only: the values come from ``tomllib``, which has
validated the file before. Keys inside an inline table (``dralint = {a = 1}``) and lines inside
multi-line strings are not told apart from the rest: such a key gets the position of the key
that holds it, or of a line that looks like it.
"""

from __future__ import annotations

import re

from dralint.apimachinery.fieldpath import Path

__all__ = ["key_positions"]

_HEADER = re.compile(r"^[ \t]*(\[\[?)[ \t]*([^\]#]+?)[ \t]*\]\]?[ \t]*(?:#.*)?$")
_KEY = re.compile(
    r"""^([ \t]*)((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:[ \t]*\.[ \t]*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)[ \t]*="""
)
_PART = re.compile(r"""[A-Za-z0-9_-]+|"([^"]*)"|'([^']*)'""")


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(m[1] if m[1] is not None else m[2] if m[2] is not None else m[0] for m in _PART.finditer(dotted))


def key_positions(text: str, table: tuple[str, ...]) -> dict[Path, tuple[int, int]]:
    """(1-based line, 1-based column) of every key path under ``table`` (``("tool", "dralint")``), relative to it;
    ``()`` is where the table starts. An entry of an array of tables is its index: ``("exceptions", 0, "expires")``."""
    positions: dict[Path, tuple[int, int]] = {}
    current: Path = ()  # the table the following keys belong to, relative to the document
    entries: dict[tuple[str, ...], int] = {}  # entries of each array of tables met so far
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header is not None:
            names = _parts(header[2])
            if header[1] == "[[":
                entries[names] = entries.get(names, -1) + 1
            current = _with_entries(names, entries)
            _record(positions, current, table, (number, line.index("[") + 1))
            continue
        key = _KEY.match(line)
        if key is not None:
            _record(positions, (*current, *_parts(key[2])), table, (number, len(key[1]) + 1))
    return positions


def _record(positions: dict[Path, tuple[int, int]], path: Path, table: tuple[str, ...], where: tuple[int, int]) -> None:
    """``where`` for ``path`` and each of its ancestors under ``table`` that has no position yet (the first wins)."""
    for depth in range(len(table), len(path) + 1):
        relative = _under(path[:depth], table)
        if relative is not None:
            positions.setdefault(relative, where)


def _with_entries(names: tuple[str, ...], entries: dict[tuple[str, ...], int]) -> Path:
    """``names`` with the index of the current entry after each array of tables among its prefixes."""
    out: list[str | int] = []
    for depth in range(len(names)):
        out.append(names[depth])
        index = entries.get(names[: depth + 1])
        if index is not None:
            out.append(index)
    return tuple(out)


def _under(path: Path, table: tuple[str, ...]) -> Path | None:
    if len(path) < len(table) or path[: len(table)] != table:
        return None
    return path[len(table) :]
