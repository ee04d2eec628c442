"""Finding and reading the input (dralint/read/sources.py)."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from dralint.errors import InputError
from dralint.read.sources import SourceFile, decode_bytes, discover, from_text, read
from dralint.read.yamldoc import DecodeIssue
from tests.conftest import FIXTURES

SOURCES = FIXTURES / "sources"
TREE = "tests/fixtures/sources/tree"
HINT = "Kubernetes manifests must be UTF-8; re-encode the file"


@pytest.fixture(autouse=True)
def _in_repository_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES.parent.parent)


def test_discover_walks_directories_in_path_order_skipping_hidden_entries() -> None:
    assert discover([TREE]) == [
        f"{TREE}/apps/a.json",
        f"{TREE}/apps/gpu/b.yml",
        f"{TREE}/apps/gpu/claim.yaml",
        f"{TREE}/apps-list.yaml",
        f"{TREE}/inventory/NODES.YAML",
        f"{TREE}/top.yaml",
    ]


def test_discover_normalises_paths_and_drops_duplicates() -> None:
    assert discover([f"./{TREE}/top.yaml", f"{TREE}/top.yaml", "-", f"./{TREE}/apps/gpu/"]) == [
        f"{TREE}/top.yaml",
        "-",
        f"{TREE}/apps/gpu/b.yml",
        f"{TREE}/apps/gpu/claim.yaml",
    ]


def test_discover_reads_explicit_files_of_any_name() -> None:
    assert discover([f"{TREE}/docs/README.md", f"{TREE}/apps/.dotfile.yaml"]) == [
        f"{TREE}/docs/README.md",
        f"{TREE}/apps/.dotfile.yaml",
    ]


def test_discover_excludes_patterns() -> None:
    assert discover([TREE], exclude=["*/gpu/*", "*.json"]) == [
        f"{TREE}/apps-list.yaml",
        f"{TREE}/inventory/NODES.YAML",
        f"{TREE}/top.yaml",
    ]


def test_discover_missing_path_is_an_input_error() -> None:
    with pytest.raises(InputError, match=r"^nowhere\.yaml: no such file or directory$"):
        discover(["nowhere.yaml"])


def test_discover_directory_without_manifests_is_an_input_error() -> None:
    with pytest.raises(
        InputError, match=r"^tests/fixtures/sources/no-manifests: no \*\.yaml, \*\.yml or \*\.json files"
    ):
        discover(["tests/fixtures/sources/no-manifests"])


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX permissions and a non-root user")
def test_discover_unreadable_directory_is_an_input_error(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.yaml").write_text("a: 1\n")
    locked.chmod(0)
    try:
        with pytest.raises(InputError, match="cannot read directory"):
            discover([str(tmp_path)])
    finally:
        locked.chmod(0o755)


@pytest.mark.parametrize(
    ("name", "issues"),
    [
        ("utf8-bom.yaml", []),
        ("utf16-bom.yaml", []),
        (
            "utf32-bom.yaml",
            [DecodeIssue("encoding", "file is UTF-32-BE; kubectl reads only UTF-8 and UTF-16", 1, 1, HINT)],
        ),
        ("latin1.yaml", [DecodeIssue("encoding", "byte 0xe9 is not valid UTF-8", 4, 12, HINT)]),
    ],
)
def test_read_decodes_byte_order_marks_and_reports_bad_bytes(name: str, issues: list[DecodeIssue]) -> None:
    source = read(f"tests/fixtures/sources/{name}")
    assert source.name == f"tests/fixtures/sources/{name}"
    assert list(source.issues) == issues
    expected_name = "caf\ufffd" if name == "latin1.yaml" else "café"
    assert source.text == f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {expected_name}\n"


def test_read_utf16_without_bom_is_reported_and_not_decoded() -> None:
    source = read("tests/fixtures/sources/utf16-no-bom.yaml")
    assert source.text == ""
    assert source.issues == (
        DecodeIssue("encoding", "file contains NUL bytes (UTF-16 without a byte-order mark?)", 1, 1, HINT),
    )


def test_read_oversized_file_is_reported_not_read() -> None:
    source = read(f"{TREE}/top.yaml", max_bytes=10)
    assert source.text == ""
    assert [(i.kind, i.message) for i in source.issues] == [("too-large", "file is larger than 10 bytes; not checked")]


def test_read_unreadable_file_is_an_input_error() -> None:
    with pytest.raises(InputError, match=r"^tests/fixtures/sources/tree: cannot read: "):
        read(TREE)


def test_read_stdin_uses_the_given_name(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO((SOURCES / "utf8-bom.yaml").read_bytes()))
    monkeypatch.setattr(sys, "stdin", stdin)
    source = read("-", stdin_name="manifests/ns.yaml")
    assert source.name == "manifests/ns.yaml"
    assert source.text.endswith("name: café\n")


def test_read_stdin_unavailable_is_an_input_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(InputError, match="standard input is not available"):
        read("-")


def test_decode_bytes_reports_the_position_of_the_first_bad_byte() -> None:
    text, issues = decode_bytes(b"a: 1\nb: ok \xff\xfe\n")
    assert text == "a: 1\nb: ok \ufffd\ufffd\n"
    assert issues == [DecodeIssue("encoding", "byte 0xff is not valid UTF-8", 2, 7, HINT)]


def test_from_text_holds_an_editor_buffer_to_the_byte_limit() -> None:
    assert from_text("a.yaml", "\ufeffkind: Pod\n", max_bytes=20) == SourceFile("a.yaml", "kind: Pod\n")
    too_large = DecodeIssue(
        "too-large",
        "file is larger than 10 bytes; not checked",
        1,
        1,
        hint="raise limits.maxFileBytes in the configuration to check it",
    )
    # Six characters, twelve bytes in UTF-8: the limit counts bytes, as for files on disk.
    assert from_text("a.yaml", "é" * 6, max_bytes=10) == SourceFile("a.yaml", "", (too_large,))
