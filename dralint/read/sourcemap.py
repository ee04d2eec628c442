"""Lead positions in a rendered stream (kustomize, helm) back to the user's files: a :class:`SourceMap`.

A rendered stream exists nowhere the user could open it. Its loader (:mod:`dralint.read.kustomized`,
:mod:`dralint.read.helm`) records, for each rendered document, an :class:`Origin` that knows the
source of the object; the engine asks the map where a finding's path is, and reports it there.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.findings import Location
from dralint.read.yamldoc import Document

__all__ = ["Origin", "SourceMap", "document_offset", "same_value", "written_at"]


class Origin(Protocol):
    """Where one rendered document came from."""

    def locate(self, rendered: Document, path: Path, offset: int | None) -> tuple[Location, str | None]:
        """The source position of ``path`` (character ``offset`` in its string value, if given), and a note
        for the user when that position is only the object's (the field is not written in the source)."""
        ...

    def start(self) -> Location:
        """The source position of the object as a whole."""
        ...


@dataclass(frozen=True, slots=True)
class SourceMap:
    """The origins of the documents of one rendered stream, by document index."""

    rendered: str  # the rendered stream's name among the inputs
    fallback: Location  # where what no origin explains is reported (the kustomization, the chart)
    origins: Mapping[int, Origin]
    starts: Sequence[tuple[int, int]] = ()  # (first line, document index), sorted: for positions without a path
    files: frozenset[str] = frozenset()  # the user's files it was rendered from (an edit of one re-renders it)

    def locate(self, document: Document, path: Path, offset: int | None) -> tuple[Location, str | None]:
        origin = self.origins.get(document.index)
        return (self.fallback, None) if origin is None else origin.locate(document, path, offset)

    def locate_line(self, line: int) -> Location:
        """Where a position of the rendered stream without a path goes: the start of its object's source."""
        at = bisect.bisect_right(self.starts, (line, 1 << 30)) - 1
        origin = self.origins.get(self.starts[at][1]) if at >= 0 else None
        return self.fallback if origin is None else origin.start()


def written_at(source_maps: Mapping[str, SourceMap], document: Document, path: Path) -> Location:
    """Where the user reads ``path`` of ``document``: in its file, or, in a rendered stream, where its source map
    leads (what a message quoting another object's position names, so that it agrees with that object's findings)."""
    source_map = source_maps.get(document.file)
    if source_map is None:
        return Location(document.file, *document.position(path))
    return source_map.locate(document, path, None)[0]


def same_value(rendered: Any, source: Any) -> bool:
    """Whether a value seen in the source is the one that was rendered (mappings and lists: present is enough)."""
    if isinstance(rendered, (dict, list)) or isinstance(source, (dict, list)):
        return isinstance(rendered, type(source)) or isinstance(source, type(rendered))
    return rendered is not None and (rendered == source or str(rendered) == str(source))


def document_offset(text: str, line: int, column: int) -> int:
    """The character offset in ``text`` of the 1-based ``line`` and ``column``."""
    lines = text.split("\n")
    return sum(len(piece) + 1 for piece in lines[: line - 1]) + column - 1
