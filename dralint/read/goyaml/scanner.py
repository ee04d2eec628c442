"""Tokens of one YAML text, as go-yaml v2's scanner (scannerc.go) makes them, fetched on demand.

The scanner keeps go-yaml's bookkeeping exactly, because the parser's verdict depends on it:
the indentation stack (which inserts BLOCK-*-START and BLOCK-END tokens), the flow level, and
the "simple keys" (a scalar, alias or flow collection that may turn out to be a mapping key
when a ``:`` follows on the same line within 1024 characters). go-yaml checks whether a
simple key expired only when it looks at it (the token at the head of the queue, or the key
of the current level when a ``:`` comes), not before every token as libyaml does.

Tokens are only scanned when the parser asks for them, so text after the end of the first
document is never looked at (go-yaml stops there). Lines are counted as go-yaml counts them:
NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR break lines too. The text must not contain
characters go-yaml's reader refuses (:func:`dralint.read.goyaml.reader.refused_at` finds them);
``limit`` is where the reader would refuse the rest, and reaching it raises the reader's error.
"""

from __future__ import annotations

from dralint.read.goyaml import scalars, tags
from dralint.read.goyaml.errors import GoYamlError, Mark
from dralint.read.goyaml.tokens import (
    ALIAS,
    ANCHOR,
    BLOCK_END,
    BLOCK_ENTRY,
    BLOCK_MAPPING_START,
    BLOCK_SEQUENCE_START,
    DOCUMENT_END,
    DOCUMENT_START,
    FLOW_ENTRY,
    FLOW_MAPPING_END,
    FLOW_MAPPING_START,
    FLOW_SEQUENCE_END,
    FLOW_SEQUENCE_START,
    KEY,
    STREAM_END,
    STREAM_START,
    VALUE,
    Token,
)  # fmt: skip

__all__ = ["BLANKZ", "BREAKS", "Scanner", "SimpleKey"]

BREAKS = "\n\r\x85\u2028\u2029"
BLANKZ = " \t\0" + BREAKS
# Characters that cannot start a plain scalar (unless the rules below the dispatch allow them).
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`") | frozenset(BLANKZ)
_MAX_FLOW_LEVEL = 10_000
_MAX_INDENTS = 10_000
_PAD = "\0" * 8  # go-yaml reads NULs past the end of its buffer


class SimpleKey:
    """A place where a mapping key may start (go-yaml's yaml_simple_key_t)."""

    __slots__ = ("mark", "possible", "required", "token_number")

    def __init__(self, possible: bool, required: bool, token_number: int, mark: Mark) -> None:
        self.possible = possible
        self.required = required
        self.token_number = token_number
        self.mark = mark


class Scanner:
    """go-yaml's scanner state over one text (``limit``: where the reader would refuse it, if anywhere)."""

    def __init__(self, text: str, limit: int | None = None) -> None:
        self.limit = len(text) if limit is None else limit
        self.refused = limit is not None  # the reader refuses the text from ``limit`` on
        self.buf = text[: self.limit] + _PAD
        self.pos = 0
        self.line = 0
        self.column = 0
        self.tokens: list[Token] = []
        self.head = 0
        self.parsed = 0  # tokens handed to the parser so far (go-yaml's tokens_parsed)
        self.token_available = False
        self.stream_start_produced = False
        self.stream_end_produced = False
        self.flow_level = 0
        self.indent = -1
        self.indents: list[int] = []
        self.simple_key_allowed = False
        self.simple_keys: list[SimpleKey] = []
        self.keys_by_token: dict[int, int] = {}  # token number -> level in simple_keys

    # --- position ---------------------------------------------------------------------

    @property
    def mark(self) -> Mark:
        return (self.pos, self.line, self.column)

    def error(self, context: str, context_mark: Mark, problem: str) -> GoYamlError:
        return GoYamlError("scanner", problem, self.mark, context, context_mark)

    def reach(self, length: int) -> None:
        """go-yaml asks its reader for ``length`` characters from here: past the limit, it refuses."""
        if self.refused and self.pos + length > self.limit:
            raise GoYamlError("reader", "control characters are not allowed")

    def skip(self) -> None:
        self.pos += 1
        self.column += 1

    def skip_line(self) -> None:
        """Step over one line break (CR LF counts as one)."""
        if self.buf[self.pos] == "\r" and self.buf[self.pos + 1] == "\n":
            self.pos += 2
        else:
            self.pos += 1
        self.column = 0
        self.line += 1

    # --- the queue ----------------------------------------------------------------------

    def peek(self) -> Token:
        """The token at the head of the queue, scanning as many as needed to know it."""
        if not self.token_available:
            self.fetch_more_tokens()
        return self.tokens[self.head]

    def skip_token(self) -> None:
        self.token_available = False
        self.parsed += 1
        self.stream_end_produced = self.tokens[self.head].kind == STREAM_END
        self.head += 1
        if self.head == len(self.tokens):  # drop what the parser has read (tokens are numbered apart)
            self.tokens.clear()
            self.head = 0

    def insert(self, position: int, token: Token) -> None:
        """Queue ``token`` at the end (``position`` < 0) or ``position`` tokens after the head."""
        if position < 0:
            self.tokens.append(token)
        else:
            self.tokens.insert(self.head + position, token)

    def fetch_more_tokens(self) -> None:
        # The head token may still become a KEY (a token is inserted before it): scan on
        # until that is decided.
        while True:
            if self.head != len(self.tokens):
                level = self.keys_by_token.get(self.parsed)
                if level is None or not self.key_is_valid(self.simple_keys[level]):
                    break
            self.fetch_next_token()
        self.token_available = True

    # --- simple keys --------------------------------------------------------------------

    def key_is_valid(self, key: SimpleKey) -> bool:
        """Whether ``key`` may still be a key; an expired required one is an error."""
        if not key.possible:
            return False
        if key.mark[1] < self.line or key.mark[0] + 1024 < self.pos:
            if key.required:
                raise self.error("while scanning a simple key", key.mark, "could not find expected ':'")
            key.possible = False
            return False
        return True

    def save_simple_key(self) -> None:
        if self.simple_key_allowed:
            required = self.flow_level == 0 and self.indent == self.column
            key = SimpleKey(True, required, self.parsed + len(self.tokens) - self.head, self.mark)
            self.remove_simple_key()
            self.simple_keys[-1] = key
            self.keys_by_token[key.token_number] = len(self.simple_keys) - 1

    def remove_simple_key(self) -> None:
        key = self.simple_keys[-1]
        if key.possible:
            if key.required:
                raise self.error("while scanning a simple key", key.mark, "could not find expected ':'")
            key.possible = False
            self.keys_by_token.pop(key.token_number, None)

    def increase_flow_level(self) -> None:
        self.simple_keys.append(SimpleKey(False, False, self.parsed + len(self.tokens) - self.head, self.mark))
        self.flow_level += 1
        if self.flow_level > _MAX_FLOW_LEVEL:
            raise self.error(
                "while increasing flow level", self.simple_keys[-1].mark, f"exceeded max depth of {_MAX_FLOW_LEVEL}"
            )

    def decrease_flow_level(self) -> None:
        if self.flow_level > 0:
            self.flow_level -= 1
            self.keys_by_token.pop(self.simple_keys.pop().token_number, None)

    # --- indentation --------------------------------------------------------------------

    def roll_indent(self, column: int, number: int, kind: int, mark: Mark) -> None:
        """Open a block collection at ``column`` (its START token goes before token ``number``, or last)."""
        if self.flow_level > 0 or self.indent >= column:
            return
        self.indents.append(self.indent)
        self.indent = column
        if len(self.indents) > _MAX_INDENTS:
            raise self.error(
                "while increasing indent level", self.simple_keys[-1].mark, f"exceeded max depth of {_MAX_INDENTS}"
            )
        self.insert(number - self.parsed if number > -1 else -1, Token(kind, mark, mark))

    def unroll_indent(self, column: int) -> None:
        """Close the block collections indented more than ``column``."""
        if self.flow_level > 0:
            return
        while self.indent > column:
            mark = self.mark
            self.tokens.append(Token(BLOCK_END, mark, mark))
            self.indent = self.indents.pop()

    # --- fetching -----------------------------------------------------------------------

    def fetch_next_token(self) -> None:
        self.reach(1)
        if not self.stream_start_produced:
            self.indent = -1
            self.simple_keys.append(SimpleKey(False, False, 0, self.mark))
            self.simple_key_allowed = True
            self.stream_start_produced = True
            self.tokens.append(Token(STREAM_START, self.mark, self.mark))
            return
        self.scan_to_next_token()
        self.unroll_indent(self.column)
        self.reach(4)
        buf, pos = self.buf, self.pos
        char = buf[pos]
        if char == "\0":
            return self.fetch_stream_end()
        if self.column == 0:
            if char == "%":
                return self.fetch_directive()
            if (char == "-" or char == ".") and buf[pos + 1] == char == buf[pos + 2] and buf[pos + 3] in BLANKZ:
                return self.fetch_document_indicator(DOCUMENT_START if char == "-" else DOCUMENT_END)
        after = buf[pos + 1]
        if char == "[":
            return self.fetch_flow_collection_start(FLOW_SEQUENCE_START)
        if char == "{":
            return self.fetch_flow_collection_start(FLOW_MAPPING_START)
        if char == "]":
            return self.fetch_flow_collection_end(FLOW_SEQUENCE_END)
        if char == "}":
            return self.fetch_flow_collection_end(FLOW_MAPPING_END)
        if char == ",":
            return self.fetch_flow_entry()
        if char == "-" and after in BLANKZ:
            return self.fetch_block_entry()
        if char == "?" and (self.flow_level > 0 or after in BLANKZ):
            return self.fetch_key()
        if char == ":" and (self.flow_level > 0 or after in BLANKZ):
            return self.fetch_value()
        if char == "*" or char == "&":
            self.save_simple_key()
            self.simple_key_allowed = False
            self.tokens.append(tags.scan_anchor(self, ALIAS if char == "*" else ANCHOR))
            return None
        if char == "!":
            self.save_simple_key()
            self.simple_key_allowed = False
            self.tokens.append(tags.scan_tag(self))
            return None
        if (char == "|" or char == ">") and self.flow_level == 0:
            self.remove_simple_key()
            self.simple_key_allowed = True
            self.tokens.append(scalars.scan_block(self, literal=char == "|"))
            return None
        if char == "'" or char == '"':
            self.save_simple_key()
            self.simple_key_allowed = False
            self.tokens.append(scalars.scan_quoted(self, single=char == "'"))
            return None
        if (
            char not in _INDICATORS
            or (char == "-" and after not in " \t")
            or (self.flow_level == 0 and (char == "?" or char == ":") and after not in BLANKZ)
        ):
            self.save_simple_key()
            self.simple_key_allowed = False
            self.tokens.append(scalars.scan_plain(self))
            return None
        raise self.error("while scanning for the next token", self.mark, "found character that cannot start any token")

    def scan_to_next_token(self) -> None:
        """Skip blanks, comments and line breaks (tabs too, where a key cannot start)."""
        buf = self.buf
        while True:
            self.reach(1)
            pos = start = self.pos
            tabs = self.flow_level > 0 or not self.simple_key_allowed
            while buf[pos] == " " or (buf[pos] == "\t" and tabs):
                pos += 1
            if buf[pos] == "#":
                while buf[pos] not in BREAKS and buf[pos] != "\0":
                    pos += 1
            self.pos = pos  # nothing skipped here breaks a line
            self.column += pos - start
            if buf[pos] in BREAKS:
                self.reach(2)
                self.skip_line()
                if self.flow_level == 0:
                    self.simple_key_allowed = True
            else:
                return

    def fetch_stream_end(self) -> None:
        if self.column != 0:  # the stream ends on a line of its own
            self.column = 0
            self.line += 1
        self.unroll_indent(-1)
        self.remove_simple_key()
        self.simple_key_allowed = False
        self.tokens.append(Token(STREAM_END, self.mark, self.mark))

    def fetch_directive(self) -> None:
        self.unroll_indent(-1)
        self.remove_simple_key()
        self.simple_key_allowed = False
        self.tokens.append(tags.scan_directive(self))

    def fetch_document_indicator(self, kind: int) -> None:
        self.unroll_indent(-1)
        self.remove_simple_key()
        self.simple_key_allowed = False
        start = self.mark
        self.pos += 3
        self.column += 3
        self.tokens.append(Token(kind, start, self.mark))

    def _one_character_token(self, kind: int) -> None:
        pos, line, column = self.pos, self.line, self.column
        self.pos = pos + 1
        self.column = column + 1
        self.tokens.append(Token(kind, (pos, line, column), (pos + 1, line, column + 1)))

    def fetch_flow_collection_start(self, kind: int) -> None:
        self.save_simple_key()
        self.increase_flow_level()
        self.simple_key_allowed = True
        self._one_character_token(kind)

    def fetch_flow_collection_end(self, kind: int) -> None:
        self.remove_simple_key()
        self.decrease_flow_level()
        self.simple_key_allowed = False
        self._one_character_token(kind)

    def fetch_flow_entry(self) -> None:
        self.remove_simple_key()
        self.simple_key_allowed = True
        self._one_character_token(FLOW_ENTRY)

    def fetch_block_entry(self) -> None:
        if self.flow_level == 0:
            if not self.simple_key_allowed:
                raise self.error("", self.mark, "block sequence entries are not allowed in this context")
            self.roll_indent(self.column, -1, BLOCK_SEQUENCE_START, self.mark)
        self.remove_simple_key()
        self.simple_key_allowed = True
        self._one_character_token(BLOCK_ENTRY)

    def fetch_key(self) -> None:
        if self.flow_level == 0:
            if not self.simple_key_allowed:
                raise self.error("", self.mark, "mapping keys are not allowed in this context")
            self.roll_indent(self.column, -1, BLOCK_MAPPING_START, self.mark)
        self.remove_simple_key()
        self.simple_key_allowed = self.flow_level == 0
        self._one_character_token(KEY)

    def fetch_value(self) -> None:
        key = self.simple_keys[-1]
        if self.key_is_valid(key):
            # The simple key was a key after all: a KEY token goes before it (and a mapping
            # starts there, in block context).
            self.insert(key.token_number - self.parsed, Token(KEY, key.mark, key.mark))
            self.roll_indent(key.mark[2], key.token_number, BLOCK_MAPPING_START, key.mark)
            key.possible = False
            self.keys_by_token.pop(key.token_number, None)
            self.simple_key_allowed = False
        else:
            if self.flow_level == 0:
                if not self.simple_key_allowed:
                    raise self.error("", self.mark, "mapping values are not allowed in this context")
                self.roll_indent(self.column, -1, BLOCK_MAPPING_START, self.mark)
            self.simple_key_allowed = self.flow_level == 0
        self._one_character_token(VALUE)
