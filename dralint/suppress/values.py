"""Where a file's scalar values lie, so that the directive scanner can tell data from comments.

A ``# dralint: ...`` line inside a block scalar (a ConfigMap's ``run.sh: |`` script, a folded
``>`` text), inside a multi-line quoted or plain scalar, or inside a quoted string on one line,
is text of the value, not a YAML comment: it must neither suppress anything nor be reported
(DRA802-DRA804). The scanner (:mod:`dralint.suppress.comments`) reads lines with regular
expressions, which cannot know that, so it asks :meth:`ScalarValues.contains` about each line
that looks like a directive.

The answer comes from the node trees that decoding built anyway
(:class:`~dralint.read.yamldoc.Document`): no file is parsed again for it. (A ``--jobs`` run
left the trees in its workers; a file with a directive-like line is then composed again, see
:meth:`~dralint.read.yamldoc.Document.tree`, but only such a file: most files never mention
``dralint`` and are not asked about at all.) Asking costs a bisection for
the document and a descent from its root into the nodes whose span holds the position: the
depth of the tree times the width of the collections on the way, never the size of the tree.

A scalar's text starts at its start mark, except for a block scalar, whose header line (the
``|`` or ``>``, its indicators and an optional comment) holds no data: its text starts on the
next line. It ends before its end mark (a comment line less indented than a block scalar ends
it and starts at the end mark). Text outside every document kept by decoding (a chunk that
does not parse, an unrendered template) is not known to hold values: a directive there is read
as a comment, as before.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Any

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from dralint.read.yamldoc import Document

__all__ = ["ScalarValues"]

Point = tuple[int, int]  # 1-based line (the lines YAML counts), 0-based column
_BLOCK_STYLES = ("|", ">")


class ScalarValues:
    """The scalar values of the documents of a run, asked by file, line and column.

    The documents are grouped by file on the first question only: a run whose files hold no
    directive-like line never pays for it.
    """

    __slots__ = ("_by_file", "_documents")

    def __init__(self, documents: Iterable[Document]) -> None:
        self._documents = documents
        self._by_file: dict[str, tuple[list[int], list[Document]]] | None = None

    def contains(self, file: str, line: int, column: int) -> bool:
        """Whether the character at ``line`` (1-based) and ``column`` (0-based) of ``file`` is part of a scalar."""
        if self._by_file is None:
            self._by_file = _by_file(self._documents)
        found = self._by_file.get(file)
        if found is None:
            return False
        starts, documents = found
        # Documents do not overlap: only the last one starting on or before the line can hold it.
        index = bisect.bisect_right(starts, line) - 1
        if index < 0:
            return False
        document = documents[index]
        root = document.tree()
        return root is not None and _in_scalar(root, (line, column), document.line_offset)


def _by_file(documents: Iterable[Document]) -> dict[str, tuple[list[int], list[Document]]]:
    """Each file's documents in text order, with the lines where they start."""
    grouped: dict[str, list[Document]] = {}
    for document in documents:
        grouped.setdefault(document.file, []).append(document)
    out: dict[str, tuple[list[int], list[Document]]] = {}
    for file, in_file in grouped.items():
        in_file.sort(key=lambda d: d.line)
        out[file] = ([d.line for d in in_file], in_file)
    return out


def _in_scalar(root: Node, point: Point, line_offset: int) -> bool:
    """Whether ``point`` lies in the text of a scalar under ``root``, descending only into nodes that span it."""
    stack = [root]
    seen: set[int] = set()  # aliases share nodes: visit each once
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            start = _point(node.start_mark, line_offset)
            if node.style in _BLOCK_STYLES:
                start = (start[0] + 1, 0)
            if start <= point < _point(node.end_mark, line_offset):
                return True
            continue
        if isinstance(node, MappingNode):
            children: Iterable[Node] = (child for pair in node.value for child in pair)
        elif isinstance(node, SequenceNode):
            children = node.value
        else:  # pragma: no cover - the composer only makes the three kinds
            continue
        stack.extend(
            child
            for child in children
            if _point(child.start_mark, line_offset) <= point < _point(child.end_mark, line_offset)
        )
    return False


def _point(mark: Any, line_offset: int) -> Point:
    return (mark.line + 1 + line_offset, mark.column)
