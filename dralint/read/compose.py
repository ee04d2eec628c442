"""YAML text → node trees, with the C parser when ruamel.yaml.clib is there (pure Python otherwise).

Scalars are only marked plain or quoted (:data:`PLAIN`, :data:`QUOTED`); their values are
resolved later with go-yaml's rules. The C composer recurses on the C stack, so text that could
nest deeply is first measured with the (iterative) event parser and refused past a safe depth.
Parser errors become a :class:`ComposeError` carrying a :class:`DecodeIssue` with the position.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import Any

from ruamel.yaml.error import StreamMark
from ruamel.yaml.events import (
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.tag import Tag

from dralint.read.issues import DecodeIssue, Limits

try:  # the C parser ships in ruamel.yaml.clib; without it the pure-Python composer is used
    from _ruamel_yaml import CParser as _CParser
except ImportError:  # pragma: no cover - depends on the platform
    _CParser = None

__all__ = ["PLAIN", "QUOTED", "ComposeError", "compose"]

PLAIN = "?plain"
QUOTED = "?quoted"
_PLAIN, _QUOTED = PLAIN, QUOTED
# Nesting much deeper than this crashes the C composer (tested: 10,000 levels pass, 100,000 do not).
_C_SAFE_DEPTH = 1000


class ComposeError(Exception):
    """The text does not parse (or nests too deeply); ``issue`` says where and why."""

    def __init__(self, issue: DecodeIssue) -> None:
        self.issue = issue


def compose(text: str, line_offset: int, limits: Limits) -> list[Node]:
    """The root node of every document of ``text`` (marks relative to ``text``)."""
    try:
        if _CParser is not None:
            if _may_nest_deeply(text):
                _check_nesting(text, line_offset, limits)
            return _compose_fast(text)
        return list(_compose_pure(text))
    except ComposeError:
        raise
    except Exception as error:  # the parsers' errors have no common base class
        raise ComposeError(syntax_issue(text, line_offset, error)) from None


_MARKS = {name: Tag(suffix=name) for name in (_PLAIN, _QUOTED, "?map", "?seq")}
_PLAIN_TAG, _QUOTED_TAG, _MAP_TAG, _SEQ_TAG = (_MARKS[name] for name in (_PLAIN, _QUOTED, "?map", "?seq"))


class _MarkerResolver(VersionedResolver):
    """Pure-Python resolver that only marks plain vs quoted scalars, like ``_FastLoader``."""

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> Tag:
        if kind is ScalarNode:
            return _MARKS[_PLAIN] if implicit[0] else _MARKS[_QUOTED]
        return _MARKS["?map"] if kind is MappingNode else _MARKS["?seq"]

    @property
    def processing_version(self) -> tuple[int, int]:
        return (1, 1)  # go-yaml and libyaml implement YAML 1.1


if _CParser is not None:

    class _FastLoader(_CParser):  # type: ignore[misc]
        """The C parser with a resolver that only marks plain vs quoted scalars."""

        def descend_resolver(self, parent: Any, index: Any) -> None:
            pass

        def ascend_resolver(self) -> None:
            pass

        def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> Tag:
            # Shared Tag objects: a node given a string makes a Tag of its own (one per node).
            if kind is ScalarNode:
                return _PLAIN_TAG if implicit[0] else _QUOTED_TAG
            return _MAP_TAG if kind is MappingNode else _SEQ_TAG


def _compose_fast(text: str) -> list[Node]:
    loader = _FastLoader(text)
    nodes: list[Node] = []
    while loader.check_node():
        nodes.append(loader.get_node())
    if _YAML11_BREAKS.search(text):
        _renumber(nodes, text)
    return nodes


# libyaml (YAML 1.1, like go-yaml) also counts NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR as
# line breaks; editors, grep, GitHub's annotations and ruamel's pure parser count only "\n".
_YAML11_BREAKS = re.compile("[\x85\u2028\u2029]")


def _renumber(nodes: list[Node], text: str) -> None:
    """Marks with lines counted by "\n" only (from the character index, which both count alike)."""
    starts = [0] + [match.end() for match in re.finditer("\n", text)]

    def mark(old: Any) -> StreamMark:
        line = bisect.bisect_right(starts, old.index) - 1
        return StreamMark(old.name, old.index, line, old.index - starts[line])

    pending: list[Node] = list(nodes)
    seen: set[int] = set()
    while pending:
        node = pending.pop()
        if id(node) in seen:  # aliases share nodes
            continue
        seen.add(id(node))
        node.start_mark, node.end_mark = mark(node.start_mark), mark(node.end_mark)
        if isinstance(node, MappingNode):
            pending.extend(part for pair in node.value for part in pair)
        elif isinstance(node, SequenceNode):
            pending.extend(node.value)


def _compose_pure(text: str) -> Iterator[Node]:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.Resolver = _MarkerResolver
    yield from yaml.compose_all(text)


_COMPACT_RUN = re.compile(r"(?:[-?:][ \t]+(?:[&!][^ \t\n]*[ \t]+)*){300}")


def _may_nest_deeply(text: str) -> bool:
    """A cheap upper bound on nesting: flow depth needs brackets, block depth needs long lines.

    Block nesting needs a deeper indentation or another ``- `` on the same line per level, so
    it cannot exceed the longest line; only texts with long lines get the finer run check.
    """
    if text.count("[") + text.count("{") > 300:
        return True
    if max(map(len, text.split("\n"))) <= 300:
        return False
    return re.search(r"^[ \t]{300}", text, re.MULTILINE) is not None or _COMPACT_RUN.search(text) is not None


def _check_nesting(text: str, line_offset: int, limits: Limits) -> None:
    """Refuse text nested too deeply for the C composer, with the position where it gets too deep."""
    parser = _CParser(text)
    depth = 0
    too_deep = None  # where the current document first nests deeper than the limit
    try:
        while parser.check_event():
            event = parser.get_event()
            kind = type(event)
            if kind is MappingStartEvent or kind is SequenceStartEvent:
                depth += 1
                if depth > limits.max_depth and too_deep is None:
                    too_deep = event.start_mark
                if depth > _C_SAFE_DEPTH:
                    break
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                depth -= 1
            elif kind is DocumentStartEvent:
                too_deep = None
        else:
            return
    except Exception as error:  # the parser's errors have no common base class
        raise ComposeError(syntax_issue(text, line_offset, error)) from None
    mark = too_deep or event.start_mark
    limit = min(limits.max_depth, _C_SAFE_DEPTH)
    message = f"document nests deeper than {limit} levels"
    raise ComposeError(DecodeIssue("too-deep", message, mark.line + 1 + line_offset, mark.column + 1))


def syntax_issue(text: str, line_offset: int, fast_error: Exception) -> DecodeIssue:
    """A syntax error with its position; the pure-Python parser is asked for a better message."""
    error: Any = fast_error
    if getattr(error, "problem_mark", None) is None:
        try:
            for _ in _compose_pure(text):
                pass
        except Exception as pure_error:  # the parsers' errors have no common base class
            error = pure_error
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    problem = getattr(error, "problem", None) or (str(error).splitlines() or ["invalid YAML"])[0]
    context = getattr(error, "context", None)
    message = f"{context}: {problem}" if context else str(problem)
    if mark is not None:
        line, column = mark.line, mark.column
    elif isinstance(getattr(error, "position", None), int):  # reader errors give a character index
        line = text.count("\n", 0, error.position)
        column = error.position - (text.rfind("\n", 0, error.position) + 1)
    else:
        line, column = 0, 0
    lines = text.split("\n", line + 1)
    source_line = lines[line] if 0 <= line < len(lines) else ""
    hint = "YAML does not allow tabs for indentation; use spaces" if "\t" in source_line[: column + 1] else None
    return DecodeIssue("syntax", f"invalid YAML: {message}", line + 1 + line_offset, column + 1, hint)
