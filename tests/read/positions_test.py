"""Positions of characters inside scalars (dralint/read/positions.py).

The styles met in manifests are covered end to end in tests/yamldoc_test.py; these are the
edges: a walk that cannot be matched must give no position rather than a wrong one.
"""

from __future__ import annotations

from dralint.read.positions import char_positions


def test_plain_single_line() -> None:
    lines = ["key: abc"]
    assert char_positions(lines, "", "abc", (0, 5), (0, 8)) == [(0, 5), (0, 6), (0, 7), (0, 8)]


def test_plain_multiline_with_empty_line_keeps_the_break() -> None:
    lines = ["key: one", "", "  two"]
    positions = char_positions(lines, None, "one\ntwo", (0, 5), (2, 5))
    assert positions == [(0, 5), (0, 6), (0, 7), (0, 7), (2, 2), (2, 3), (2, 4), (2, 5)]


def test_double_quoted_hex_and_unicode_escapes() -> None:
    lines = ['k: "a\\x41\\u00e9b"']
    positions = char_positions(lines, '"', "aAéb", (0, 3), (0, 17))
    assert positions == [(0, 4), (0, 5), (0, 9), (0, 15), (0, 17)]


def test_literal_block_with_leading_empty_line() -> None:
    lines = ["k: |", "", "  text", "next: 1"]
    positions = char_positions(lines, "|", "\ntext\n", (0, 3), (3, 0))
    assert positions is not None
    assert positions[1] == (2, 2)


def test_folded_block_keeps_more_indented_lines() -> None:
    lines = ["k: >", "  a", "    b", "  c"]
    positions = char_positions(lines, ">", "a\n  b\nc\n", (0, 3), (4, 0))
    assert positions is not None
    assert positions[4] == (2, 4)  # "b"
    assert positions[6] == (3, 2)  # "c"


def test_mismatch_gives_no_position() -> None:
    lines = ['k: "abc"']
    assert char_positions(lines, '"', "abd", (0, 3), (0, 8)) is None
    assert char_positions(lines, '"', "abc", (5, 3), (5, 8)) is None  # marks outside the text
    assert char_positions(['k: "\\q"'], '"', "q", (0, 3), (0, 7)) is None  # not a YAML escape
