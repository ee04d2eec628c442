"""Events from tokens: go-yaml v2's parser (parserc.go), the same states in the same order.

The order matters beyond the events themselves: each state peeks exactly the tokens go-yaml
peeks, so the scanner reads exactly as far into the text as go-yaml does (and fails where it
fails, or not at all when the first document ends first).
"""

from __future__ import annotations

from collections.abc import Callable

from dralint.read.goyaml import tokens
from dralint.read.goyaml.errors import GoYamlError, Mark
from dralint.read.goyaml.scanner import Scanner
from dralint.read.goyaml.tokens import Token

__all__ = ["Event", "Parser"]

(
    STREAM_START, STREAM_END, DOCUMENT_START, DOCUMENT_END, ALIAS, SCALAR,
    SEQUENCE_START, SEQUENCE_END, MAPPING_START, MAPPING_END,
) = range(10)  # fmt: skip

_DEFAULT_TAGS = (("!", "!"), ("!!", "tag:yaml.org,2002:"))


class Event:
    """A parser event; ``implicit`` is go-yaml's (plain-)implicit flag, ``style`` the scalar's or collection's."""

    __slots__ = ("anchor", "end", "implicit", "kind", "start", "style", "tag", "value")

    def __init__(
        self,
        kind: int,
        start: Mark,
        end: Mark,
        *,
        anchor: str = "",
        tag: str = "",
        value: str = "",
        implicit: bool = False,
        style: str = "",
    ) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.anchor = anchor
        self.tag = tag
        self.value = value
        self.implicit = implicit
        self.style = style


def _error(problem: str, mark: Mark, context: str = "", context_mark: Mark | None = None) -> GoYamlError:
    return GoYamlError("parser", problem, mark, context, context_mark)


class Parser:
    """go-yaml's parser over one text; :meth:`next` returns its events one at a time."""

    def __init__(self, scanner: Scanner) -> None:
        self.scanner = scanner
        self.state: Callable[[], Event] = self._stream_start
        self.states: list[Callable[[], Event]] = []
        self.marks: list[Mark] = []
        self.tag_directives: list[tuple[str, str]] = []
        self.done = False

    def next(self) -> Event:
        return self.state()

    def _pop_state(self) -> None:
        self.state = self.states.pop()

    # --- stream and documents ---------------------------------------------------------

    def _stream_start(self) -> Event:
        token = self.scanner.peek()
        if token.kind != tokens.STREAM_START:
            raise _error("did not find expected <stream-start>", token.start)
        self.state = self._implicit_document_start
        self.scanner.skip_token()
        return Event(STREAM_START, token.start, token.end)

    def _implicit_document_start(self) -> Event:
        return self._document_start(implicit=True)

    def _explicit_document_start(self) -> Event:
        return self._document_start(implicit=False)

    def _document_start(self, *, implicit: bool) -> Event:
        token = self.scanner.peek()
        if not implicit:
            while token.kind == tokens.DOCUMENT_END:
                self.scanner.skip_token()
                token = self.scanner.peek()
        if implicit and token.kind not in (
            tokens.VERSION_DIRECTIVE, tokens.TAG_DIRECTIVE, tokens.DOCUMENT_START, tokens.STREAM_END
        ):  # fmt: skip
            self._process_directives()
            self.states.append(self._document_end)
            self.state = self._block_node
            return Event(DOCUMENT_START, token.start, token.end)
        if token.kind != tokens.STREAM_END:
            start = token.start
            self._process_directives()
            token = self.scanner.peek()
            if token.kind != tokens.DOCUMENT_START:
                raise _error("did not find expected <document start>", token.start)
            self.states.append(self._document_end)
            self.state = self._document_content
            self.scanner.skip_token()
            return Event(DOCUMENT_START, start, token.end)
        self.done = True
        self.scanner.skip_token()
        return Event(STREAM_END, token.start, token.end)

    def _document_content(self) -> Event:
        token = self.scanner.peek()
        if token.kind in (
            tokens.VERSION_DIRECTIVE, tokens.TAG_DIRECTIVE, tokens.DOCUMENT_START, tokens.DOCUMENT_END,
            tokens.STREAM_END,
        ):  # fmt: skip
            self._pop_state()
            return _empty_scalar(token.start)
        return self._parse_node(block=True, indentless_sequence=False)

    def _document_end(self) -> Event:
        token = self.scanner.peek()
        start = end = token.start
        if token.kind == tokens.DOCUMENT_END:
            end = token.end
            self.scanner.skip_token()
        self.tag_directives = []
        self.state = self._explicit_document_start
        return Event(DOCUMENT_END, start, end)

    def _process_directives(self) -> None:
        token = self.scanner.peek()
        version_seen = False
        while token.kind in (tokens.VERSION_DIRECTIVE, tokens.TAG_DIRECTIVE):
            if token.kind == tokens.VERSION_DIRECTIVE:
                if version_seen:
                    raise _error("found duplicate %YAML directive", token.start)
                if token.value != "1.1":
                    raise _error("found incompatible YAML document", token.start)
                version_seen = True
            else:
                self._append_tag_directive(token.value, token.suffix, token.start, allow_duplicates=False)
            self.scanner.skip_token()
            token = self.scanner.peek()
        for handle, prefix in _DEFAULT_TAGS:
            self._append_tag_directive(handle, prefix, token.start, allow_duplicates=True)

    def _append_tag_directive(self, handle: str, prefix: str, mark: Mark, *, allow_duplicates: bool) -> None:
        if any(known == handle for known, _ in self.tag_directives):
            if allow_duplicates:
                return
            raise _error("found duplicate %TAG directive", mark)
        self.tag_directives.append((handle, prefix))

    # --- nodes ------------------------------------------------------------------------

    def _block_node(self) -> Event:
        return self._parse_node(block=True, indentless_sequence=False)

    def _block_node_or_indentless_sequence(self) -> Event:
        return self._parse_node(block=True, indentless_sequence=True)

    def _flow_node(self) -> Event:
        return self._parse_node(block=False, indentless_sequence=False)

    def _parse_node(self, *, block: bool, indentless_sequence: bool) -> Event:
        token = self.scanner.peek()
        if token.kind == tokens.ALIAS:
            self._pop_state()
            self.scanner.skip_token()
            return Event(ALIAS, token.start, token.end, anchor=token.value)
        start = end = token.start
        anchor = ""
        tag_token: Token | None = None
        if token.kind == tokens.ANCHOR:
            anchor, start, end = token.value, token.start, token.end
            self.scanner.skip_token()
            token = self.scanner.peek()
            if token.kind == tokens.TAG:
                tag_token, end = token, token.end
                self.scanner.skip_token()
                token = self.scanner.peek()
        elif token.kind == tokens.TAG:
            tag_token, start, end = token, token.start, token.end
            self.scanner.skip_token()
            token = self.scanner.peek()
            if token.kind == tokens.ANCHOR:
                anchor, end = token.value, token.end
                self.scanner.skip_token()
                token = self.scanner.peek()
        tag = ""
        if tag_token is not None:
            if not tag_token.value:
                tag = tag_token.suffix
            else:
                prefix = next((p for handle, p in self.tag_directives if handle == tag_token.value), None)
                tag = prefix + tag_token.suffix if prefix is not None else ""
                if not tag:
                    raise _error("found undefined tag handle", tag_token.start, "while parsing a node", start)
        implicit = not tag
        kind = token.kind
        if indentless_sequence and kind == tokens.BLOCK_ENTRY:
            self.state = self._indentless_sequence_entry
            return Event(SEQUENCE_START, start, token.end, anchor=anchor, tag=tag, implicit=implicit, style="block")
        if kind == tokens.SCALAR:
            # A plain scalar, or any scalar tagged only "!", is resolved from its text.
            plain_implicit = (not tag and token.style == "") or tag == "!"
            self._pop_state()
            self.scanner.skip_token()
            return Event(
                SCALAR, start, token.end, anchor=anchor, tag=tag, value=token.value, implicit=plain_implicit,
                style=token.style,
            )  # fmt: skip
        if kind == tokens.FLOW_SEQUENCE_START:
            self.state = self._flow_sequence_first_entry
            return Event(SEQUENCE_START, start, token.end, anchor=anchor, tag=tag, implicit=implicit, style="flow")
        if kind == tokens.FLOW_MAPPING_START:
            self.state = self._flow_mapping_first_key
            return Event(MAPPING_START, start, token.end, anchor=anchor, tag=tag, implicit=implicit, style="flow")
        if block and kind == tokens.BLOCK_SEQUENCE_START:
            self.state = self._block_sequence_first_entry
            return Event(SEQUENCE_START, start, token.end, anchor=anchor, tag=tag, implicit=implicit, style="block")
        if block and kind == tokens.BLOCK_MAPPING_START:
            self.state = self._block_mapping_first_key
            return Event(MAPPING_START, start, token.end, anchor=anchor, tag=tag, implicit=implicit, style="block")
        if anchor or tag:  # an anchor or tag before nothing: an empty scalar
            self._pop_state()
            return Event(SCALAR, start, end, anchor=anchor, tag=tag, implicit=implicit)
        context = "while parsing a block node" if block else "while parsing a flow node"
        raise _error("did not find expected node content", token.start, context, start)

    # --- block collections ------------------------------------------------------------

    def _block_sequence_first_entry(self) -> Event:
        self.marks.append(self.scanner.peek().start)
        self.scanner.skip_token()
        return self._block_sequence_entry()

    def _block_sequence_entry(self) -> Event:
        token = self.scanner.peek()
        if token.kind == tokens.BLOCK_ENTRY:
            mark = token.end
            self.scanner.skip_token()
            token = self.scanner.peek()
            if token.kind not in (tokens.BLOCK_ENTRY, tokens.BLOCK_END):
                self.states.append(self._block_sequence_entry)
                return self._parse_node(block=True, indentless_sequence=False)
            self.state = self._block_sequence_entry
            return _empty_scalar(mark)
        if token.kind == tokens.BLOCK_END:
            self._pop_state()
            self.marks.pop()
            self.scanner.skip_token()
            return Event(SEQUENCE_END, token.start, token.end)
        raise _error(
            "did not find expected '-' indicator", token.start, "while parsing a block collection", self.marks.pop()
        )

    def _indentless_sequence_entry(self) -> Event:
        token = self.scanner.peek()
        if token.kind == tokens.BLOCK_ENTRY:
            mark = token.end
            self.scanner.skip_token()
            token = self.scanner.peek()
            if token.kind not in (tokens.BLOCK_ENTRY, tokens.KEY, tokens.VALUE, tokens.BLOCK_END):
                self.states.append(self._indentless_sequence_entry)
                return self._parse_node(block=True, indentless_sequence=False)
            self.state = self._indentless_sequence_entry
            return _empty_scalar(mark)
        self._pop_state()
        return Event(SEQUENCE_END, token.start, token.start)

    def _block_mapping_first_key(self) -> Event:
        self.marks.append(self.scanner.peek().start)
        self.scanner.skip_token()
        return self._block_mapping_key()

    def _block_mapping_key(self) -> Event:
        token = self.scanner.peek()
        if token.kind == tokens.KEY:
            mark = token.end
            self.scanner.skip_token()
            token = self.scanner.peek()
            if token.kind not in (tokens.KEY, tokens.VALUE, tokens.BLOCK_END):
                self.states.append(self._block_mapping_value)
                return self._parse_node(block=True, indentless_sequence=True)
            self.state = self._block_mapping_value
            return _empty_scalar(mark)
        if token.kind == tokens.BLOCK_END:
            self._pop_state()
            self.marks.pop()
            self.scanner.skip_token()
            return Event(MAPPING_END, token.start, token.end)
        raise _error("did not find expected key", token.start, "while parsing a block mapping", self.marks.pop())

    def _block_mapping_value(self) -> Event:
        token = self.scanner.peek()
        if token.kind == tokens.VALUE:
            mark = token.end
            self.scanner.skip_token()
            token = self.scanner.peek()
            if token.kind not in (tokens.KEY, tokens.VALUE, tokens.BLOCK_END):
                self.states.append(self._block_mapping_key)
                return self._parse_node(block=True, indentless_sequence=True)
            self.state = self._block_mapping_key
            return _empty_scalar(mark)
        self.state = self._block_mapping_key
        return _empty_scalar(token.start)

    # --- flow collections -------------------------------------------------------------

    def _flow_sequence_first_entry(self) -> Event:
        self.marks.append(self.scanner.peek().start)
        self.scanner.skip_token()
        return self._flow_sequence_entry(first=True)

    def _flow_sequence_next_entry(self) -> Event:
        return self._flow_sequence_entry(first=False)

    def _flow_sequence_entry(self, *, first: bool) -> Event:
        token = self.scanner.peek()
        if token.kind != tokens.FLOW_SEQUENCE_END:
            if not first:
                if token.kind != tokens.FLOW_ENTRY:
                    raise _error(
                        "did not find expected ',' or ']'",
                        token.start,
                        "while parsing a flow sequence",
                        self.marks.pop(),
                    )
                self.scanner.skip_token()
                token = self.scanner.peek()
            if token.kind == tokens.KEY:  # "[a: b]": a single-pair mapping as the item
                self.state = self._flow_sequence_entry_mapping_key
                self.scanner.skip_token()
                return Event(MAPPING_START, token.start, token.end, implicit=True, style="flow")
            if token.kind != tokens.FLOW_SEQUENCE_END:
                self.states.append(self._flow_sequence_next_entry)
                return self._flow_node()
        self._pop_state()
        self.marks.pop()
        self.scanner.skip_token()
        return Event(SEQUENCE_END, token.start, token.end)

    def _flow_sequence_entry_mapping_key(self) -> Event:
        token = self.scanner.peek()
        if token.kind not in (tokens.VALUE, tokens.FLOW_ENTRY, tokens.FLOW_SEQUENCE_END):
            self.states.append(self._flow_sequence_entry_mapping_value)
            return self._flow_node()
        mark = token.end
        self.scanner.skip_token()
        self.state = self._flow_sequence_entry_mapping_value
        return _empty_scalar(mark)

    def _flow_sequence_entry_mapping_value(self) -> Event:
        token = self.scanner.peek()
        if token.kind == tokens.VALUE:
            self.scanner.skip_token()
            token = self.scanner.peek()
            if token.kind not in (tokens.FLOW_ENTRY, tokens.FLOW_SEQUENCE_END):
                self.states.append(self._flow_sequence_entry_mapping_end)
                return self._flow_node()
        self.state = self._flow_sequence_entry_mapping_end
        return _empty_scalar(token.start)

    def _flow_sequence_entry_mapping_end(self) -> Event:
        token = self.scanner.peek()
        self.state = self._flow_sequence_next_entry
        return Event(MAPPING_END, token.start, token.start)

    def _flow_mapping_first_key(self) -> Event:
        self.marks.append(self.scanner.peek().start)
        self.scanner.skip_token()
        return self._flow_mapping_key(first=True)

    def _flow_mapping_next_key(self) -> Event:
        return self._flow_mapping_key(first=False)

    def _flow_mapping_key(self, *, first: bool) -> Event:
        token = self.scanner.peek()
        if token.kind != tokens.FLOW_MAPPING_END:
            if not first:
                if token.kind != tokens.FLOW_ENTRY:
                    raise _error(
                        "did not find expected ',' or '}'",
                        token.start,
                        "while parsing a flow mapping",
                        self.marks.pop(),
                    )
                self.scanner.skip_token()
                token = self.scanner.peek()
            if token.kind == tokens.KEY:
                self.scanner.skip_token()
                token = self.scanner.peek()
                if token.kind not in (tokens.VALUE, tokens.FLOW_ENTRY, tokens.FLOW_MAPPING_END):
                    self.states.append(self._flow_mapping_value)
                    return self._flow_node()
                self.state = self._flow_mapping_value
                return _empty_scalar(token.start)
            if token.kind != tokens.FLOW_MAPPING_END:
                self.states.append(self._flow_mapping_empty_value)
                return self._flow_node()
        self._pop_state()
        self.marks.pop()
        self.scanner.skip_token()
        return Event(MAPPING_END, token.start, token.end)

    def _flow_mapping_value(self) -> Event:
        token = self.scanner.peek()
        if token.kind == tokens.VALUE:
            self.scanner.skip_token()
            token = self.scanner.peek()
            if token.kind not in (tokens.FLOW_ENTRY, tokens.FLOW_MAPPING_END):
                self.states.append(self._flow_mapping_next_key)
                return self._flow_node()
        self.state = self._flow_mapping_next_key
        return _empty_scalar(token.start)

    def _flow_mapping_empty_value(self) -> Event:
        token = self.scanner.peek()
        self.state = self._flow_mapping_next_key
        return _empty_scalar(token.start)


def _empty_scalar(mark: Mark) -> Event:
    return Event(SCALAR, mark, mark, implicit=True)
