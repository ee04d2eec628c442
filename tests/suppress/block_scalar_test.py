"""A ``# dralint:`` line inside a scalar value (block, folded, quoted) is data: it suppresses nothing and is not reported."""

from __future__ import annotations

import pickle

import pytest

from dralint.findings import Location
from dralint.read.yamldoc import decode
from dralint.rules import builtin_rules
from dralint.suppress.comments import parse
from dralint.suppress.values import ScalarValues
from testing.run import check
from tests.conftest import FIXTURES

BLOCK_SCALARS = FIXTURES / "suppress" / "block-scalars"
UNSUPPRESSED = [(15, "DRA200", None), (18, "DRA306", None)]


def _seen(name: str) -> list[tuple[int, str, str | None]]:
    """(line, rule, suppression reason) of every finding of the fixture ``name``, suppressed ones included."""
    outcome = check([BLOCK_SCALARS / name])
    return [(f.location.line, f.rule, f.suppressed.reason if f.suppressed else None) for f in outcome.report.findings]


def test_directives_in_a_literal_block_script_are_data() -> None:
    # disable[DRA200], disable[all], an unknown rule and a directive without its colon, all in
    # the script: no suppression, and no DRA802/DRA803/DRA804 about them.
    assert _seen("literal.yaml") == UNSUPPRESSED


def test_directives_in_a_folded_scalar_are_data() -> None:
    assert _seen("folded.yaml") == [(14, "DRA200", None), (17, "DRA306", None)]


def test_directives_in_multi_line_and_one_line_quoted_strings_are_data() -> None:
    assert _seen("quoted.yaml") == [(13, "DRA200", None), (16, "DRA306", None)]


def test_real_comments_next_to_block_scalars_still_suppress() -> None:
    assert _seen("after.yaml") == [
        (13, "DRA200", "less indented than the script: a comment that ends it"),
        (16, "DRA306", "the header comment is a comment"),
        (25, "DRA200", "at column 0 right after the note: a comment"),
        (27, "DRA306", "the header comment is a comment"),
    ]


def _values(text: str, *, pickled: bool = False) -> ScalarValues:
    documents, issues = decode("x.yaml", text)
    assert issues == []
    if pickled:  # as a --jobs worker sends documents back: without their node trees
        documents = pickle.loads(pickle.dumps(documents))
        assert all(d.node is None for d in documents)
    return ScalarValues(documents)


SCRIPT = "a: |  # header\n  x\n  # data\n\n# comment\nb: 'q\n  # data\n  q'  # comment\n---\n- >\n  # data\n# comment\n"


@pytest.mark.parametrize("pickled", [False, True])
def test_scalar_values_tell_data_from_comments(pickled: bool) -> None:
    values = _values(SCRIPT, pickled=pickled)
    hashes = [
        (number, column, line[column:])
        for number, line in enumerate(SCRIPT.split("\n"), start=1)
        for column in range(len(line))
        if line[column] == "#"
    ]
    assert [(line, text) for line, column, text in hashes if values.contains("x.yaml", line, column)] == [
        (3, "# data"),
        (7, "# data"),
        (11, "# data"),
    ]
    assert not values.contains("other.yaml", 3, 2)


def test_the_scanner_skips_data_and_reads_a_comment_later_on_the_line() -> None:
    text = 'a: "x # dralint: ignore[DRA001] data"  # dralint: ignore[DRA002] the comment\nb: 1\n'
    values = _values(text)
    directives, problems = parse(
        "x.yaml", text, builtin_rules(), lambda line, column: values.contains("x.yaml", line, column)
    )
    assert problems == []
    assert [(d.rule, d.reason, d.location) for d in directives.all()] == [
        ("DRA002", "the comment", Location("x.yaml", 1, 40))
    ]


def test_directive_lines_are_numbered_as_yaml_numbers_them() -> None:
    # A form feed is no line break in YAML (str.splitlines breaks there): the findings' line 3 is this 3.
    text = "a: 1  # page\x0cbreak\nb: 2\nc: 3  # dralint: ignore[DRA001] the third line\n"
    directives, _ = parse("x.yaml", text, builtin_rules())
    assert [d.location.line for d in directives.covering(3, "DRA001")] == [3]
