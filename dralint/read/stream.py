"""How kubectl cuts a file into documents before any YAML is parsed (k8s.io/apimachinery's util/yaml).

A file whose first non-space character is ``{`` is a stream of JSON values, decoded as JSON
only. Anything else is cut into chunks at lines that start with ``---``; such a line may hold
nothing more than spaces and a comment ("invalid Yaml document separator" otherwise: ``---
{a: 1}`` or ``--- |`` are refused). Each chunk is then parsed on its own, and only its first
YAML document counts: what follows a ``...`` in the same chunk is never read. Lines are read
with their CR LF ends made LF, and every chunk ends with a line break.
"""

from __future__ import annotations

import re

from dralint.dataclass import dataclass
from dralint.read.issues import DecodeIssue

__all__ = ["GO_SPACE", "Chunk", "is_json_stream", "yaml_chunks"]

# Go's unicode.IsSpace: what strings.TrimSpace and bytes.TrimLeftFunc remove.
GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
_JSON_PEEK = 4096  # bytes kubectl looks at to tell JSON from YAML


@dataclass(frozen=True, slots=True)
class Chunk:
    """The text between two ``---`` lines: ``text[start:end]``, starting on 0-based line ``line``."""

    start: int
    end: int
    line: int


def is_json_stream(text: str) -> bool:
    """Whether kubectl reads ``text`` as JSON: its first non-space character (in the first 4 KiB) is ``{``."""
    head = text[:_JSON_PEEK].lstrip(GO_SPACE)
    return head.startswith("{")


def yaml_chunks(text: str) -> tuple[list[Chunk], list[DecodeIssue]]:
    """The chunks of ``text`` (LF line ends) and the separators kubectl refuses (dralint reads on past them).

    A ``---`` line ends the chunk before it and is dropped, except when no chunk is open (the
    first line of the file, or right after another ``---`` line): then it starts the chunk,
    and go-yaml reads it as the document's start marker. Lines are counted by LF only, as
    kubectl cuts them; a chunk's ``line`` counts the lines before it the same way (callers
    that count a lone CR as a line break recount).
    """
    chunks: list[Chunk] = []
    issues: list[DecodeIssue] = []
    start = start_line = 0  # the open chunk (the line after the last separator that ended one)
    line = counted = 0  # the line of ``counted``
    for found in _SEPARATOR.finditer(text):
        position = found.start()
        line += text.count("\n", counted, position)
        counted = position
        rest = found.group(1).strip(GO_SPACE)
        if rest and not rest.startswith("#"):
            issues.append(_separator_issue(rest, line))
        if position > start:  # the separator ends the chunk; at its start, it opens it instead
            chunks.append(Chunk(start, position, start_line))
            start, start_line = found.end() + 1, line + 1
    if start < len(text):
        chunks.append(Chunk(start, len(text), start_line))
    return chunks, issues


_SEPARATOR = re.compile(r"^---([^\n]*)", re.MULTILINE)


def _separator_issue(rest: str, line: int) -> DecodeIssue:
    return DecodeIssue(
        "syntax",
        f"invalid YAML: a document separator line may only hold a comment after '---', not {rest[:40]!r}",
        line + 1,
        4,
        hint="start the document on the next line: kubectl cuts files into documents at lines starting with ---",
        upstream=f"invalid Yaml document separator: {rest}",
    )
