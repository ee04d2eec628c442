"""What input text may not carry into an output: the one place that makes reports safe to print.

Names, values and paths in findings come from untrusted manifests and file names. Printed raw,
an escape sequence reaches the terminal (OSC, clear-screen), a newline forges a whole finding
line, and a lone surrogate (``"\\udcff"`` in JSON) cannot be encoded as UTF-8 at all. Each
output format names the treatment it needs (``ESCAPES``); the report registries apply it to
every string of a finished report before the format renders it, so no rule or renderer has to.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any, TypeVar

from dralint.regex import compiled_on_first_use

__all__ = ["MAX_MESSAGE", "bounded", "for_terminal", "for_unicode", "for_xml", "strings"]

T = TypeVar("T")

# C0 controls (tab and newline included: they break the one-line-per-finding format), DEL, C1
# controls (0x9b is a one-byte CSI on some terminals), the Unicode line and paragraph
# separators, and lone surrogates.
_TERMINAL = compiled_on_first_use("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# XML 1.0 allows only tab, newline and carriage return below U+0020, and no surrogates, U+FFFE, U+FFFF.
_XML = compiled_on_first_use("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SURROGATE = compiled_on_first_use("[\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

# Characters of a finding's message, of its hint, and of an error line; longer ones are cut,
# saying so: a value echoed from the input (a 100,000-character rule id) must not make the
# line unreadable.
MAX_MESSAGE = 1_000


def bounded(message: str) -> str:
    """``message`` cut to :data:`MAX_MESSAGE` characters: a finding or an error is one readable line,
    however much a check had to say or a user wrote (checks keep their own texts short; this is the guarantee)."""
    if len(message) <= MAX_MESSAGE:
        return message
    marker = f" … (cut from {len(message)} characters)"
    return message[: MAX_MESSAGE - len(marker)] + marker


# Every character of the three sets is one str.isprintable() refuses (Unicode categories Cc, Cs,
# Zl, Zp and the non-characters U+FFFE, U+FFFF), so printable text has nothing to escape: almost
# all text, which then costs no regular expression (compiling the three costs more than a
# one-file check escapes).


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _escaped(text: str, characters: Callable[[], re.Pattern[str]]) -> str:
    if text.isprintable():
        return text
    pattern = characters()
    return pattern.sub(_visible, text) if pattern.search(text) else text


def for_terminal(text: str) -> str:
    """``text`` with control characters, line separators and lone surrogates written as ``\\x1b``, ``\\n``."""
    return _escaped(text, _TERMINAL)


def for_xml(text: str) -> str:
    """``text`` with the characters XML 1.0 cannot hold written as ``\\x1b`` (tab and newline stay)."""
    return _escaped(text, _XML)


def for_unicode(text: str) -> str:
    """``text`` with lone surrogates written as ``\\udcff``: what any UTF-8 output needs (JSON escapes the rest)."""
    return _escaped(text, _SURROGATE)


def strings(value: T, escape: Callable[[str], str]) -> T:
    """``value`` with ``escape`` applied to every string in it (dataclasses, tuples, lists, dicts).

    Unchanged parts are returned as they are, so a clean report costs one scan of its text.
    """
    return _walk(value, escape)  # type: ignore[no-any-return]


# Values with nothing inside to escape, and each dataclass's fields, looked up once per class:
# a report is thousands of small values.
_ATOMS = frozenset({int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _walk(value: Any, escape: Callable[[str], str]) -> Any:
    kind = value.__class__
    if kind in _ATOMS:
        return value
    if kind is str or isinstance(value, str):
        return escape(value)
    if isinstance(value, tuple):
        items = tuple(_walk(item, escape) for item in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if isinstance(value, list):
        return [_walk(item, escape) for item in value]
    if isinstance(value, dict):
        return {_walk(k, escape): _walk(v, escape) for k, v in value.items()}
    if kind not in _FIELDS:
        _FIELDS[kind] = _init_fields(kind)
    names = _FIELDS[kind]
    if names is None:
        return value
    changes = {}
    for name in names:
        old = getattr(value, name)
        new = _walk(old, escape)
        if new is not old:
            changes[name] = new
    return dataclasses.replace(value, **changes) if changes else value


def _init_fields(kind: type) -> tuple[str, ...] | None:
    """The fields ``dataclasses.replace`` takes, or ``None`` for a class that is not a dataclass."""
    if not dataclasses.is_dataclass(kind):
        return None
    return tuple(f.name for f in dataclasses.fields(kind) if f.init)
