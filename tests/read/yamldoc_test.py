"""Decoding YAML/JSON text into documents with positions (dralint/read/yamldoc.py)."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest

from dralint.apimachinery.fieldpath import Key
from dralint.read import compose as yaml_compose
from dralint.read import yamldoc
from dralint.read.yamldoc import DecodeIssue, Limits, decode
from tests.conftest import FIXTURES

YAMLDOC = FIXTURES / "yamldoc"


@pytest.fixture(params=["c", "pure"])
def composer(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run a test with the C composer and again with the pure-Python one: they must agree."""
    if request.param == "pure":
        monkeypatch.setattr(yaml_compose, "_CParser", None)
    yield request.param


def load(name: str, limits: Limits | None = None) -> tuple[list[yamldoc.Document], list[DecodeIssue]]:
    path = YAMLDOC / name
    return decode(name, path.read_bytes().decode("utf-8"), limits)


def canonical(value: object) -> str:
    """JSON text that tells 1 from 1.0 and True from 1."""
    return json.dumps(value, sort_keys=True)


def _kubernetes_int(text: str) -> int | float:
    """A JSON integer as Kubernetes reads it: an int64, else a float64."""
    value = int(text)
    return value if -(2**63) <= value < 2**63 else float(text)


def test_decode_resolves_plain_scalars_like_go_yaml_v2(composer: str) -> None:
    # scalars.expected.json is what kubectl printed for scalars.yaml (kubectl label --local -o
    # json), read as Kubernetes reads JSON: integral floats print as integers, uint64 as floats.
    documents, issues = load("scalars.yaml")
    expected = json.loads((YAMLDOC / "scalars.expected.json").read_text(encoding="utf-8"), parse_int=_kubernetes_int)
    assert issues == []
    assert len(documents) == 1
    assert canonical(documents[0].data) == canonical(expected)


def test_decode_applies_merge_keys_in_document_order(composer: str) -> None:
    documents, issues = load("merge-keys.yaml")
    assert issues == []
    data = documents[0].data
    assert data["request"] == {
        "count": 1,
        "deviceClassName": "gpu.example.com",
        "allocationMode": "ExactCount",
        "name": "gpu",
    }
    assert data["override_after_merge"] == {
        "deviceClassName": "gpu.example.com",
        "count": 2,
        "allocationMode": "ExactCount",
    }
    assert data["several"] == {"count": 8, "name": "first", "adminAccess": True}


def test_position_of_merged_key_is_where_the_winning_value_was_written(composer: str) -> None:
    document = load("merge-keys.yaml")[0][0]
    # request.count: the merge on line 10 overwrote "count: 4" (line 9) with the anchor's count (line 6).
    assert document.position(("request", "count")) == (6, 3)
    assert document.position(("request", "name")) == (11, 3)
    assert document.position(("override_after_merge", "count")) == (14, 3)
    # in a merged list the earlier mapping wins
    assert document.position(("several", "count")) == (16, 9)
    assert document.position(("several", "adminAccess")) == (16, 44)


def test_position_is_the_key_value_position_is_the_value(composer: str) -> None:
    document = load("positions.yaml")[0][0]
    assert document.position(()) == (1, 1)
    assert document.position(("metadata", "name")) == (4, 3)
    assert document.value_position(("metadata", "name")) == (4, 9)
    assert document.position(("spec", "devices", "requests", 0, "exactly", "count")) == (12, 9)
    assert document.value_position(("spec", "devices", "requests", 0, "exactly", "count")) == (13, 11)
    # a list item is reported where its content starts, whatever the indentation after the dash
    assert document.position(("spec", "devices", "requests", 1)) == (14, 9)
    assert document.position(("spec", "devices", "requests", 1, "exactly", "deviceClassName")) == (15, 19)
    # flow mappings and quoted keys, looked up as map keys
    assert document.position(("metadata", "labels", Key("app.kubernetes.io/name"))) == (5, 22)
    assert document.value_position(("metadata", "labels", "team")) == (5, 18)


def test_position_of_missing_path_is_the_nearest_parent(composer: str) -> None:
    document = load("positions.yaml")[0][0]
    assert document.position(("spec", "devices", "requests", 0, "exactly", "selectors", 0)) == (10, 7)
    assert document.position(("spec", "devices", "requests", 7, "name")) == (8, 5)
    assert document.position(("metadata", "name", "nested")) == (4, 3)
    assert document.value_node(("spec", "nothing")) is None
    assert document.value_position(("spec", "nothing")) == (6, 1)


CEL_POSITIONS = [
    (("plain",), (2, 45)),
    (("plain_multiline",), (4, 40)),
    (("single",), (5, 49)),
    (("double",), (6, 49)),
    (("double_multiline",), (8, 42)),
    (("literal",), (11, 40)),
    (("nested", "selectors", 0, "cel", "expression"), (17, 48)),
    (("folded",), (20, 40)),
    (("folded_paragraphs",), (24, 43)),
]


@pytest.mark.parametrize(("path", "expected"), CEL_POSITIONS, ids=[str(p[0][0]) for p in CEL_POSITIONS])
def test_scalar_position_points_at_the_character_in_every_style(
    composer: str, path: tuple[str | int, ...], expected: tuple[int, int]
) -> None:
    document = load("cel-styles.yaml")[0][0]
    value = document.data
    for step in path:
        value = value[step]
    assert document.scalar_position(path, value.index("model")) == expected


def test_scalar_position_of_escapes_and_bounds(composer: str) -> None:
    document = load("cel-styles.yaml")[0][0]
    # the value's first character, the escaped quote (reported at its backslash), and past the end
    assert document.scalar_position(("double",), 0) == (6, 10)
    assert document.scalar_position(("double",), 18) == (6, 28)
    assert document.scalar_position(("single",), 18) == (5, 28)
    assert document.scalar_position(("double",), 10_000) == (6, 67)
    # not a scalar: the key's position
    assert document.scalar_position(("nested",), 3) == (12, 1)


def test_scalar_position_with_crlf_line_breaks_matches_lf(composer: str) -> None:
    text = (YAMLDOC / "cel-styles.yaml").read_text(encoding="utf-8")
    lf = decode("lf.yaml", text)[0][0]
    crlf = decode("crlf.yaml", text.replace("\n", "\r\n"))[0][0]
    for path, _ in CEL_POSITIONS:
        value = lf.data
        for step in path:
            value = value[step]
        offset = value.index("model")
        assert crlf.scalar_position(path, offset) == lf.scalar_position(path, offset)


def test_decode_keeps_documents_after_a_syntax_error(composer: str) -> None:
    documents, issues = load("recovery.yaml")
    assert [d.data["metadata"]["name"] for d in documents] == ["ml", "after-the-error"]
    assert [(d.index, d.line) for d in documents] == [(0, 1), (1, 12)]
    assert [(i.kind, i.line, i.column) for i in issues] == [("syntax", 10, 13)]
    if composer == "c":  # the messages are the parser's own
        assert issues[0].message == "invalid YAML: mapping values are not allowed in this context"
    assert documents[1].position(("metadata", "name")) == (15, 3)


def test_decode_reports_tab_indentation_with_a_hint(composer: str) -> None:
    documents, issues = load("tabs.yaml")
    assert documents == []
    assert [(i.kind, i.line, i.column, i.hint) for i in issues] == [
        ("syntax", 6, 1, "YAML does not allow tabs for indentation; use spaces")
    ]
    assert issues[0].message.startswith("invalid YAML: while scanning for the next token: found character")


def test_decode_treats_crlf_like_lf(composer: str) -> None:
    documents, issues = load("crlf.yaml")
    assert issues == []
    assert documents[0].data["data"] == {"script": "line one\nline two\n"}
    assert documents[1].data["metadata"] == {"name": "second"}
    assert documents[1].line == 10
    assert documents[1].position(("metadata", "name")) == (13, 3)


def test_decode_strips_byte_order_marks_at_document_starts(composer: str) -> None:
    documents, issues = decode("bom.yaml", "\ufeffa: 1\n---\n\ufeffb: 2\n")
    assert issues == []
    assert [d.data for d in documents] == [{"a": 1}, {"b": 2}]


def test_decode_drops_empty_documents(composer: str) -> None:
    documents, issues = load("empty-documents.yaml")
    assert issues == []
    assert [(d.index, d.line, d.data["metadata"]["name"]) for d in documents] == [(0, 4, "one"), (1, 12, "two")]


def test_decode_reports_duplicate_keys_and_keeps_the_last_value(composer: str) -> None:
    documents, issues = load("duplicate-keys.yaml")
    assert issues == [
        DecodeIssue(
            "duplicate-key",
            "mapping key 'selectors' already defined at line 6",
            9,
            3,
            hint="the API server rejects duplicate fields; keep one of them",
        )
    ]
    expression = documents[0].data["spec"]["selectors"][0]["cel"]["expression"]
    assert expression == 'device.driver == "other.example.com"'
    assert documents[0].position(("spec", "selectors")) == (9, 3)


def test_decode_refuses_alias_bombs_as_go_yaml_does_and_keeps_the_next_document(composer: str) -> None:
    # go-yaml (kubectl) refuses a document that comes mostly from aliases, whatever dralint's limits.
    documents, issues = load("alias-bomb.yaml")
    assert [d.data["metadata"]["name"] for d in documents] == ["after-the-bomb"]
    assert [(i.kind, i.line, i.column, i.message) for i in issues] == [
        ("too-large", 1, 1, "document is made mostly of YAML alias expansions (an alias bomb?)")
    ]
    assert issues[0].upstream == "yaml: document contains excessive aliasing"


def test_decode_stops_at_the_values_limit_and_keeps_the_next_document(composer: str) -> None:
    documents, issues = load("many-values.yaml", Limits(max_values_per_document=100))
    assert [d.data["metadata"]["name"] for d in documents] == ["after-the-big-one"]
    assert [(i.kind, i.line) for i in issues] == [("too-large", 1)]
    assert issues[0].message == "document expands to more than 100 values (YAML aliases?)"


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000 + "\n", "- " * 100_000 + "x\n", "".join(" " * n + "a:\n" for n in range(2000))],
    ids=["flow", "compact-sequences", "indentation"],
)
def test_decode_refuses_deep_nesting_without_crashing(text: str) -> None:
    documents, issues = decode("deep.yaml", text + "---\nkept: true\n")
    assert [d.data for d in documents] == [{"kept": True}]
    assert [(i.kind, i.message) for i in issues] == [("too-deep", "document nests deeper than 256 levels")]


def test_decode_reports_merge_of_a_scalar_at_the_merge_key(composer: str) -> None:
    documents, issues = load("merge-error.yaml")
    assert [d.data["metadata"]["name"] for d in documents] == ["kept"]
    assert issues == [
        DecodeIssue("syntax", "invalid YAML: map merge requires map or sequence of maps as the value", 3, 3)
    ]
    assert issues[0].upstream == "yaml: map merge requires map or sequence of maps as the value"


def test_decode_reports_a_tag_that_does_not_fit(composer: str) -> None:
    documents, issues = load("tag-error.yaml")
    assert documents == []
    assert issues == [DecodeIssue("syntax", "invalid YAML: cannot decode !!str `many` as a !!int", 4, 10)]


def test_decode_reports_control_characters_at_their_position(composer: str) -> None:
    documents, issues = load("reader-error.yaml")
    assert documents == []
    assert [(i.kind, i.line, i.column) for i in issues] == [("syntax", 4, 14)]
    assert issues[0].message == "invalid YAML: control character U+0007 is not allowed"
    assert issues[0].upstream == "yaml: control characters are not allowed"


def test_decode_json_with_positions(composer: str) -> None:
    documents, issues = load("pretty.json")
    assert issues == []
    assert documents[0].data["metadata"] == {"name": "gpu.example.com"}
    assert documents[0].position(("metadata", "name")) == (5, 3)


def test_decode_json_stream() -> None:
    documents, issues = load("stream.json")
    assert issues == []
    assert [(d.line, d.data["metadata"]["name"]) for d in documents] == [(1, "one"), (2, "two")]
    assert documents[1].position(("metadata", "name")) == (2, 1)  # no node tree: the document's line


def test_decode_invalid_json_reports_the_json_error() -> None:
    documents, issues = load("invalid.json")
    assert documents == []
    assert issues == [DecodeIssue("syntax", "invalid JSON: Expecting ',' delimiter", 6, 1)]


def test_document_position_without_node_tree_is_the_document_line() -> None:
    document = yamldoc.Document("x.yaml", 0, 7, {"a": 1})
    assert document.position(("a",)) == (7, 1)
    assert document.scalar_position(("a",), 3) == (7, 1)


def test_decode_marks_every_document_with_the_file_text() -> None:
    text = Path(YAMLDOC / "recovery.yaml").read_text(encoding="utf-8")
    documents, _ = decode("recovery.yaml", text)
    assert all(d.text == text and d.file == "recovery.yaml" for d in documents)


def test_pickled_documents_compose_their_node_tree_again() -> None:
    # --jobs workers send documents without their node trees; positions must not change.
    documents = load("recovery.yaml")[0] + load("cel-styles.yaml")[0]
    paths = [(), ("metadata", "name"), ("kind",), ("double",), ("nested", "deeper"), ("missing", 3)]
    expected = [[d.position(p) for p in paths] + [d.scalar_position(("double",), 18)] for d in documents]
    copies = [pickle.loads(pickle.dumps(document)) for document in documents]
    assert all(copy.node is None for copy in copies)
    assert [[c.position(p) for p in paths] + [c.scalar_position(("double",), 18)] for c in copies] == expected
    assert [c.data for c in copies] == [d.data for d in documents]


def test_documents_left_without_their_tree_ask_their_finder() -> None:
    document = pickle.loads(pickle.dumps(load("cel-styles.yaml")[0][0]))
    asked: list[list[tuple[tuple[str | int, ...], int | None]]] = []

    class Finder:
        def find(self, doc: yamldoc.Document, path: tuple[str | int, ...], offset: int | None) -> tuple[int, int]:
            return self.find_all([(doc, path, offset)])[0]

        def find_all(self, lookups: list[yamldoc.Lookup]) -> list[tuple[int, int]]:
            asked.append([(path, offset) for _, path, offset in lookups])
            return [(40 + n, 2) for n in range(len(lookups))]

    document.finder = Finder()
    assert document.position(("double",)) == (40, 2)
    assert document.position(("double",)) == (40, 2)  # remembered
    assert document.scalar_position(("double",), 3) == (40, 2)
    yamldoc.look_up_all([(document, ("single",), None), (document, ("double",), None), (document, ("single",), 5)])
    assert document.position(("single",)) == (40, 2) and document.scalar_position(("single",), 5) == (41, 2)
    assert asked == [[(("double",), None)], [(("double",), 3)], [(("single",), None), (("single",), 5)]]
    assert document.node is None


@pytest.mark.parametrize("name", ["strict.JSON", "strict.yaml"])
@pytest.mark.parametrize(
    ("text", "issue", "kind_at"),
    [
        (
            '{"kind": "A",}',
            DecodeIssue("syntax", "invalid JSON: Expecting property name enclosed in double quotes", 1, 14),
            (1, 2),
        ),
        (
            "{'kind': 'A'}",
            DecodeIssue("syntax", "invalid JSON: Expecting property name enclosed in double quotes", 1, 2),
            (1, 2),
        ),
        ('# a comment\n{"kind": "A"}', None, (2, 2)),
        (
            '{"kind": "A",\n "n": -Infinity, "s": "NaN"}',
            DecodeIssue("syntax", "invalid JSON: -Infinity is not a JSON value", 2, 7),
            (1, 2),
        ),
    ],
)
def test_text_starting_with_a_brace_is_held_to_json_whatever_the_file_name(
    name: str, text: str, issue: DecodeIssue | None, kind_at: tuple[int, int]
) -> None:
    # kubectl reads a file as JSON when its first character is "{" and as YAML otherwise; the
    # name does not matter (a .json file starting with a comment is read as YAML). What JSON
    # refuses is reported, and that document is not checked: kubectl refuses it.
    documents, issues = decode(name, text)
    assert issues == ([issue] if issue is not None else [])
    if issue is None:
        assert documents[0].data["kind"] == "A"
        assert documents[0].position(("kind",)) == kind_at
    else:
        assert documents == []
