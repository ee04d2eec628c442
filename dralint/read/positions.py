"""Where each character of a scalar's value sits in the source text.

A finding inside a string (a CEL expression, say) should point at the character, not at the
start of the scalar. The value and the source differ by the scalar's style: quotes and
escapes, folded line breaks, block indentation. Each style is walked here, producing the
source position of every value character; the walk is checked against the parsed value and
abandoned (``None``) when they disagree, so a position is either exact or not given.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["char_positions"]

Position = tuple[int, int]  # 0-based (line, column)

_ESCAPE_LENGTH = {"x": 2, "u": 4, "U": 8}
_BLANK = " \t"


def char_positions(
    lines: Sequence[str], style: str | None, value: str, start: Position, end: Position
) -> list[Position] | None:
    """0-based source positions of every character of ``value``, plus one for the end.

    ``start`` and ``end`` are the scalar's marks from the parser (``end`` exclusive). ``style``
    is the scalar style: ``None``/``""`` plain, ``'`` ``"`` quoted, ``|`` ``>`` block.
    """
    if style in ("|", ">"):
        walked = _block(lines, start, end, folded=style == ">")
        if walked is None:
            return None
        text, positions = walked
        # Chomping only changes trailing line breaks, which have no position of their own.
        if text.rstrip("\n") != value.rstrip("\n"):
            return None
        last = positions[-1] if positions else (start[0] + 1, 0)
        return positions[: len(value.rstrip("\n"))] + [last] * (len(value) - len(value.rstrip("\n")) + 1)
    if style == '"':
        walked = _flow(lines, start, end, quote='"')
    elif style == "'":
        walked = _flow(lines, start, end, quote="'")
    else:
        walked = _flow(lines, start, end, quote="")
    if walked is None or walked[0] != value:
        return None
    return walked[1] + [end]


def _flow(lines: Sequence[str], start: Position, end: Position, *, quote: str) -> tuple[str, list[Position]] | None:
    """Plain and quoted scalars: lines are folded (one break → space, n empty lines → n breaks)."""
    first_line, first_col = start
    last_line, last_col = end
    if last_line >= len(lines) or first_line > last_line:
        return None
    if quote:
        first_col += 1  # opening quote
        last_col -= 1  # closing quote
    out: list[str] = []
    positions: list[Position] = []
    empty_lines = 0
    escaped_break = False
    for number in range(first_line, last_line + 1):
        line = lines[number]
        begin = first_col if number == first_line else 0
        stop = last_col if number == last_line else len(line)
        if stop > len(line):  # marks from another count of lines: no exact position rather than a wrong one
            return None
        if number != first_line:
            while begin < stop and line[begin] in _BLANK:
                begin += 1
        if number != last_line and not (quote == '"' and _ends_with_escape(line[begin:stop])):
            while stop > begin and line[stop - 1] in _BLANK:
                stop -= 1
        if number != first_line:
            if begin == stop and number != last_line:
                empty_lines += 1
                continue
            if not escaped_break:
                separator = "\n" * empty_lines if empty_lines else " "
                anchor = positions[-1] if positions else (number, begin)
                out.append(separator)
                positions.extend([anchor] * len(separator))
            empty_lines = 0
        emitted = _emit(line, number, begin, stop, quote, out, positions)
        if emitted is None:
            return None
        escaped_break = emitted
    return "".join(out), positions


def _ends_with_escape(segment: str) -> bool:
    """Whether a double-quoted line ends with an escaped line break (an odd run of backslashes)."""
    run = len(segment) - len(segment.rstrip("\\"))
    return run % 2 == 1


def _emit(
    line: str, number: int, begin: int, stop: int, quote: str, out: list[str], positions: list[Position]
) -> bool | None:
    """Append the value characters of ``line[begin:stop]``; True when it ends in an escaped break."""
    column = begin
    while column < stop:
        char = line[column]
        if quote == "'" and char == "'" and column + 1 < stop and line[column + 1] == "'":
            out.append("'")
            positions.append((number, column))
            column += 2
            continue
        if quote == '"' and char == "\\":
            if column + 1 >= stop:
                return True  # escaped line break: the next line continues without a separator
            length = _ESCAPE_LENGTH.get(line[column + 1], 0)
            escape = line[column : column + 2 + length]
            decoded = _decode_escape(escape)
            if decoded is None:
                return None
            out.append(decoded)
            positions.append((number, column))
            column += 2 + length
            continue
        out.append(char)
        positions.append((number, column))
        column += 1
    return False


_SIMPLE_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}  # fmt: skip


def _decode_escape(escape: str) -> str | None:
    code = escape[1:2]
    if code in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[code]
    if code in _ESCAPE_LENGTH:
        digits = escape[2:]
        if len(digits) != _ESCAPE_LENGTH[code]:
            return None
        try:
            return chr(int(digits, 16))
        except ValueError:
            return None
    return None


def _block(lines: Sequence[str], start: Position, end: Position, *, folded: bool) -> tuple[str, list[Position]] | None:
    """Literal (``|``) and folded (``>``) scalars: content lines below the header, minus the indentation."""
    header_line = start[0]
    content: list[tuple[int, int, str]] = []  # (line number, indentation, text)
    indent: int | None = None
    for number in range(header_line + 1, min(len(lines), end[0] + 1)):
        line = lines[number]
        stripped = line.lstrip(" ")
        if not stripped.strip():
            content.append((number, min(len(line), indent or len(line)), ""))
            continue
        leading = len(line) - len(stripped)
        if indent is None:
            indent = leading
        elif leading < indent:
            break
        content.append((number, indent, line[indent:]))
    while content and content[-1][2] == "":
        content.pop()  # trailing empty lines only affect chomping
    out: list[str] = []
    positions: list[Position] = []
    previous: str | None = None  # "normal" or "more" (more-indented) for the last content line
    empty_lines = 0
    for number, column, text in content:
        if text == "":
            empty_lines += 1
            continue
        kind = "more" if text[0] in _BLANK else "normal"
        if previous is not None:
            if folded and previous == "normal" and kind == "normal":
                separator = "\n" * empty_lines if empty_lines else " "
            else:
                separator = "\n" * (empty_lines + 1)
            out.append(separator)
            positions.extend([positions[-1]] * len(separator))
        elif empty_lines:
            out.append("\n" * empty_lines)
            positions.extend([(number, column)] * empty_lines)
        empty_lines = 0
        for offset, char in enumerate(text):
            out.append(char)
            positions.append((number, column + offset))
        previous = kind
    return "".join(out), positions
