"""Suppression comments: which lines each form covers."""

from __future__ import annotations

import pytest

from dralint.findings import Location
from dralint.rules import builtin_rules
from dralint.suppress.comments import parse
from tests.conftest import FIXTURES

SCOPES = (FIXTURES / "suppress" / "scopes.yaml").read_text(encoding="utf-8")


def _covered(line: int, rule: str) -> list[tuple[int, str | None, str]]:
    directives, problems = parse("scopes.yaml", SCOPES, builtin_rules())
    assert problems == []
    return [(d.location.line, d.rule, d.reason) for d in directives.covering(line, rule)]


@pytest.mark.parametrize(
    ("line", "rule", "expected"),
    [
        (2, "DRA001", [(2, "DRA001", "trailing: this line only")]),
        (3, "DRA001", []),
        (4, "DRA001", []),
        (7, "DRA001", [(4, "DRA001", "standalone: the next code line")]),  # blank and comment lines skipped
        (7, "DRA004", [(4, "DRA004", "standalone: the next code line")]),
        (8, "DRA004", []),
        (19, "DRA006", [(1, "DRA006", "whole file")]),
        (8, "DRA002", []),
        (9, "DRA002", [(9, "DRA002", "block")]),
        (14, "DRA002", [(9, "DRA002", "block")]),
        (15, "DRA002", []),
        (15, "DRA003", [(12, "DRA003", "nested block")]),  # enable[DRA002] leaves DRA003 disabled
        (17, "DRA003", []),
        (19, "DRA005", [(18, "DRA005", "never enabled again")]),
    ],
)
def test_comment_directives_cover_their_lines(line: int, rule: str, expected: list[tuple[int, str, str]]) -> None:
    assert _covered(line, rule) == expected


def test_files_without_directives_are_not_scanned_line_by_line() -> None:
    directives, problems = parse("x.yaml", "a: 1\n# a comment about dralint\n", builtin_rules())
    assert (directives.all(), problems) == ([], [])


def test_hash_inside_a_value_is_not_a_comment() -> None:
    text = 'url: "http://x/#dralint: ignore[DRA001] not a comment"\nkey: a#dralint: ignore[DRA001]\n'
    directives, problems = parse("x.yaml", text, builtin_rules())
    assert (directives.all(), problems) == ([], [])


def test_problems_carry_the_comment_position() -> None:
    _, problems = parse("x.yaml", "a: 1  # dralint: ignore[DRA001,nope]\n", builtin_rules())
    assert [(p.rule, p.message, p.location) for p in problems] == [
        ("DRA803", "suppression comment names unknown rule 'nope'", Location("x.yaml", 1, 7)),
        ("DRA804", "suppression of DRA001 gives no reason", Location("x.yaml", 1, 7)),
    ]


@pytest.mark.parametrize("before", ["", "name: café\n"])  # ASCII text, and text with other characters
def test_a_directive_in_capitals_without_its_colon_is_reported(before: str) -> None:
    _, problems = parse("x.yaml", f"{before}a: 1  # DRALint ignore DRA001 reason\n", builtin_rules())
    line = before.count("\n") + 1
    assert [(p.rule, p.location) for p in problems] == [("DRA802", Location("x.yaml", line, 7))]  # (rules/meta.yaml)
