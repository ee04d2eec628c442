"""The node tree of the first document of a text, as go-yaml v2 composes it (decode.go's parser).

Nodes are ruamel's, shaped as dralint's C composer leaves them (untagged scalars marked
plain or quoted, see :mod:`dralint.read.compose`), so that everything reading positions works
on either. go-yaml keeps aliases as nodes of their own (decoding counts them and refuses one
that contains itself), so an alias here is an ``*Alias`` node: placed where the alias is
written, sharing its target's value, with the target and the anchor's name at hand.

An anchor counts from where it is defined (a collection's anchor before its content, so an
alias inside it refers to it); a later anchor of the same name replaces it; an alias to a
name not defined before it is go-yaml's "unknown anchor" error.
"""

from __future__ import annotations

import bisect
import gc
import re
from typing import Any

from ruamel.yaml.error import StreamMark
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.tag import Tag

from dralint.read.goyaml import parser as events
from dralint.read.goyaml.errors import GoYamlError, Mark
from dralint.read.goyaml.parser import Event, Parser
from dralint.read.goyaml.scanner import Scanner

__all__ = ["ALIASES", "MappingAlias", "ScalarAlias", "SequenceAlias", "TooDeep", "compose_first"]

PLAIN_TAG = Tag(suffix="?plain")
QUOTED_TAG = Tag(suffix="?quoted")
_MAP_TAG = Tag(suffix="?map")
_SEQ_TAG = Tag(suffix="?seq")
_STYLES = {"": "", "'": "'", '"': '"', "|": "|", ">": ">"}


class ScalarAlias(ScalarNode):
    """An alias to a scalar."""

    __slots__ = ("alias_name", "target")
    alias_name: str  # the name of the anchor
    target: Node  # the anchored node


class MappingAlias(MappingNode):
    """An alias to a mapping (its pairs are the target's)."""

    __slots__ = ("alias_name", "target")
    alias_name: str  # the name of the anchor
    target: Node  # the anchored node


class SequenceAlias(SequenceNode):
    """An alias to a sequence (its items are the target's)."""

    __slots__ = ("alias_name", "target")
    alias_name: str  # the name of the anchor
    target: Node  # the anchored node


ALIASES = (ScalarAlias, MappingAlias, SequenceAlias)


class TooDeep(Exception):
    """The document nests deeper than allowed; ``mark`` is where it first does."""

    def __init__(self, mark: StreamMark) -> None:
        self.mark = mark


_NON_LF_BREAKS = re.compile("[\x85\u2028\u2029]")


class _Marks:
    """Turns go-yaml marks into ruamel marks whose lines are counted by "\\n" only (as editors count)."""

    def __init__(self, text: str) -> None:
        self.starts: list[int] | None = None
        if _NON_LF_BREAKS.search(text):
            self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, mark: Mark) -> StreamMark:
        index, line, column = mark
        if self.starts is not None:
            line = bisect.bisect_right(self.starts, index) - 1
            column = index - self.starts[line]
        return StreamMark(None, index, line, column)


def compose_first(text: str, *, limit: int | None = None, max_depth: int = 10_000) -> Node | None:
    """The root node of the first document of ``text`` (``None`` when there is none).

    Raises :class:`GoYamlError` where go-yaml fails, and :class:`TooDeep` past ``max_depth``.
    """
    parser = Parser(Scanner(text, limit))
    marks = _Marks(text)
    anchors: dict[str, Node] = {}
    event = parser.next()  # the stream's start
    event = parser.next()
    if event.kind != events.DOCUMENT_START:
        return None
    # Tokens, events and nodes make no cycles: the cycle collector, which would walk the
    # growing tree again and again, only costs time (a quarter of it on large files).
    collecting = gc.isenabled()
    gc.disable()
    try:
        root = _compose(parser, parser.next(), anchors, marks, max_depth)
    finally:
        if collecting:
            gc.enable()
    end = parser.next()
    if end.kind != events.DOCUMENT_END:  # pragma: no cover - the parser only ends a node with a document end
        raise GoYamlError("decoder", f"expected document end event but got {end.kind}")
    return root


def _compose(parser: Parser, event: Event, anchors: dict[str, Node], marks: _Marks, max_depth: int) -> Node:
    """The node ``event`` starts, with everything under it (iteratively: nesting may be deep)."""
    stack: list[tuple[Node, list[Any]]] = []  # open collections: node, children so far
    while True:
        kind = event.kind
        node: Node | None = None
        if kind == events.SCALAR:
            node = ScalarNode(
                _scalar_tag(event), event.value, marks(event.start), marks(event.end), _STYLES[event.style]
            )
            if event.anchor:
                anchors[event.anchor] = node
        elif kind == events.ALIAS:
            node = _alias(event, anchors, marks)
        elif kind == events.MAPPING_START or kind == events.SEQUENCE_START:
            if len(stack) >= max_depth:
                raise TooDeep(marks(event.start))
            mapping = kind == events.MAPPING_START
            tag = Tag(suffix=event.tag) if event.tag else (_MAP_TAG if mapping else _SEQ_TAG)
            children: list[Any] = []
            collection: Node
            if mapping:
                collection = MappingNode(tag, children, marks(event.start), None, event.style == "flow")
            else:
                collection = SequenceNode(tag, children, marks(event.start), None, event.style == "flow")
            if event.anchor:
                anchors[event.anchor] = collection
            stack.append((collection, children))
        else:  # the end of the innermost open collection
            collection, children = stack.pop()
            collection.end_mark = marks(event.end)
            if isinstance(collection, MappingNode):
                collection.value = list(zip(children[::2], children[1::2], strict=True))
            node = collection
        if node is not None:
            if not stack:
                return node
            stack[-1][1].append(node)
        event = parser.next()


def _scalar_tag(event: Event) -> Tag:
    if event.tag:
        return Tag(suffix=event.tag)
    return PLAIN_TAG if event.implicit else QUOTED_TAG


def _alias(event: Event, anchors: dict[str, Node], marks: _Marks) -> Node:
    target = anchors.get(event.anchor)
    if target is None:
        raise GoYamlError("decoder", f"unknown anchor '{event.anchor}' referenced", event.start)
    start, end = marks(event.start), marks(event.end)
    alias: ScalarAlias | MappingAlias | SequenceAlias
    if isinstance(target, ScalarNode):
        alias = ScalarAlias(target.ctag, target.value, start, end, target.style)
    elif isinstance(target, MappingNode):
        alias = MappingAlias(target.ctag, target.value, start, end, target.flow_style)
    else:
        alias = SequenceAlias(target.ctag, target.value, start, end, getattr(target, "flow_style", None))
    alias.alias_name = event.anchor
    alias.target = target
    return alias
