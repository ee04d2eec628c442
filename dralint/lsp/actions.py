"""Quick fixes as text edits: a suppression comment for a finding, and a finding's did-you-mean applied.

Pure functions of the file's lines (and its documents, to see multi-line values), so they can be
tested without a server. The comments are those :mod:`dralint.suppress.comments` reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from ruamel.yaml.nodes import Node, ScalarNode

from dralint.dataclass import dataclass
from dralint.findings import Replacement
from dralint.read.yamldoc import Document, walk

Position = tuple[int, int]  # 0-based line, character (code points)

REASON = "reason"  # the placeholder the user replaces with why the finding does not apply
_SEARCHED_LINES = 50  # how far below a finding its did-you-mean's text is looked for
_EXISTING = re.compile(r"(?:^|(?<=\s))#\s*dralint\s*:\s*ignore\s*\[(?P<rules>[^\]]*)\]")


@dataclass(frozen=True, slots=True)
class Edit:
    start: Position
    end: Position
    text: str


def suppression(lines: Sequence[str], line: int, rule: str, documents: Iterable[Document]) -> list[Edit]:
    """Edits that suppress ``rule`` on 0-based ``line``: ``# dralint: ignore[RULE] reason`` at the end of the line.

    A line inside a multi-line value (a block scalar's CEL expression) cannot take a comment
    without changing the value: the value is wrapped in ``disable[RULE]`` ... ``enable[RULE]``
    comment lines instead. A line that already ignores other rules gets ``RULE`` added to its list.
    """
    text = lines[line]
    existing = _EXISTING.search(text)
    if existing is not None:
        end = existing.end("rules")
        separator = "," if existing.group("rules").strip() else ""
        return [Edit((line, end), (line, end), f"{separator}{rule}")]
    around = _multi_line_value(documents, line)
    if around is None:
        column = len(text.rstrip())
        return [Edit((line, column), (line, len(text)), f"  # dralint: ignore[{rule}] {REASON}")]
    first, after = around
    indent = " " * (len(lines[first]) - len(lines[first].lstrip(" ")))
    return [
        Edit((first, 0), (first, 0), f"{indent}# dralint: disable[{rule}] {REASON}\n"),
        Edit((after, 0), (after, 0), f"{indent}# dralint: enable[{rule}]\n"),
    ]


def _multi_line_value(documents: Iterable[Document], line: int) -> tuple[int, int] | None:
    """(first line, line after) of the multi-line scalar that holds 0-based ``line`` past its first line."""
    for document in documents:
        root = document.tree()
        if root is None:
            continue
        for node in _scalars(root):
            shift = document.line_offset
            first, last = node.start_mark.line + shift, node.end_mark.line + shift
            after = last if node.end_mark.column == 0 else last + 1
            if first < line < after:
                return first, after
    return None


def _scalars(root: Node) -> Iterator[ScalarNode]:
    """The scalars written over more than one line."""
    for node in walk(root):
        if isinstance(node, ScalarNode) and node.end_mark.line > node.start_mark.line:
            yield node


def replacement(lines: Sequence[str], start: Position, fix: Replacement) -> Edit | None:
    """The edit writing ``fix.new`` over the first whole ``fix.old`` at or after ``start`` (nearby lines only)."""
    pattern = re.compile(r"(?<![A-Za-z0-9_-])" + re.escape(fix.old) + r"(?![A-Za-z0-9_.-])")
    line, column = start
    for number in range(line, min(len(lines), line + _SEARCHED_LINES)):
        found = pattern.search(lines[number], column if number == line else 0)
        if found is not None:
            return Edit((number, found.start()), (number, found.end()), fix.new)
    return None
