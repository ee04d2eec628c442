"""Decode YAML (and JSON) text into documents that remember where each value came from, as kubectl reads them.

kubectl cuts a file into documents (:mod:`dralint.read.stream`), parses each with go-yaml v2
(:mod:`dralint.read.compose`) and turns it into JSON (:mod:`dralint.read.build`); dralint
does the same, so a file is accepted, refused and valued as kubectl would. Positions are
looked up lazily in the kept node tree, only for the few paths that get a finding. Defects of
the text (syntax errors, duplicate keys, alias bombs, unrendered templates) become
:class:`DecodeIssue` values, never exceptions, and a broken document does not lose the
documents after it (kubectl stops at the first; dralint reports them all).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import field, fields
from functools import lru_cache
from typing import Any, Protocol

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.read import stream, templating
from dralint.read.build import Builder, BuildError, is_merge_key, scalar_key
from dralint.read.compose import ComposeError, compose_document
from dralint.read.issues import DecodeIssue, Limits
from dralint.read.manifests import HELM_ADVICE
from dralint.read.positions import char_positions
from dralint.read.scalars import resolve_plain

__all__ = ["DecodeIssue", "Document", "Limits", "decode", "resolve_plain"]


Lookup = tuple["Document", Path, "int | None"]  # a document, a path in it, and an offset in a string (or None)


class Finder(Protocol):
    """Looks positions up in the node tree of a document that left it behind (in a ``--jobs`` worker)."""

    def find(self, document: Document, path: Path, offset: int | None) -> tuple[int, int]:
        """``document.position(path)``, or ``document.scalar_position(path, offset)`` with an offset."""
        ...

    def find_all(self, lookups: Sequence[Lookup]) -> list[tuple[int, int]]:
        """:meth:`find` for each look-up, in one exchange."""
        ...


def look_up_all(lookups: Iterable[Lookup]) -> None:
    """Ask each finder once for the positions ``lookups`` will need (documents remember them)."""
    by_finder: dict[int, tuple[Finder, list[Lookup]]] = {}
    for lookup in lookups:
        document, path, offset = lookup
        finder = document.finder
        if finder is None or document.node is not None or document.knows(path, offset):
            continue
        by_finder.setdefault(id(finder), (finder, []))[1].append(lookup)
    for finder, wanted in by_finder.values():
        for (document, path, offset), found in zip(wanted, finder.find_all(wanted), strict=True):
            document.remember(path, offset, found)


@dataclass(slots=True, eq=False)
class Document:
    """One YAML document of a file: its value and the node tree for position look-ups.

    ``position`` gives the position of a mapping entry's *key* (or of a list item), which is
    where editors and ``kubectl`` point for a field; ``value_position`` gives the start of the
    value; ``scalar_position`` a character inside a string value.

    A pickled document (sent back by a ``--jobs`` worker) leaves its node tree behind, keeping
    the positions already looked up; others are asked of ``finder`` (the worker that has the
    tree), or the tree is composed again from ``text``.
    """

    file: str
    index: int  # 0-based position among the file's documents
    line: int  # 1-based line where the document starts
    data: Any
    node: Node | None = field(default=None, repr=False)
    line_offset: int = 0  # added to node marks when the document was parsed out of a fragment
    text: str = field(default="", repr=False)  # the whole (normalised) text of the file
    # (start, end): the node is the first document of the chunk text[start:end]; None when not from YAML.
    source: tuple[int, int] | None = field(default=None, repr=False)
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict, repr=False)  # looked up so far
    scalar_positions: dict[tuple[Path, int], tuple[int, int]] = field(default_factory=dict, repr=False)
    finder: Finder | None = field(default=None, repr=False)  # where the node tree is, when not here

    def knows(self, path: Path, offset: int | None) -> bool:
        """Whether the position of ``path`` (or of character ``offset`` in it) was looked up already."""
        return path in self.positions if offset is None else (path, offset) in self.scalar_positions

    def remember(self, path: Path, offset: int | None, position: tuple[int, int]) -> None:
        if offset is None:
            self.positions[path] = position
        else:
            self.scalar_positions[path, offset] = position

    def position(self, path: Path) -> tuple[int, int]:
        """1-based (line, column) of ``path``: a mapping entry's key, a list item, or the nearest parent."""
        known = self.positions.get(path)
        if known is not None:
            return known
        if self.node is None and self.finder is not None:
            known = self.positions[path] = self.finder.find(self, path, None)
            return known
        node = self.tree()
        if node is None:
            return (self.line, 1)
        best = node.start_mark
        for step in path:
            found = _child(node, step)
            if found is None:
                break
            mark_node, node = found
            best = mark_node.start_mark
        position = self.positions[path] = (best.line + 1 + self.line_offset, best.column + 1)
        return position

    def tree(self) -> Node | None:
        """The root node: kept from decoding, or composed again from ``text`` when it was left behind."""
        if self.node is None and self.source is not None and self.text:
            self.node = _recompose(self.text, *self.source)
        return self.node

    def __getstate__(self) -> dict[str, Any]:
        # The node tree is several times larger than the data: pickled documents leave it behind.
        return {name: getattr(self, name) for name in _DOCUMENT_FIELDS if name not in ("node", "finder")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.node = self.finder = None
        for name, value in state.items():
            setattr(self, name, value)

    def value_node(self, path: Path) -> Node | None:
        """The node holding the value at ``path``, or ``None`` when the path does not exist."""
        node = self.tree()
        for step in path:
            if node is None:
                return None
            found = _child(node, step)
            if found is None:
                return None
            node = found[1]
        return node

    def plain_scalar(self, path: Path) -> str | None:
        """The plain (unquoted) scalar at ``path`` as the file spells it; ``None`` for anything else."""
        node = self.value_node(path)
        if isinstance(node, ScalarNode) and not node.style:
            text: str = node.value
            return text
        return None

    def value_position(self, path: Path) -> tuple[int, int]:
        """1-based (line, column) where the value at ``path`` starts (``position`` when it is absent)."""
        node = self.value_node(path)
        if node is None:
            return self.position(path)
        return (node.start_mark.line + 1 + self.line_offset, node.start_mark.column + 1)

    def scalar_position(self, path: Path, offset: int) -> tuple[int, int]:
        """Position of character ``offset`` of the string scalar at ``path``.

        Exact for every scalar style (plain, quoted with escapes, literal, folded, multi-line);
        when the source cannot be matched to the value, the start of the value.
        """
        known = self.scalar_positions.get((path, offset))
        if known is not None:
            return known
        if self.node is None and self.finder is not None:
            known = self.scalar_positions[path, offset] = self.finder.find(self, path, offset)
            return known
        node = self.value_node(path)
        if not isinstance(node, ScalarNode):
            return self.position(path)
        start = (node.start_mark.line + self.line_offset, node.start_mark.column)
        end = (node.end_mark.line + self.line_offset, node.end_mark.column)
        positions = char_positions(_lines(self.text), node.style, node.value, start, end) if self.text else None
        if positions is None:
            return (start[0] + 1, start[1] + 1)
        line, column = positions[max(0, min(offset, len(positions) - 1))]
        return (line + 1, column + 1)


_DOCUMENT_FIELDS = tuple(f.name for f in fields(Document))


def walk(root: Node) -> Iterator[Node]:
    """Every node of the tree under ``root`` (mapping keys included), parents before children."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, MappingNode):
            stack.extend(child for pair in reversed(node.value) for child in reversed(pair))
        elif isinstance(node, SequenceNode):
            stack.extend(reversed(node.value))


@lru_cache(maxsize=4)
def _lines(text: str) -> list[str]:
    return text.split("\n")


@lru_cache(maxsize=8)
def _recompose(text: str, start: int, end: int) -> Node | None:
    """The node tree of the chunk ``text[start:end]`` again (it composed before)."""
    return compose_document(_chunk_text(text, start, end), 0, _RECOMPOSE_LIMITS)


_RECOMPOSE_LIMITS = Limits(max_depth=2**31)


# --- reading nodes --------------------------------------------------------------------------


def _child(node: Node, step: str | int) -> tuple[Node, Node] | None:
    """(node to report, value node) for one path step, with go-yaml's precedence (last key wins)."""
    if isinstance(node, MappingNode) and isinstance(step, str):
        found = None
        for key_node, value_node in node.value:
            if is_merge_key(key_node):
                found = _merged_child(value_node, step) or found
            elif scalar_key(key_node) == step:
                found = (key_node, value_node)
        return found
    if isinstance(node, SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
        item = node.value[step]
        return item, item
    return None


def _merged_child(source: Node, step: str) -> tuple[Node, Node] | None:
    if isinstance(source, MappingNode):
        return _child(source, step)
    if isinstance(source, SequenceNode):
        for candidate in source.value:  # earlier mappings take precedence
            found = _child(candidate, step) if isinstance(candidate, MappingNode) else None
            if found is not None:
                return found
    return None


# --- the decoding pipeline ------------------------------------------------------------


def decode(
    file: str, text: str, limits: Limits | None = None, *, templates: bool = True
) -> tuple[list[Document], list[DecodeIssue]]:
    """All documents of ``text`` (empty documents dropped) and the defects found on the way.

    CR LF line ends become LF, as kubectl reads lines; a lone CR counts as a line break too
    (go-yaml breaks lines there, and so do editors), so positions do not change. A file whose
    first character is ``{`` is JSON (a stream of values); anything else is cut into chunks at
    ``---`` lines, and each chunk's first document is decoded on its own: a syntax error loses
    only its chunk. ``templates=False`` reads ``{{ ... }}`` as plain text (dralint's own files
    quote templates in their documentation).
    """
    limits = limits or Limits()
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    chunk_lines = [1]  # 1-based lines where kubectl's documents start
    if stream.is_json_stream(text):
        text = text.replace("\r", "\n")
        documents, issues = _decode_json_stream(file, text, limits)
    else:
        chunks, issues = stream.yaml_chunks(text)  # cut where kubectl cuts: a lone CR is no line end there
        text = text.replace("\r", "\n")
        # Bound the count before any decoding; JSON streams are counted once decoded.
        if _too_many(len(chunks), limits):
            return [], [_too_many_documents(limits)]
        documents = []
        lines_before = _lines_before(text, [chunk.start for chunk in chunks])
        for chunk, line_offset in zip(chunks, lines_before, strict=True):
            document, chunk_issues = _decode_chunk(file, text, chunk, line_offset, limits)
            if document is not None:
                documents.append(document)
            issues.extend(chunk_issues)
        issues.sort(key=lambda i: (i.line, i.column))
        chunk_lines += [lines + 1 for lines in lines_before[1:]]
    # The items of a List (and of a bare YAML list) are objects as good as documents: they count.
    if _too_many(sum(_objects_in(document.data) for document in documents), limits):
        return [], [_too_many_documents(limits)]
    for document in documents:
        document.text = text
    if templates and "{{" in text:
        documents, issues = _drop_templated(text, chunk_lines, documents, issues)
    for number, document in enumerate(documents):
        document.index = number
    return documents, issues


def _chunk_text(text: str, start: int, end: int) -> str:
    """A chunk as go-yaml gets it: ending with a line break, without the byte-order mark go-yaml skips."""
    chunk = text[start:end]
    if not chunk.endswith("\n"):
        chunk += "\n"
    return chunk


def _lines_before(text: str, offsets: list[int]) -> list[int]:
    """How many line breaks precede each of ``offsets``: one pass over ``text`` for ascending offsets (chunks
    are), where counting from the start for each chunk grew with the file's size times its documents."""
    out = []
    line = position = 0
    for offset in offsets:
        if offset < position:
            line = position = 0
        line += text.count("\n", position, offset)
        position = offset
        out.append(line)
    return out


def _decode_chunk(
    file: str, text: str, chunk: stream.Chunk, line_offset: int, limits: Limits
) -> tuple[Document | None, list[DecodeIssue]]:
    """The document of one chunk (``None``: there is none, or it is refused) and its issues; ``line_offset``: the
    line breaks before the chunk."""
    start = chunk.start
    if text.startswith("\ufeff", start):  # go-yaml skips a byte-order mark at the start of its input
        start += 1  # (not a line break: the chunk's lines stay where they were)
    try:
        node = compose_document(_chunk_text(text, start, chunk.end), line_offset, limits)
    except ComposeError as error:
        return None, [error.issue]
    if node is None:
        return None, []
    builder = Builder(limits)
    try:
        data = builder.document(node)
    except BuildError as stop:
        # An alias bomb runs out of budget somewhere inside an anchor: name the document instead.
        mark = (stop.node or node).start_mark
        issue = DecodeIssue(stop.kind, stop.message, mark.line + 1 + line_offset, mark.column + 1, stop.hint,
                            upstream=stop.upstream)  # fmt: skip
        return None, [issue]
    except RecursionError:
        mark = node.start_mark
        return None, [
            DecodeIssue("too-deep", "document nests too deeply", mark.line + 1 + line_offset, mark.column + 1)
        ]
    issues = [
        DecodeIssue(
            "duplicate-key",
            f"mapping key {key!r} already defined at line {first.start_mark.line + 1 + line_offset}",
            second.start_mark.line + 1 + line_offset,
            second.start_mark.column + 1,
            hint="the API server rejects duplicate fields; keep one of them",
        )
        for key, first, second in builder.duplicates
    ]
    if data is None:  # an empty document (a null one kubectl skips too)
        return None, issues
    line = node.start_mark.line + 1 + line_offset
    return Document(file, 0, line, data, node, line_offset, source=(start, chunk.end)), issues


def _objects_in(data: Any) -> int:
    """How many objects a document holds: the items of ``kind: *List`` and bare lists, else one."""
    kind = data.get("kind") if isinstance(data, dict) else None
    items = data.get("items") if isinstance(kind, str) and kind.endswith("List") else data
    if not isinstance(items, list):
        return 1
    return max(1, sum(_objects_in(item) if isinstance(item, (dict, list)) else 1 for item in items))


def _too_many(documents: int, limits: Limits) -> bool:
    return documents > limits.max_documents_per_file


def _too_many_documents(limits: Limits) -> DecodeIssue:
    return DecodeIssue(
        "too-large",
        f"file holds more than {limits.max_documents_per_file} documents (List items count); not checked",
        1,
        1,
        hint="split the file, or raise limits.maxDocumentsPerFile in the configuration",
    )


def _decode_json_stream(file: str, text: str, limits: Limits) -> tuple[list[Document], list[DecodeIssue]]:
    """A JSON stream, decoded as JSON (what kubectl does); positions come from reading it as YAML too.

    JSON that YAML cannot read (very long keys, some escapes) keeps its values, without
    positions inside them. Where JSON refuses the text (comments, trailing commas, single
    quotes, NaN), kubectl stops: the values before keep, the rest is reported once.
    """
    from dralint.read import json_stream  # only for JSON inputs: most are YAML

    overflows: dict[int, str] = {}
    values, refused = json_stream.decode(text, overflows)
    nodes, deep = _yaml_nodes(text, limits) if refused is None else (None, None)
    if nodes is not None and len(nodes) != len(values):
        nodes = None
    documents = []
    issues = [refused] if refused is not None else []
    for n, (data, line) in enumerate(values):
        if _depth(data) > limits.max_depth:
            message = f"document nests deeper than {limits.max_depth} levels"
            where = _too_deep_at(nodes[n], limits.max_depth) if nodes is not None else None
            issues.append(deep or DecodeIssue("too-deep", message, *(where or (line, 1))))
            continue
        number = overflows.get(n)
        if number is not None:  # Kubernetes cannot decode the object: kubectl skips it
            at = text.find(number, sum(len(row) + 1 for row in text.split("\n", line - 1)[: line - 1]))
            issues.append(DecodeIssue(
                "syntax",
                f"invalid JSON: number {number[:40]} is out of range for a float64; kubectl cannot decode this object",
                text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at),
                hint="write a number a float64 holds",
                upstream=f"json: cannot unmarshal number {number} into Go value of type float64",
            ))  # fmt: skip
            continue
        documents.append(Document(file, n, line, data, nodes[n] if nodes is not None else None))
    return documents, sorted(issues, key=lambda i: (i.line, i.column))


def _yaml_nodes(text: str, limits: Limits) -> tuple[list[Node] | None, DecodeIssue | None]:
    """The node trees of ``text`` read as one YAML stream (for positions), or ``None`` if it is not
    YAML; and where it nests too deeply, if it does."""
    from dralint.read.compose import compose_stream

    try:
        return [node for node in compose_stream(text, limits) if node is not None], None
    except ComposeError as error:
        return None, error.issue if error.issue.kind == "too-deep" else None


def _too_deep_at(root: Node, max_depth: int) -> tuple[int, int] | None:
    """1-based position of the first collection nested deeper than ``max_depth`` under ``root``."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, (MappingNode, SequenceNode)):
            continue
        if depth > max_depth:
            return (node.start_mark.line + 1, node.start_mark.column + 1)
        children = [v for pair in node.value for v in pair] if isinstance(node, MappingNode) else node.value
        stack.extend((child, depth + 1) for child in reversed(children))
    return None


def _depth(data: Any) -> int:
    """How deeply a decoded value nests (a scalar: 0)."""
    deepest = 0
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Iterable[Any] = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


# --- templates ------------------------------------------------------------------------------


def _drop_templated(
    text: str, starts: list[int], documents: list[Document], issues: list[DecodeIssue]
) -> tuple[list[Document], list[DecodeIssue]]:
    """Unrendered templates are not manifests: report each templated ``---`` chunk once and skip it.

    A chunk is templated when one of its directives is Helm-specific, when it does not parse,
    or when it has more directives than its string values contain (some are YAML structure).
    """
    found = templating.directives(text)
    if not found:
        return documents, issues

    def chunk_of(line: int) -> int:
        return bisect.bisect_right(starts, line) - 1

    by_chunk: dict[int, list[templating.Directive]] = {}
    for directive in found:
        by_chunk.setdefault(chunk_of(directive.line), []).append(directive)
    templated: dict[int, templating.Directive] = {}
    for chunk, chunk_directives in by_chunk.items():
        helm = [d for d in chunk_directives if d.helm]
        broken = any(chunk_of(i.line) == chunk and i.kind == "syntax" for i in issues)
        in_strings = sum(templating.string_directive_count(d.data) for d in documents if chunk_of(d.line) == chunk)
        if helm or broken or len(chunk_directives) > in_strings:
            templated[chunk] = (helm or chunk_directives)[0]
    if not templated:
        return documents, issues
    kept_docs = [d for d in documents if chunk_of(d.line) not in templated]
    kept_issues = [i for i in issues if chunk_of(i.line) not in templated]
    for directive in templated.values():
        kept_issues.append(DecodeIssue(
            "template",
            f"unrendered template directive {directive.text}; this document is not checked",
            directive.line, directive.column,
            hint=HELM_ADVICE,
        ))  # fmt: skip
    return kept_docs, sorted(kept_issues, key=lambda i: (i.line, i.column))
