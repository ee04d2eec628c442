"""What can be wrong with input text (:class:`DecodeIssue`), and the :class:`Limits` that bound decoding."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DecodeIssue", "Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds that keep hostile input from exhausting time or memory (documented in the README)."""

    max_values_per_document: int = 2_000_000  # constructed values, counting alias expansion
    max_depth: int = 256


@dataclass(frozen=True, slots=True)
class DecodeIssue:
    """A defect found while decoding: syntax errors, duplicate keys, alias bombs, templates, ..."""

    kind: str  # "syntax", "encoding", "template", "duplicate-key", "too-large", "too-deep"
    message: str
    line: int  # 1-based
    column: int  # 1-based
    hint: str | None = None
