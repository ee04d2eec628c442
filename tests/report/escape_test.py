"""What each output format escapes, and the printable fast path that skips the regular expressions."""

from __future__ import annotations

import re

import pytest

from dralint.report import escape


def _members(characters: str) -> list[str]:
    """The characters of a ``[...]`` set written as single characters and ``a-b`` ranges."""
    body = characters[1:-1]
    out: list[str] = []
    index = 0
    while index < len(body):
        if index + 2 < len(body) and body[index + 1] == "-":
            out.extend(map(chr, range(ord(body[index]), ord(body[index + 2]) + 1)))
            index += 3
        else:
            out.append(body[index])
            index += 1
    return out


@pytest.mark.parametrize("characters", [escape._TERMINAL().pattern, escape._XML().pattern, escape._SURROGATE().pattern])
def test_escaped_characters_are_all_unprintable(characters: str) -> None:
    # for_terminal, for_xml and for_unicode return printable text as it is without a regular expression.
    members = _members(characters)
    assert {c for c in members if re.fullmatch(characters, c)} == set(members)
    assert [c for c in members if c.isprintable()] == []


@pytest.mark.parametrize(
    ("text", "terminal", "xml", "unicode"),
    [
        ("plain text, ünïcödé ✓", "plain text, ünïcödé ✓", "plain text, ünïcödé ✓", "plain text, ünïcödé ✓"),
        ("a\tb\nc\x1b[2J", "a\\tb\\nc\\x1b[2J", "a\tb\nc\\x1b[2J", "a\tb\nc\x1b[2J"),
        (
            "line\u2028sep \x9b \ud800",
            "line\\u2028sep \\x9b \\ud800",
            "line\u2028sep \x9b \\ud800",
            "line\u2028sep \x9b \\ud800",
        ),
        ("\ufffe \xa0 \u200b", "\ufffe \xa0 \u200b", "\\ufffe \xa0 \u200b", "\ufffe \xa0 \u200b"),
    ],
)
def test_escapes_per_format(text: str, terminal: str, xml: str, unicode: str) -> None:
    assert (escape.for_terminal(text), escape.for_xml(text), escape.for_unicode(text)) == (terminal, xml, unicode)
