"""The tokens go-yaml v2's scanner makes: their kinds, and what each carries."""

from __future__ import annotations

from typing import Protocol

from dralint.read.goyaml.errors import GoYamlError, Mark

__all__ = ["ScanState", "Token"]

(
    STREAM_START, STREAM_END, VERSION_DIRECTIVE, TAG_DIRECTIVE, DOCUMENT_START, DOCUMENT_END,
    BLOCK_SEQUENCE_START, BLOCK_MAPPING_START, BLOCK_END, FLOW_SEQUENCE_START, FLOW_SEQUENCE_END,
    FLOW_MAPPING_START, FLOW_MAPPING_END, BLOCK_ENTRY, FLOW_ENTRY, KEY, VALUE, ALIAS, ANCHOR, TAG,
    SCALAR,
) = range(21)  # fmt: skip


class Token:
    """One token: its kind, marks, and the value it carries (scalar text, anchor name, tag handle)."""

    __slots__ = ("end", "kind", "start", "style", "suffix", "value")

    def __init__(self, kind: int, start: Mark, end: Mark, value: str = "", style: str = "", suffix: str = "") -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.value = value  # a scalar's text, an anchor's or alias's name, a tag's or %TAG's handle
        self.style = style  # a scalar's: "" plain, "'", '"', "|", ">"; a %YAML directive's version
        self.suffix = suffix  # a tag's suffix; a %TAG directive's prefix


class ScanState(Protocol):
    """What the scanners of scalars, tags and directives use of the scanner (:class:`~.scanner.Scanner`)."""

    buf: str  # the text, padded with NULs
    pos: int
    line: int
    column: int
    indent: int
    flow_level: int
    simple_key_allowed: bool

    @property
    def mark(self) -> Mark: ...

    def reach(self, length: int) -> None: ...

    def skip(self) -> None: ...

    def skip_line(self) -> None: ...

    def error(self, context: str, context_mark: Mark, problem: str) -> GoYamlError: ...
