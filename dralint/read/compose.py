"""One chunk of YAML text → the node tree of its first document, as go-yaml v2 reads it.

kubectl reads with go-yaml v2 (:mod:`dralint.read.goyaml`, a port in Python). The C parser of
ruamel.yaml.clib (libyaml 0.1.7) composes about ten times faster and agrees with go-yaml on
what manifests are made of, so it composes a chunk first, and its tree is kept when nothing in
the chunk is where the two differ (:func:`_c_agrees`): anything it refuses, and any chunk
with an alias, a tag, a ``?`` beside a flow collection or a second document, goes to the port,
which also gives go-yaml's verdict and words for every refusal. Scalars are only marked plain
or quoted (:data:`PLAIN`, :data:`QUOTED`); their values are resolved later with go-yaml's
rules. The C composer recurses on the C stack, so text that could nest deeply goes to the
port too, whose composer does not recurse, unless the C parser (which does not recurse either)
finds it shallow: large files of flow collections are common and rarely deep.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from ruamel.yaml.error import StreamMark
from ruamel.yaml.events import MappingEndEvent, MappingStartEvent, SequenceEndEvent, SequenceStartEvent
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.tag import Tag

from dralint.read.build import PLAIN, QUOTED
from dralint.read.goyaml.errors import GoYamlError
from dralint.read.goyaml.nodes import PLAIN_TAG, QUOTED_TAG, TooDeep, compose_first
from dralint.read.goyaml.reader import reader_limit
from dralint.read.issues import DecodeIssue, Limits

try:  # the C parser ships in ruamel.yaml.clib; without it the port composes everything
    from _ruamel_yaml import CParser as _CParser
except ImportError:  # pragma: no cover - depends on the platform
    _CParser = None

__all__ = ["PLAIN", "QUOTED", "ComposeError", "compose_document", "compose_stream"]


class ComposeError(Exception):
    """The text does not parse (or nests too deeply); ``issue`` says where and why."""

    def __init__(self, issue: DecodeIssue) -> None:
        self.issue = issue


def compose_document(text: str, line_offset: int, limits: Limits) -> Node | None:
    """The root node of the first document of the chunk ``text`` (``None``: no document), as go-yaml reads it.

    Marks are relative to ``text``; ``line_offset`` places issues in the file.
    """
    if _CParser is not None and _c_agrees(text) and _c_composes(text, limits):
        try:
            nodes = _compose_fast(text)
        except Exception:  # the C parser's errors have no common base class; go-yaml words them
            pass
        else:
            if len(nodes) <= 1:
                return nodes[0] if nodes else None
    return _compose_port(text, line_offset, limits)


def compose_stream(text: str, limits: Limits) -> list[Node | None]:
    """The root nodes of every document of ``text`` read as one YAML stream (JSON text, for positions)."""
    if _CParser is not None and not _may_nest_deeply(text):
        try:
            return list(_compose_fast(text))
        except Exception:  # the C parser's errors have no common base class
            raise ComposeError(DecodeIssue("syntax", "invalid YAML", 1, 1)) from None
    if _CParser is not None and _c_agrees(text) and _nests_shallowly(text, limits):
        try:
            nodes = _compose_fast(text)
        except Exception:  # the port words the refusal (an unknown alias, say)
            pass
        else:
            if len(nodes) <= 1:  # the port reads the first document only
                return list(nodes)
    return [_compose_port(text, 0, limits)]


# Where libyaml 0.1.7 and go-yaml read the same text differently while both accept it: an
# alias (go-yaml keeps alias nodes, for its checks on them), a tag ("!" alone is resolved
# as plain by one and kept as text by the other), the escape "\/" (YAML 1.2's, which go-yaml
# refuses), and "?" where a flow collection may be (go-yaml ends a plain scalar there).
# Chunks holding none of these are read alike (the differential tests compare the two).
_C_DIFFERS = re.compile(r"\*[0-9A-Za-z_-]|!|\\/")


def _c_agrees(text: str) -> bool:
    if _C_DIFFERS.search(text) is not None:
        return False
    return "?" not in text or ("[" not in text and "{" not in text)


def _compose_port(text: str, line_offset: int, limits: Limits) -> Node | None:
    try:
        return compose_first(text, limit=reader_limit(text), max_depth=limits.max_depth)
    except GoYamlError as error:
        raise ComposeError(_go_issue(text, line_offset, error)) from None
    except TooDeep as deep:
        message = f"document nests deeper than {limits.max_depth} levels"
        raise ComposeError(
            DecodeIssue("too-deep", message, deep.mark.line + 1 + line_offset, deep.mark.column + 1)
        ) from None


def _go_issue(text: str, line_offset: int, error: GoYamlError) -> DecodeIssue:
    """A refusal of go-yaml's, placed at its problem (lines counted by "\n", as everywhere in dralint)."""
    if error.stage == "reader":
        found = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]").search(text)
        index = found.start() if found is not None else 0
        problem = f"control character U+{ord(text[index]):04X} is not allowed" if found is not None else error.problem
        message = f"invalid YAML: {problem}"
    else:
        mark = error.problem_mark or error.context_mark or (0, 0, 0)
        index = min(mark[0], len(text))
        message = (
            f"invalid YAML: {error.context}: {error.problem}" if error.context else f"invalid YAML: {error.problem}"
        )
    line = text.count("\n", 0, index)
    column = index - (text.rfind("\n", 0, index) + 1)
    source_line = text[index - column :].split("\n", 1)[0]
    hint = "YAML does not allow tabs for indentation; use spaces" if "\t" in source_line[: column + 1] else None
    return DecodeIssue("syntax", message, line + 1 + line_offset, column + 1, hint, upstream=error.upstream)


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
                return PLAIN_TAG if implicit[0] else QUOTED_TAG
            return _MAP_TAG if kind is MappingNode else _SEQ_TAG


_MAP_TAG = Tag(suffix="?map")
_SEQ_TAG = Tag(suffix="?seq")


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


# Nesting much deeper than this crashes the C composer (tested: 10,000 levels pass, 100,000 do not).
_C_SAFE_DEPTH = 1000
_STARTS = (MappingStartEvent, SequenceStartEvent)
_ENDS = (MappingEndEvent, SequenceEndEvent)


def _c_composes(text: str, limits: Limits) -> bool:
    """Whether the C composer may compose ``text``: it cannot nest deeply, or it parses and does not."""
    return not _may_nest_deeply(text) or _nests_shallowly(text, limits)


def _nests_shallowly(text: str, limits: Limits) -> bool:
    """Whether the C parser reads ``text`` without error and no deeper than the C composer
    safely recurses and ``limits`` allow (deeper text goes to the port, which words the refusal).

    The parser does not recurse, so it measures the nesting of text the cheap bound of
    :func:`_may_nest_deeply` sends here: large files of flow collections (JSON, or a List
    whose items are written ``- {...}``) are rarely deep, and the C composer reads them
    several times faster than the port.
    """
    if "\ufeff" in text:  # libyaml and go-yaml place a byte order mark differently: the port reads it
        return False
    deepest = min(limits.max_depth, _C_SAFE_DEPTH)
    parser = _CParser(text)
    depth = 0
    try:
        while parser.check_event():
            kind = type(parser.get_event())
            if kind in _STARTS:
                depth += 1
                if depth > deepest:
                    return False
            elif kind in _ENDS:
                depth -= 1
    except Exception:  # the C parser's errors have no common base class
        return False
    return True


_COMPACT_RUN = re.compile(r"(?:[-?:][ \t]+(?:[&!][^ \t\n]*[ \t]+)*){300}")


def _may_nest_deeply(text: str) -> bool:
    """Whether ``text`` may nest deeply enough to crash the C composer (which recurses on the C
    stack: 10,000 levels pass, 100,000 do not): such text goes to the port, which does not recurse.

    A cheap upper bound on nesting: flow depth needs brackets, block depth needs long lines.

    Block nesting needs a deeper indentation or another ``- `` on the same line per level, so
    it cannot exceed the longest line; only texts with long lines get the finer run check.
    """
    if text.count("[") + text.count("{") > 300:
        return True
    if max(map(len, text.split("\n"))) <= 300:
        return False
    return re.search(r"^[ \t]{300}", text, re.MULTILINE) is not None or _COMPACT_RUN.search(text) is not None
