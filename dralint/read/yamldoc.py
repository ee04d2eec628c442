"""Decode YAML (and JSON) text into documents that remember where each value came from.

Kubernetes reads manifests with go-yaml v2, so values follow its rules (YAML 1.1 scalars, see
:mod:`dralint.read.scalars`; merge keys applied in document order, later keys winning).
Composing nodes with the C parser and building plain Python values from them is about 25
times faster than ruamel's round-trip loader; positions are looked up lazily in the kept node
tree, only for the few paths that get a finding. Defects of the text (syntax errors, duplicate
keys, alias bombs, unrendered templates) become :class:`DecodeIssue` values, never exceptions,
and a broken document does not lose the documents after it.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import field, fields
from functools import lru_cache
from typing import Any, Protocol

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.read import templating
from dralint.read.compose import PLAIN as _PLAIN
from dralint.read.compose import QUOTED as _QUOTED
from dralint.read.compose import ComposeError, compose
from dralint.read.issues import DecodeIssue, IssueKind, Limits
from dralint.read.positions import char_positions
from dralint.read.scalars import TAG_PREFIX, TagError, key_text, resolve_plain, resolve_tagged

__all__ = ["DecodeIssue", "Document", "Limits", "decode", "resolve_plain"]

_MERGE_TAG = TAG_PREFIX + "merge"


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
    # (start, end, n): the node is the n-th document of text[start:end]; None when not from YAML.
    source: tuple[int, int, int] | None = field(default=None, repr=False)
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
            start, end, number = self.source
            self.node = _recompose(self.text, start, end)[number]
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
def _recompose(text: str, start: int, end: int) -> list[Node]:
    """The nodes of ``text[start:end]`` again (it composed before; the C stack guard still applies)."""
    return compose(text[start:end], 0, _RECOMPOSE_LIMITS)


_RECOMPOSE_LIMITS = Limits(max_depth=2**31)


# --- reading nodes --------------------------------------------------------------------------


def _tag(node: Node) -> str:
    """The node's tag: ``?plain``/``?quoted`` when implicit, else the full explicit tag."""
    suffix: str = node.ctag.suffix
    return suffix if suffix in (_PLAIN, _QUOTED) else str(node.ctag)


def _is_merge_key(node: Node) -> bool:
    return type(node) is ScalarNode and node.value == "<<" and _tag(node) in (_PLAIN, _MERGE_TAG)


def _key(node: Node) -> str | None:
    """The string a scalar key node stands for, as the builder stores it (``None`` for complex keys)."""
    if type(node) is not ScalarNode:
        return None
    tag = _tag(node)
    if tag == _PLAIN:
        value = resolve_plain(node.value)
    elif tag == _QUOTED:
        value = node.value
    else:
        try:
            value = resolve_tagged(tag, node.value)
        except TagError:
            return None
    return key_text(value, node.value)


def _child(node: Node, step: str | int) -> tuple[Node, Node] | None:
    """(node to report, value node) for one path step, with go-yaml's precedence (last key wins)."""
    if isinstance(node, MappingNode) and isinstance(step, str):
        found = None
        for key_node, value_node in node.value:
            if _is_merge_key(key_node):
                found = _merged_child(value_node, step) or found
            elif _key(key_node) == step:
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


# --- building values ------------------------------------------------------------------------


class _Stop(Exception):
    """Building a document failed; the issue says why and the document is skipped."""

    def __init__(self, kind: IssueKind, message: str, node: Node, hint: str | None = None) -> None:
        self.kind, self.message, self.node, self.hint = kind, message, node, hint


class _Builder:
    """Turns a node tree into plain Python values, recording duplicate keys on the way."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.budget = limits.max_values_per_document
        self.duplicates: list[tuple[str, Node, Node]] = []

    def build(self, node: Node, depth: int = 0) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise _Stop(
                "too-large",
                f"document expands to more than {self.limits.max_values_per_document} values (YAML aliases?)",
                node,
                "expand the aliases or raise limits.maxValuesPerDocument in the configuration",
            )
        kind = type(node)
        if kind is ScalarNode:
            return self.scalar(node)  # type: ignore[arg-type]
        if depth >= self.limits.max_depth:
            raise _Stop("too-deep", f"document nests deeper than {self.limits.max_depth} levels", node)
        if kind is MappingNode:
            return self.mapping(node, depth)  # type: ignore[arg-type]
        if kind is SequenceNode:
            build = self.build
            return [build(item, depth + 1) for item in node.value]
        return None  # pragma: no cover - the composer only makes the three kinds

    def scalar(self, node: ScalarNode) -> Any:
        tag = node.ctag.suffix  # the raw tag; Node.tag would re-render it on every access
        if tag == _PLAIN:
            return resolve_plain(node.value)
        if tag == _QUOTED:
            return node.value
        try:
            return resolve_tagged(str(node.ctag), node.value)
        except TagError as error:
            raise _Stop("syntax", f"invalid YAML: {error}", node) from None

    def key(self, node: Node) -> str:
        if type(node) is ScalarNode:
            tag = node.ctag.suffix
            if tag == _QUOTED:
                return node.value  # type: ignore[no-any-return]
            value = resolve_plain(node.value) if tag == _PLAIN else self.scalar(node)
            return value if value.__class__ is str else key_text(value, node.value)
        # Complex keys do not exist in Kubernetes manifests; keep something printable.
        return json.dumps(self.build(node), sort_keys=True, default=str)

    def mapping(self, node: MappingNode, depth: int) -> dict[str, Any]:
        # go-yaml v2 applies entries in order: a merge (<<) overwrites keys set before it, and
        # keys after it overwrite merged ones.
        out: dict[str, Any] = {}
        build, key_of = self.build, self.key
        for key_node, value_node in node.value:
            if key_node.value == "<<" and _is_merge_key(key_node):
                out.update(self.merged(key_node, value_node, depth))
                continue
            key = key_of(key_node)
            if key in out:
                self._duplicate(node, key, key_node)
            out[key] = build(value_node, depth + 1)
        return out

    def _duplicate(self, mapping: MappingNode, key: str, second: Node) -> None:
        """Record ``second`` when an earlier explicit key of ``mapping`` has the same text (merges do not count)."""
        for key_node, _ in mapping.value:
            if key_node is second:
                return
            if not _is_merge_key(key_node) and self.key(key_node) == key:
                self.duplicates.append((key, key_node, second))
                return

    def merged(self, key: Node, source: Node, depth: int) -> dict[str, Any]:
        sources = source.value if isinstance(source, SequenceNode) else [source]
        out: dict[str, Any] = {}
        for item in reversed(sources):  # earlier mappings take precedence
            if not isinstance(item, MappingNode):
                raise _Stop("syntax", "invalid YAML: map merge requires map or sequence of maps as the value", key)
            out.update(self.build(item, depth + 1))
        return out


# --- the decoding pipeline ------------------------------------------------------------------

_DOC_SEPARATOR = re.compile(r"^---(?=[ \t]|$)", re.MULTILINE)
_LINE_START_BOM = re.compile("^\ufeff", re.MULTILINE)


def decode(
    file: str, text: str, limits: Limits | None = None, *, templates: bool = True
) -> tuple[list[Document], list[DecodeIssue]]:
    """All documents of ``text`` (empty documents dropped) and the defects found on the way.

    Line breaks are normalised first (CRLF and CR count as one line break, as in YAML, so
    positions do not change). A syntax error does not lose the rest of the file: the text is
    split at ``---`` lines and the documents after the broken one are decoded on their own.
    ``templates=False`` reads ``{{ ... }}`` as plain text (dralint's own files quote templates
    in their documentation).
    """
    limits = limits or Limits()
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\ufeff" in text:  # concatenated files keep their byte-order marks at document starts
        text = _LINE_START_BOM.sub("", text)
    # Every document after the first starts with a --- line, so this bounds the count before any
    # decoding; JSON streams are counted once decoded.
    if _too_many(1 + sum(1 for m in _DOC_SEPARATOR.finditer(text) if m.start() > 0), limits):
        return [], [_too_many_documents(limits)]
    documents, issues = _decode_all(file, text, limits)
    # The items of a List (and of a bare YAML list) are objects as good as documents: they count.
    if _too_many(sum(_objects_in(document.data) for document in documents), limits):
        return [], [_too_many_documents(limits)]
    for document in documents:
        document.text = text
    if templates and "{{" in text:
        documents, issues = _drop_templated(text, documents, issues)
    for number, document in enumerate(documents):
        document.index = number
    return documents, issues


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


def _decode_all(file: str, text: str, limits: Limits) -> tuple[list[Document], list[DecodeIssue]]:
    is_json = file.lower().endswith(".json")
    try:
        documents, issues = _decode_yaml(file, text, 0, len(text), 0, limits)
    except ComposeError as error:
        first_issue = error.issue
    else:
        if is_json:
            # Decoded as YAML for the positions, but kubectl decodes a .json file as JSON, which
            # rejects what YAML allows (comments, trailing commas, single quotes, NaN): say so.
            rejected = _decode_json(file, text)[1]
            if rejected is not None:
                issues = sorted([rejected, *issues], key=lambda i: (i.line, i.column))
        return documents, issues
    if is_json or text.lstrip().startswith("{"):
        # kubectl tries a text starting with "{" as a JSON stream first; JSON that YAML rejects
        # (very long keys, some escapes) is decoded here, without positions.
        json_documents, json_issue = _decode_json(file, text)
        if json_issue is None:
            return json_documents, []
        if is_json:
            return [], [json_issue]
    return _recover(file, text, first_issue, limits)


def _recover(
    file: str, text: str, first_issue: DecodeIssue, limits: Limits
) -> tuple[list[Document], list[DecodeIssue]]:
    """Decode each ``---``-separated chunk on its own, keeping the documents of good chunks."""
    documents: list[Document] = []
    issues: list[DecodeIssue] = []
    starts = [0] + [m.start() for m in _DOC_SEPARATOR.finditer(text) if m.start() > 0]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(text)
        line_offset = text.count("\n", 0, start)
        try:
            chunk_docs, chunk_issues = _decode_yaml(file, text, start, end, line_offset, limits)
        except ComposeError as error:
            issues.append(error.issue)
            continue
        documents.extend(chunk_docs)
        issues.extend(chunk_issues)
    if not any(issue.kind in ("syntax", "too-deep") for issue in issues):
        issues.insert(0, first_issue)  # the error only shows when the chunks are parsed together
    return documents, sorted(issues, key=lambda i: (i.line, i.column))


def _decode_yaml(
    file: str, text: str, start: int, end: int, line_offset: int, limits: Limits
) -> tuple[list[Document], list[DecodeIssue]]:
    """The documents of ``text[start:end]`` (which starts at line ``line_offset + 1``)."""
    nodes = compose(text[start:end] if (start, end) != (0, len(text)) else text, line_offset, limits)
    documents: list[Document] = []
    issues: list[DecodeIssue] = []
    for number, node in enumerate(nodes):
        builder = _Builder(limits)
        try:
            data = builder.build(node)
        except _Stop as stop:
            # An alias bomb runs out of budget somewhere inside an anchor: name the document instead.
            mark = (node if stop.kind == "too-large" else stop.node).start_mark
            issues.append(DecodeIssue(stop.kind, stop.message, mark.line + 1 + line_offset, mark.column + 1, stop.hint))
            continue
        except RecursionError:
            mark = node.start_mark
            issues.append(
                DecodeIssue("too-deep", "document nests too deeply", mark.line + 1 + line_offset, mark.column + 1)
            )
            continue
        for key, first, second in builder.duplicates:
            issues.append(DecodeIssue(
                "duplicate-key",
                f"mapping key {key!r} already defined at line {first.start_mark.line + 1 + line_offset}",
                second.start_mark.line + 1 + line_offset, second.start_mark.column + 1,
                hint="the API server rejects duplicate fields; keep one of them",
            ))  # fmt: skip
        if data is None:
            continue  # an empty document (e.g. a trailing ---)
        line = node.start_mark.line + 1 + line_offset
        documents.append(Document(file, len(documents), line, data, node, line_offset, source=(start, end, number)))
    return documents, issues


def _decode_json(file: str, text: str) -> tuple[list[Document], DecodeIssue | None]:
    from dralint.read import json_stream  # only for JSON inputs: most are YAML

    values, issue = json_stream.decode(text)
    return [Document(file, n, line, data) for n, (data, line) in enumerate(values)], issue


# --- templates ------------------------------------------------------------------------------


def _drop_templated(
    text: str, documents: list[Document], issues: list[DecodeIssue]
) -> tuple[list[Document], list[DecodeIssue]]:
    """Unrendered templates are not manifests: report each templated ``---`` chunk once and skip it.

    A chunk is templated when one of its directives is Helm-specific, when it does not parse,
    or when it has more directives than its string values contain (some are YAML structure).
    """
    found = templating.directives(text)
    if not found:
        return documents, issues
    starts = [1] + [text.count("\n", 0, m.start()) + 1 for m in _DOC_SEPARATOR.finditer(text) if m.start() > 0]

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
            hint="render the chart first: helm template ... | dralint check -",
        ))  # fmt: skip
    return kept_docs, sorted(kept_issues, key=lambda i: (i.line, i.column))
