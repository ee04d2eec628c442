"""Decode the text of CEL string and bytes literals (cel-go's ``parser/unescape.go``)."""

from __future__ import annotations

__all__ = ["UnescapeError", "unescape"]


class UnescapeError:
    """Why a literal cannot be decoded, in cel-go's words."""

    def __init__(self, message: str) -> None:
        self.message = message


_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "`": "`",
    "?": "?",
}


def unescape(text: str, *, is_bytes: bool) -> str | UnescapeError:
    """Decode a string literal's token text (cel-go's ``unescape``).

    For bytes the result is a latin-1 string (one character per byte).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    raw = text[0] in "rR"
    if raw:
        text = text[1:]
    triple = len(text) >= 6 and text[:3] in ('"""', "'''")
    body = text[3:-3] if triple else text[1:-1]
    if raw or "\\" not in body:
        return body.encode("utf-8").decode("latin-1") if is_bytes else body
    out: list[str] = []
    index, end = 0, len(body)
    while index < end:
        ch = body[index]
        if ch != "\\":
            out.append(ch.encode("utf-8").decode("latin-1") if is_bytes else ch)
            index += 1
            continue
        if index + 1 >= end:
            return UnescapeError("unable to unescape string, found '\\' as last character")
        kind = body[index + 1]
        index += 2
        if kind in _SIMPLE:
            out.append(_SIMPLE[kind])
            continue
        if kind in "xXuU":
            digits = {"x": 2, "X": 2, "u": 4, "U": 8}[kind]
            if kind in "uU" and is_bytes:
                return UnescapeError("unable to unescape string")
            chunk = body[index : index + digits]
            if len(chunk) < digits or any(c not in "0123456789abcdefABCDEF" for c in chunk):
                return UnescapeError("unable to unescape string")
            index += digits
            code = int(chunk, 16)
            if is_bytes:
                out.append(chr(code))
                continue
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                return UnescapeError("invalid unicode code point")
            out.append(chr(code))
            continue
        if kind in "0123":
            chunk = body[index : index + 2]
            if len(chunk) < 2 or any(c not in "01234567" for c in chunk):
                return UnescapeError("unable to unescape octal sequence in string")
            index += 2
            out.append(chr(int(kind + chunk, 8)))
            continue
        return UnescapeError("unable to unescape string")
    return "".join(out)
