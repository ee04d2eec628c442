"""What can be wrong with input text (:class:`DecodeIssue`); :class:`Limits` (which bound decoding) are re-exported."""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from dralint.dataclass import dataclass
from dralint.limits import Limits

__all__ = ["DecodeIssue", "IssueKind", "Limits"]

IssueKind = Literal["syntax", "encoding", "template", "duplicate-key", "too-large", "too-deep", "unreadable", "render"]


@dataclass(frozen=True, slots=True)
class DecodeIssue:
    """A defect found while decoding: syntax errors, duplicate keys, alias bombs, templates, ..."""

    kind: IssueKind
    message: str
    line: int  # 1-based
    column: int  # 1-based
    hint: str | None = None
    # The refusal as kubectl words it, when kubectl refuses the text too (the differential test
    # compares them); not part of what dralint reports, and not compared.
    upstream: str | None = field(default=None, compare=False)
