"""Scalar tokens (plain, quoted, block), scanned with go-yaml v2's rules for where they end and how lines fold.

Runs of ordinary characters are consumed with one regular expression each; everything at
their edges (folding, escapes, indentation, the tab and document-marker checks) follows
go-yaml step by step.
"""

from __future__ import annotations

import re

from dralint.read.goyaml.tokens import SCALAR, ScanState, Token

__all__ = ["scan_block", "scan_plain", "scan_quoted"]

_Z = " \t\0\n\r\x85\u2028\u2029"  # blanks, line breaks and the end
_BREAKS = "\n\r\x85\u2028\u2029"
# A plain scalar's characters up to a blank, ": " (or ":" at a line end) and, in flow
# context, any of ",?[]{}" (go-yaml ends it at "?" too; a ":" followed by text stays in it).
_BLOCK_RUN = re.compile(rf"(?:[^{_Z}:]|:(?![{_Z}]))+")
_FLOW_RUN = re.compile(rf"(?:[^{_Z}:,?\[\]{{}}]|:(?![{_Z}]))+")
_SINGLE_RUN = re.compile(rf"[^{_Z}']+")
_DOUBLE_RUN = re.compile(rf'[^{_Z}"\\]+')
_TO_LINE_END = re.compile(r"[^\0\n\r\x85\u2028\u2029]+")
_ESCAPES = {
    "0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "'": "'", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}  # fmt: skip
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_HEX = frozenset("0123456789abcdefABCDEF")


def _read_line(scanner: ScanState) -> str:
    """Consume one line break and return what it stands for in a value ("\\n", or LS/PS as they are)."""
    buf, pos = scanner.buf, scanner.pos
    char = buf[pos]
    if char == "\r" and buf[pos + 1] == "\n":
        scanner.pos += 2
        out = "\n"
    elif char == "\n" or char == "\r" or char == "\x85":
        scanner.pos += 1
        out = "\n"
    elif char == "\u2028" or char == "\u2029":
        scanner.pos += 1
        out = char
    else:
        return ""
    scanner.column = 0
    scanner.line += 1
    return out


def _at_document_marker(scanner: ScanState) -> bool:
    buf, pos = scanner.buf, scanner.pos
    return scanner.column == 0 and buf[pos : pos + 3] in ("---", "...") and buf[pos + 3] in _Z


def scan_plain(scanner: ScanState) -> Token:

    buf = scanner.buf
    run = _FLOW_RUN if scanner.flow_level > 0 else _BLOCK_RUN
    parts: list[str] = []
    leading_break = trailing_breaks = whitespaces = ""
    leading_blanks = False
    indent = scanner.indent + 1
    start = end = scanner.mark
    while True:
        scanner.reach(4)
        if _at_document_marker(scanner) or buf[scanner.pos] == "#":
            break
        match = run.match(buf, scanner.pos)
        if match is not None:
            if leading_blanks:  # fold the line breaks before this run
                if leading_break[0] == "\n":
                    parts.append(trailing_breaks or " ")
                else:
                    parts.append(leading_break + trailing_breaks)
                leading_break = trailing_breaks = ""
                leading_blanks = False
            elif whitespaces:
                parts.append(whitespaces)
                whitespaces = ""
            text = match.group()
            parts.append(text)
            scanner.pos += len(text)
            scanner.column += len(text)
            end = scanner.mark
            scanner.reach(2)
        char = buf[scanner.pos]
        if char != " " and char != "\t" and char not in _BREAKS:
            break
        scanner.reach(1)
        while True:
            char = buf[scanner.pos]
            if char == " " or char == "\t":
                stop = scanner.pos
                while buf[stop] == " " or buf[stop] == "\t":
                    stop += 1
                blanks = buf[scanner.pos : stop]
                if not leading_blanks:
                    whitespaces += blanks
                elif "\t" in blanks and scanner.column + blanks.index("\t") < indent:
                    tab = blanks.index("\t")  # the first tab, where go-yaml stops
                    scanner.pos += tab
                    scanner.column += tab
                    raise scanner.error(
                        "while scanning a plain scalar", start, "found a tab character that violates indentation"
                    )
                scanner.pos += len(blanks)
                scanner.column += len(blanks)
            elif char in _BREAKS:
                scanner.reach(2)
                if not leading_blanks:
                    whitespaces = ""
                    leading_break = _read_line(scanner)
                    leading_blanks = True
                else:
                    trailing_breaks += _read_line(scanner)
            else:
                break
            scanner.reach(1)
        if scanner.flow_level == 0 and scanner.column < indent:
            break
    if leading_blanks:
        scanner.simple_key_allowed = True
    return Token(SCALAR, start, end, "".join(parts))


def scan_quoted(scanner: ScanState, *, single: bool) -> Token:

    buf = scanner.buf
    run = _SINGLE_RUN if single else _DOUBLE_RUN
    quote = "'" if single else '"'
    start = scanner.mark
    scanner.skip()
    parts: list[str] = []
    leading_break = trailing_breaks = whitespaces = ""
    while True:
        scanner.reach(4)
        if _at_document_marker(scanner):
            raise scanner.error("while scanning a quoted scalar", start, "found unexpected document indicator")
        if buf[scanner.pos] == "\0":
            raise scanner.error("while scanning a quoted scalar", start, "found unexpected end of stream")
        leading_blanks = False
        while buf[scanner.pos] not in _Z:
            match = run.match(buf, scanner.pos)
            if match is not None:
                text = match.group()
                parts.append(text)
                scanner.pos += len(text)
                scanner.column += len(text)
                scanner.reach(2)
                continue
            char, after = buf[scanner.pos], buf[scanner.pos + 1]
            if single:  # at a quote
                if after != "'":
                    break
                parts.append("'")
                scanner.pos += 2
                scanner.column += 2
            elif char == '"':
                break
            elif after in _BREAKS:  # an escaped line break joins the lines
                scanner.reach(3)
                scanner.skip()
                scanner.skip_line()
                leading_blanks = True
                break
            else:
                parts.append(_escape(scanner, start))
            scanner.reach(2)
        scanner.reach(1)
        if buf[scanner.pos] == quote:
            break
        while True:
            char = buf[scanner.pos]
            if char == " " or char == "\t":
                if not leading_blanks:
                    whitespaces += char
                scanner.skip()
            elif char in _BREAKS:
                scanner.reach(2)
                if not leading_blanks:
                    whitespaces = ""
                    leading_break = _read_line(scanner)
                    leading_blanks = True
                else:
                    trailing_breaks += _read_line(scanner)
            else:
                break
            scanner.reach(1)
        if leading_blanks:
            if leading_break[:1] == "\n":
                parts.append(trailing_breaks or " ")
            else:
                parts.append(leading_break + trailing_breaks)
            leading_break = trailing_breaks = ""
        else:
            parts.append(whitespaces)
            whitespaces = ""
    scanner.skip()
    return Token(SCALAR, start, scanner.mark, "".join(parts), style=quote)


def _escape(scanner: ScanState, start: tuple[int, int, int]) -> str:
    """The character an escape sequence (at the backslash) stands for; the scanner moves past it."""
    buf = scanner.buf
    code = buf[scanner.pos + 1]
    simple = _ESCAPES.get(code)
    length = _HEX_ESCAPES.get(code, 0)
    if simple is None and not length:
        raise scanner.error("while parsing a quoted scalar", start, "found unknown escape character")
    scanner.pos += 2
    scanner.column += 2
    if simple is not None:
        return simple
    scanner.reach(length)
    digits = buf[scanner.pos : scanner.pos + length]
    if any(digit not in _HEX for digit in digits):
        raise scanner.error("while parsing a quoted scalar", start, "did not find expected hexdecimal number")
    value = int(digits, 16)
    if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
        raise scanner.error("while parsing a quoted scalar", start, "found invalid Unicode character escape code")
    scanner.pos += length
    scanner.column += length
    return chr(value)


def scan_block(scanner: ScanState, *, literal: bool) -> Token:

    buf = scanner.buf
    start = scanner.mark
    scanner.skip()
    scanner.reach(1)
    chomping = increment = 0
    char = buf[scanner.pos]
    if char == "+" or char == "-":
        chomping = 1 if char == "+" else -1
        scanner.skip()
        scanner.reach(1)
        if buf[scanner.pos] in "0123456789":
            increment = _indentation_indicator(scanner, start)
    elif char in "0123456789":
        increment = _indentation_indicator(scanner, start)
        scanner.reach(1)
        char = buf[scanner.pos]
        if char == "+" or char == "-":
            chomping = 1 if char == "+" else -1
            scanner.skip()
    scanner.reach(1)
    while buf[scanner.pos] == " " or buf[scanner.pos] == "\t":
        scanner.skip()
    if buf[scanner.pos] == "#":
        while buf[scanner.pos] not in _BREAKS and buf[scanner.pos] != "\0":
            scanner.skip()
    if buf[scanner.pos] not in _BREAKS and buf[scanner.pos] != "\0":
        raise scanner.error("while scanning a block scalar", start, "did not find expected comment or line break")
    if buf[scanner.pos] in _BREAKS:
        scanner.reach(2)
        scanner.skip_line()
    indent = 0
    if increment:
        indent = scanner.indent + increment if scanner.indent >= 0 else increment
    parts: list[str] = []
    leading_break = ""
    indent, trailing_breaks, end = _scan_breaks(scanner, indent, start)
    scanner.reach(1)
    leading_blank = False
    while scanner.column == indent and buf[scanner.pos] != "\0":
        trailing_blank = buf[scanner.pos] == " " or buf[scanner.pos] == "\t"
        if not literal and not leading_blank and not trailing_blank and leading_break[:1] == "\n":
            if not trailing_breaks:
                parts.append(" ")
        else:
            parts.append(leading_break)
        parts.append(trailing_breaks)
        leading_blank = trailing_blank
        match = _TO_LINE_END.match(buf, scanner.pos)
        if match is not None:
            text = match.group()
            parts.append(text)
            scanner.pos += len(text)
            scanner.column += len(text)
        scanner.reach(2)
        leading_break = _read_line(scanner)
        _, trailing_breaks, end = _scan_breaks(scanner, indent, start)
    if chomping != -1:
        parts.append(leading_break)
    if chomping == 1:
        parts.append(trailing_breaks)
    return Token(SCALAR, start, end, "".join(parts), style="|" if literal else ">")


def _indentation_indicator(scanner: ScanState, start: tuple[int, int, int]) -> int:
    digit = scanner.buf[scanner.pos]
    if digit == "0":
        raise scanner.error("while scanning a block scalar", start, "found an indentation indicator equal to 0")
    scanner.skip()
    return int(digit)


def _scan_breaks(scanner: ScanState, indent: int, start: tuple[int, int, int]) -> tuple[int, str, tuple[int, int, int]]:
    """Consume the indentation and empty lines before a block scalar's next line.

    Returns the indentation (the deepest of the empty lines when it was not known yet, at
    least one more than the parent's), the line breaks consumed, and the scalar's end so far.
    """
    buf = scanner.buf
    end = scanner.mark
    breaks = ""
    max_indent = 0
    while True:
        scanner.reach(1)
        while (indent == 0 or scanner.column < indent) and buf[scanner.pos] == " ":
            scanner.skip()
        if scanner.column > max_indent:
            max_indent = scanner.column
        if (indent == 0 or scanner.column < indent) and buf[scanner.pos] == "\t":
            raise scanner.error(
                "while scanning a block scalar", start, "found a tab character where an indentation space is expected"
            )
        if buf[scanner.pos] not in _BREAKS:
            break
        scanner.reach(2)
        breaks += _read_line(scanner)
        end = scanner.mark
    if indent == 0:
        indent = max(max_indent, scanner.indent + 1, 1)
    return indent, breaks, end
