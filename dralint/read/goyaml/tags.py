"""Directive, anchor, alias and tag tokens, scanned with go-yaml v2's rules."""

from __future__ import annotations

import re

from dralint.read.goyaml.tokens import ALIAS, TAG, TAG_DIRECTIVE, VERSION_DIRECTIVE, ScanState, Token

__all__ = ["scan_anchor", "scan_directive", "scan_tag"]

_ALPHA = re.compile(r"[0-9A-Za-z_-]+")
_URI = re.compile(r"[0-9A-Za-z_\-;/?:@&=+$,.!~*'()\[\]]+")
_DIGITS = re.compile(r"[0-9]*")
_BLANKZ = " \t\0\n\r\x85\u2028\u2029"
_BREAKZ = "\0\n\r\x85\u2028\u2029"
# The length of a UTF-8 sequence from the top five bits of its first octet (0: not a first octet).
_UTF8_WIDTH = {**dict.fromkeys(range(16), 1), **dict.fromkeys(range(24, 28), 2), 28: 3, 29: 3, 30: 4}
_AFTER_ANCHOR = frozenset(_BLANKZ) | frozenset("?:,]}%@`")


def _alpha(scanner: ScanState) -> str:
    match = _ALPHA.match(scanner.buf, scanner.pos)
    if match is None:
        return ""
    scanner.pos += len(match.group())
    scanner.column += len(match.group())
    return match.group()


def scan_anchor(scanner: ScanState, kind: int) -> Token:
    """``&name`` or ``*name``: the name is letters, digits, ``_`` and ``-``, ended by a blank or an indicator."""

    start = scanner.mark
    scanner.skip()
    scanner.reach(1)
    name = _alpha(scanner)
    end = scanner.mark
    if not name or scanner.buf[scanner.pos] not in _AFTER_ANCHOR:
        context = "while scanning an alias" if kind == ALIAS else "while scanning an anchor"
        raise scanner.error(context, start, "did not find expected alphabetic or numeric character")
    return Token(kind, start, end, name)


def scan_tag(scanner: ScanState) -> Token:
    """``!<uri>``, ``!suffix``, ``!!suffix``, ``!handle!suffix`` or a lone ``!``: (handle, suffix)."""

    buf = scanner.buf
    start = scanner.mark
    scanner.reach(2)
    if buf[scanner.pos + 1] == "<":
        scanner.pos += 2
        scanner.column += 2
        handle, suffix = "", _tag_uri(scanner, "", start, directive=False)
        if buf[scanner.pos] != ">":
            raise scanner.error("while scanning a tag", start, "did not find the expected '>'")
        scanner.skip()
    else:
        handle = _tag_handle(scanner, start, directive=False)
        if len(handle) > 1 and handle[0] == "!" and handle[-1] == "!":
            suffix = _tag_uri(scanner, "", start, directive=False)
        else:
            # "!suffix": the handle was the start of the suffix; a lone "!" is the suffix.
            suffix = _tag_uri(scanner, handle, start, directive=False)
            handle = "!"
            if not suffix:
                handle, suffix = "", "!"
    scanner.reach(1)
    if buf[scanner.pos] not in _BLANKZ:
        raise scanner.error("while scanning a tag", start, "did not find expected whitespace or line break")
    return Token(TAG, start, scanner.mark, handle, suffix=suffix)


def _tag_error(scanner: ScanState, start: tuple[int, int, int], problem: str, *, directive: bool) -> Exception:
    return scanner.error("while parsing a %TAG directive" if directive else "while parsing a tag", start, problem)


def _tag_handle(scanner: ScanState, start: tuple[int, int, int], *, directive: bool) -> str:
    scanner.reach(1)
    if scanner.buf[scanner.pos] != "!":
        raise _tag_error(scanner, start, "did not find expected '!'", directive=directive)
    scanner.skip()
    scanner.reach(1)
    handle = "!" + _alpha(scanner)
    if scanner.buf[scanner.pos] == "!":
        scanner.skip()
        return handle + "!"
    if directive and handle != "!":
        raise _tag_error(scanner, start, "did not find expected '!'", directive=directive)
    return handle


def _tag_uri(scanner: ScanState, head: str, start: tuple[int, int, int], *, directive: bool) -> str:
    """A tag's URI characters (``%XX`` escapes decoded), after ``head`` less its leading ``!``."""
    parts = [head[1:]]
    found = bool(head)
    scanner.reach(1)
    while True:
        match = _URI.match(scanner.buf, scanner.pos)
        if match is not None:
            parts.append(match.group())
            scanner.pos += len(match.group())
            scanner.column += len(match.group())
            found = True
        elif scanner.buf[scanner.pos] == "%":
            parts.append(_uri_escapes(scanner, start, directive=directive))
            found = True
        else:
            break
        scanner.reach(1)
    if not found:
        raise _tag_error(scanner, start, "did not find expected tag URI", directive=directive)
    return "".join(parts)


def _uri_escapes(scanner: ScanState, start: tuple[int, int, int], *, directive: bool) -> str:
    """One UTF-8 character written as ``%XX`` escapes."""
    octets = bytearray()
    width = 1024  # not known until the first octet
    while width > 0:
        scanner.reach(3)
        escape = scanner.buf[scanner.pos : scanner.pos + 3]
        if escape[0] != "%" or not all(c in "0123456789abcdefABCDEF" for c in escape[1:]):
            raise _tag_error(scanner, start, "did not find URI escaped octet", directive=directive)
        octet = int(escape[1:], 16)
        if width == 1024:
            width = (
                1 if octet < 0x80 else 2 if octet >> 5 == 6 else 3 if octet >> 4 == 14 else 4 if octet >> 3 == 30 else 0
            )
            if width == 0:
                raise _tag_error(scanner, start, "found an incorrect leading UTF-8 octet", directive=directive)
        elif octet & 0xC0 != 0x80:
            raise _tag_error(scanner, start, "found an incorrect trailing UTF-8 octet", directive=directive)
        octets.append(octet)
        scanner.pos += 3
        scanner.column += 3
        width -= 1
    return octets.decode("utf-8", "replace")


def scan_directive(scanner: ScanState) -> Token:
    """``%YAML major.minor`` or ``%TAG handle prefix`` on a line of its own (a comment may follow)."""

    buf = scanner.buf
    start = scanner.mark
    scanner.skip()
    scanner.reach(1)
    name = _alpha(scanner)
    if not name:
        raise scanner.error("while scanning a directive", start, "could not find expected directive name")
    if buf[scanner.pos] not in _BLANKZ:
        raise scanner.error("while scanning a directive", start, "found unexpected non-alphabetical character")
    if name == "YAML":
        _skip_blanks(scanner)
        major = _version_number(scanner, start)
        if buf[scanner.pos] != ".":
            raise scanner.error(
                "while scanning a %YAML directive", start, "did not find expected digit or '.' character"
            )
        scanner.skip()
        minor = _version_number(scanner, start)
        token = Token(VERSION_DIRECTIVE, start, scanner.mark, f"{major}.{minor}")
    elif name == "TAG":
        _skip_blanks(scanner)
        handle = _tag_handle(scanner, start, directive=True)
        scanner.reach(1)
        if buf[scanner.pos] not in " \t":
            raise scanner.error("while scanning a %TAG directive", start, "did not find expected whitespace")
        _skip_blanks(scanner)
        prefix = _tag_uri(scanner, "", start, directive=True)
        scanner.reach(1)
        if buf[scanner.pos] not in _BLANKZ:
            raise scanner.error(
                "while scanning a %TAG directive", start, "did not find expected whitespace or line break"
            )
        token = Token(TAG_DIRECTIVE, start, scanner.mark, handle, suffix=prefix)
    else:
        raise scanner.error("while scanning a directive", start, "found unknown directive name")
    _skip_blanks(scanner)
    if buf[scanner.pos] == "#":
        while buf[scanner.pos] not in _BREAKZ:
            scanner.skip()
    if buf[scanner.pos] not in _BREAKZ:
        raise scanner.error("while scanning a directive", start, "did not find expected comment or line break")
    if buf[scanner.pos] != "\0":
        scanner.reach(2)
        scanner.skip_line()
    return token


def _skip_blanks(scanner: ScanState) -> None:
    scanner.reach(1)
    while scanner.buf[scanner.pos] in " \t":
        scanner.skip()


def _version_number(scanner: ScanState, start: tuple[int, int, int]) -> int:
    scanner.reach(1)
    digits = _DIGITS.match(scanner.buf, scanner.pos).group()  # type: ignore[union-attr]
    if len(digits) > 2:  # go-yaml stops at the third digit
        scanner.pos += 2
        scanner.column += 2
        raise scanner.error("while scanning a %YAML directive", start, "found extremely long version number")
    if not digits:
        raise scanner.error("while scanning a %YAML directive", start, "did not find expected version number")
    scanner.pos += len(digits)
    scanner.column += len(digits)
    return int(digits)
