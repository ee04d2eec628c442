"""Split a CEL expression into tokens the way cel-go's ANTLR lexer does (CEL.g4), errors included.

Offsets are code-point indices into the expression (cel-go's locations count runes). A character
no token can start with, or a malformed string, is a lexer error reported with ANTLR's text
(``token recognition error at: '...'``); like ANTLR, lexing resumes after the offending character.
"""

from __future__ import annotations

from dralint.dataclass import dataclass

__all__ = ["LexError", "Token", "tokenize"]

# Two-character operators first so that the longest match wins.
_OPERATORS2 = ("==", "!=", "<=", ">=", "&&", "||")
_OPERATORS1 = frozenset("<>[]{}().,-!?:+*/%")
_KEYWORDS = frozenset(("in", "true", "false", "null"))
_WHITESPACE = frozenset("\t \r\n\f")
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")
_IDENT_CHARS = _LETTERS | _DIGITS
_ESC_IDENT_CHARS = _IDENT_CHARS | frozenset(".-/ ")
_SIMPLE_ESCAPES = frozenset("abfnrtv\"'\\?`")


@dataclass(frozen=True, slots=True)
class Token:
    """``kind`` is the literal text for operators and keywords, else NUM_INT, STRING, IDENTIFIER, ..."""

    kind: str
    text: str
    start: int

    def display(self) -> str:
        """How ANTLR quotes the token in syntax errors."""
        return "'<EOF>'" if self.kind == "EOF" else "'" + self.text.replace("\n", "\\n") + "'"


@dataclass(frozen=True, slots=True)
class LexError:
    offset: int
    text: str  # the characters ANTLR could not turn into a token, offending one included


def tokenize(source: str) -> tuple[list[Token], list[LexError]]:
    """All tokens of ``source`` (ending with an EOF token) and the lexer errors met on the way."""
    tokens: list[Token] = []
    errors: list[LexError] = []
    pos, end = 0, len(source)
    while pos < end:
        ch = source[pos]
        if ch in _WHITESPACE:
            pos += 1
            continue
        if source.startswith("//", pos):
            newline = source.find("\n", pos)
            pos = end if newline < 0 else newline
            continue
        kind, stop, failed = _scan(source, pos)
        if failed:
            # ANTLR reports the text up to and including the offending character, then skips it.
            errors.append(LexError(pos, source[pos : stop + 1]))
            pos = stop + 1
            continue
        tokens.append(Token(kind, source[pos:stop], pos))
        pos = stop
    tokens.append(Token("EOF", "<EOF>", end))
    return tokens, errors


def _scan(source: str, pos: int) -> tuple[str, int, bool]:
    """(kind, end offset, failed) of the longest token starting at ``pos``."""
    ch = source[pos]
    two = source[pos : pos + 2]
    if two in _OPERATORS2:
        return two, pos + 2, False
    if ch in _DIGITS or (ch == "." and source[pos + 1 : pos + 2] in _DIGITS and pos + 1 < len(source)):
        return _scan_number(source, pos)
    if ch in _OPERATORS1:
        return ch, pos + 1, False
    if ch in "\"'":
        stop, failed = _scan_string(source, pos, raw=False)
        return "STRING", stop, failed
    if ch in _LETTERS:
        return _scan_word(source, pos)
    if ch == "`":
        stop = pos + 1
        while stop < len(source) and source[stop] in _ESC_IDENT_CHARS:
            stop += 1
        if stop > pos + 1 and stop < len(source) and source[stop] == "`":
            return "ESC_IDENTIFIER", stop + 1, False
        return "", stop, True
    return "", pos, True


def _scan_word(source: str, pos: int) -> tuple[str, int, bool]:
    ch = source[pos]
    nxt = source[pos + 1 : pos + 2]
    # String prefixes: r"..", b"..", br"..", Br'..' (but not rb"..": that is an identifier and a string).
    if ch in "rR" and nxt in ('"', "'"):
        stop, failed = _scan_string(source, pos + 1, raw=True)
        return "STRING", stop, failed
    if ch in "bB":
        if nxt in ('"', "'"):
            stop, failed = _scan_string(source, pos + 1, raw=False)
            return "BYTES", stop, failed
        if nxt in ("r", "R") and source[pos + 2 : pos + 3] in ('"', "'") and pos + 2 < len(source):
            stop, failed = _scan_string(source, pos + 2, raw=True)
            return "BYTES", stop, failed
    stop = pos + 1
    while stop < len(source) and source[stop] in _IDENT_CHARS:
        stop += 1
    word = source[pos:stop]
    return (word if word in _KEYWORDS else "IDENTIFIER"), stop, False


def _scan_number(source: str, pos: int) -> tuple[str, int, bool]:
    end = len(source)
    # The grammar only knows a lower-case 0x prefix.
    if source.startswith("0x", pos) and pos + 2 < end and source[pos + 2] in _HEX:
        stop = pos + 2
        while stop < end and source[stop] in _HEX:
            stop += 1
        if stop < end and source[stop] in "uU":
            return "NUM_UINT", stop + 1, False
        return "NUM_INT", stop, False
    stop = pos
    while stop < end and source[stop] in _DIGITS:
        stop += 1
    is_float = False
    if stop < end and source[stop] == "." and stop + 1 < end and source[stop + 1] in _DIGITS:
        stop += 1
        while stop < end and source[stop] in _DIGITS:
            stop += 1
        is_float = True
    exponent = _exponent_end(source, stop)
    if exponent is not None:
        return "NUM_FLOAT", exponent, False
    if is_float:
        return "NUM_FLOAT", stop, False
    if stop < end and source[stop] in "uU":
        return "NUM_UINT", stop + 1, False
    return "NUM_INT", stop, False


def _exponent_end(source: str, pos: int) -> int | None:
    end = len(source)
    if pos >= end or source[pos] not in "eE":
        return None
    stop = pos + 1
    if stop < end and source[stop] in "+-":
        stop += 1
    if stop >= end or source[stop] not in _DIGITS:
        return None
    while stop < end and source[stop] in _DIGITS:
        stop += 1
    return stop


def _scan_string(source: str, pos: int, *, raw: bool) -> tuple[int, bool]:
    """End offset of the string literal whose opening quote is at ``pos``, and whether it failed.

    On failure the offset is that of the offending character (or the end of input).
    """
    end = len(source)
    quote = source[pos]
    triple = source[pos : pos + 3] == quote * 3
    if triple:
        closing = quote * 3
        index = pos + 3
        while index < end:
            if source.startswith(closing, index):
                return index + 3, False
            if source[index] == "\\" and not raw:
                bad = _escape_end(source, index)
                if bad < 0:
                    break
                index = bad
                continue
            index += 1
        # Unterminated: ANTLR falls back to its longest accepted prefix, the empty string "".
        return pos + 2, False
    index = pos + 1
    while index < end:
        ch = source[index]
        if ch == quote:
            return index + 1, False
        if ch in "\r\n":
            return index, True
        if ch == "\\" and not raw:
            bad = _escape_end(source, index)
            if bad < 0:
                return -bad, True
            index = bad
            continue
        index += 1
    return end, True


def _escape_end(source: str, index: int) -> int:
    """Offset after the escape sequence at ``index``, or minus the offset of its offending character."""
    end = len(source)
    kind = source[index + 1 : index + 2]
    if not kind:
        return -end
    if kind in _SIMPLE_ESCAPES:
        return index + 2
    if kind in "0123":
        for step in (2, 3):
            if index + step >= end or source[index + step] not in "01234567":
                return -min(index + step, end)
        return index + 4
    digits = {"x": 2, "X": 2, "u": 4, "U": 8}.get(kind)
    if digits is None:
        return -(index + 1)
    for step in range(2, 2 + digits):
        if index + step >= end or source[index + step] not in _HEX:
            return -min(index + step, end)
    return index + 2 + digits
