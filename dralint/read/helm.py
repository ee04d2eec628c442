"""The :class:`~dralint.read.sourcemap.SourceMap` of a ``helm template`` stream: each object back to its template.

``helm template`` writes ``# Source: CHART/templates/FILE`` before each object. A template is
not YAML until rendered, so the field of a finding is looked up textually: its keys in order,
each indented deeper than the last, list items counted by their ``-`` markers. Where the field
is not written literally (it comes from ``toYaml``, a loop over lists, an ``include``), the
finding goes to the object's first line in the template, and says so.
"""

from __future__ import annotations

import itertools
import os
import re

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.errors import InputError
from dralint.findings import Location
from dralint.read import sources
from dralint.read.sourcemap import SourceMap
from dralint.read.yamldoc import Document

__all__ = ["is_rendered_chart", "source_map"]

_SOURCE = re.compile(r"^# Source: (\S[^\n]*?)\s*$", re.M)
_SEPARATOR = re.compile(r"^---")
APPROXIMATE = "the field is not written literally in the template: the position is the object's first line"
NOT_FOUND = "the template is not in the working folder (nor under charts/): the position is its first line"


def is_rendered_chart(text: str) -> bool:
    """Whether ``text`` is ``helm template`` output (it names its templates in ``# Source:`` lines)."""
    return "# Source: " in text and _SOURCE.search(text) is not None


@dataclass(frozen=True, slots=True)
class _TemplateOrigin:
    """A rendered object and the template that wrote it."""

    file: str
    lines: tuple[str, ...]  # the template's text ((): unreadable)
    first: int  # 0-based: where the object's region of the template starts
    end: int

    def locate(self, rendered: Document, path: Path, offset: int | None) -> tuple[Location, str | None]:
        if not self.lines:
            return Location(self.file, 1, 1), NOT_FOUND
        found = _find(self.lines, self.first, self.end, path)
        if found is not None:
            return Location(self.file, *found), None
        return self.start(), APPROXIMATE if path else None

    def start(self) -> Location:
        for number in range(self.first, self.end):
            if _content(self.lines[number]):
                return Location(self.file, number + 1, 1)
        return Location(self.file, 1, 1)


def source_map(rendered_name: str, text: str, documents: list[Document], chart: str | None) -> SourceMap:
    """The templates of the rendered ``documents`` (``chart``: the chart's folder, when known)."""
    marks = [(text.count("\n", 0, match.start()) + 1, match.group(1)) for match in _SOURCE.finditer(text)]
    templates: dict[str, tuple[str, ...]] = {}
    origins: dict[int, _TemplateOrigin] = {}
    for document in documents:
        line = document.position(())[0]
        named = [name for at, name in marks if at < line]
        if not named:
            continue
        file = _template_file(named[-1], chart)
        if file not in templates:
            templates[file] = _read_lines(file)
        kind = document.data.get("kind") if isinstance(document.data, dict) else None
        first, end = _region(templates[file], str(kind))
        origins[document.index] = _TemplateOrigin(file, templates[file], first, end)
    starts = sorted((document.line, document.index) for document in documents)
    return SourceMap(rendered_name, Location(chart or rendered_name, 1, 1), origins, starts, frozenset(templates))


def _template_file(source: str, chart: str | None) -> str:
    """The template a ``# Source:`` line names, as a path: under ``chart`` when given (the line starts with
    the chart's name, not its folder), else as written or under ``charts/`` when that exists."""
    if chart is not None:
        _, _, inside = source.partition("/")
        return sources.display(os.path.join(chart, inside))
    for candidate in (source, os.path.join("charts", source)):
        if os.path.isfile(candidate):
            return sources.display(candidate)
    return source


def _read_lines(file: str) -> tuple[str, ...]:
    try:
        source = sources.read(file)
    except InputError:  # an unreadable template only costs the precise line
        return ()
    return tuple(source.text.split("\n"))


def _region(lines: tuple[str, ...], kind: str) -> tuple[int, int]:
    """The lines of the template's document that writes a ``kind`` (the whole template if none says so)."""
    bounds = [0, *(n for n, line in enumerate(lines) if _SEPARATOR.match(line)), len(lines)]
    wanted = re.compile(rf"^kind:\s*[\"']?{re.escape(kind)}[\"']?\s*(#.*)?$")
    for first, end in itertools.pairwise(bounds):
        if any(wanted.match(line) for line in lines[first:end]):
            return first, end
    return 0, len(lines)


def _content(line: str) -> bool:
    """Whether a template line writes YAML (not blank, a comment or only a template action)."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#") or _SEPARATOR.match(stripped):
        return False
    return not (stripped.startswith("{{") and stripped.endswith("}}") and stripped.count("{{") == 1)


def _find(lines: tuple[str, ...], first: int, end: int, path: Path) -> tuple[int, int] | None:
    """1-based (line, column) of ``path``'s last key (or list item) in ``lines[first:end]``, if written there."""
    indent, cursor, at = -1, first, None
    item_line = -1  # the line of the list item just entered: its first key shares the line
    for step in path:
        found = None
        dash_column: int | None = None
        count = -1
        for number in range(cursor, end):
            line = lines[number]
            if not _content(line):
                continue
            column = len(line) - len(line.lstrip())
            body, key_column = line.lstrip(), column
            while body.startswith("- ") or body == "-":
                body, key_column = body[2:].lstrip(), key_column + 2 + (len(body[2:]) - len(body[2:].lstrip()))
            if isinstance(step, str):
                if column <= indent and number != item_line:
                    break  # left the parent mapping
                if key_column > indent and re.match(rf"[\"']?{re.escape(step)}[\"']?\s*:(\s|$)", body):
                    found = (number, key_column)
                    break
            else:
                if column < indent or (column == indent and not line.lstrip().startswith("-")):
                    break
                if line.lstrip().startswith("-") and dash_column in (None, column):
                    dash_column = column
                    count += 1
                    if count == step:
                        found = (number, column)
                        break
        if found is None:
            return None
        number, column = found
        at = (number + 1, column + 1)
        if isinstance(step, str):
            indent, cursor, item_line = column, number + 1, -1
        else:
            indent, cursor, item_line = column, number, number
    return at
