from __future__ import annotations

from dralint.findings import Replacement
from dralint.lsp.actions import Edit, replacement, suppression
from dralint.read.yamldoc import Document, decode
from testing.run import ROOT

BLOCK = ROOT / "tests" / "fixtures" / "lsp" / "actions" / "block.yaml"


def _lines_and_documents() -> tuple[list[str], list[Document]]:
    text = BLOCK.read_text()
    documents, issues = decode("block.yaml", text)
    assert issues == []
    return text.split("\n"), list(documents)


def test_suppression_appends_a_comment_to_a_plain_line() -> None:
    lines, documents = _lines_and_documents()
    assert suppression(lines, 1, "DRA100", documents) == [Edit((1, 17), (1, 17), "  # dralint: ignore[DRA100] reason")]


def test_suppression_adds_the_rule_to_an_ignore_comment_already_there() -> None:
    lines, documents = _lines_and_documents()
    assert suppression(lines, 3, "DRA301", documents) == [Edit((3, 53), (3, 53), ",DRA301")]


def test_suppression_wraps_a_block_scalar_in_disable_and_enable() -> None:
    lines, documents = _lines_and_documents()
    # Line 10 (0-based 9) is inside the `|` block: a comment there would change the expression.
    assert suppression(lines, 9, "DRA420", documents) == [
        Edit((7, 0), (7, 0), "      # dralint: disable[DRA420] reason\n"),
        Edit((10, 0), (10, 0), "      # dralint: enable[DRA420]\n"),
    ]


def test_replacement_replaces_the_whole_word_after_the_position() -> None:
    lines, _ = _lines_and_documents()
    assert replacement(lines, (7, 6), Replacement("modle", "model")) == Edit((9, 45), (9, 50), "model")
    # "gpu" only as a word of its own: never the start of "gpu.example.com" or "big.gpu...".
    assert replacement(lines, (0, 0), Replacement("gpu", "x")) is None
