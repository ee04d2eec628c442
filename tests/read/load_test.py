"""Loading paths into a workspace (dralint/read/load.py)."""

from __future__ import annotations

import io
import sys

import pytest

from dralint.read.load import load


def test_load_reads_checked_and_context_files() -> None:
    workspace = load(
        ["tests/fixtures/engine/checked.yaml", "tests/fixtures/objects/not-kubernetes.yaml"], ["tests/fixtures/engine"]
    )
    assert [f.name for f in workspace.files] == [
        "tests/fixtures/engine/checked.yaml",
        "tests/fixtures/objects/not-kubernetes.yaml",
        "tests/fixtures/engine/context.yaml",
    ]
    assert workspace.checked_files == frozenset(
        {"tests/fixtures/engine/checked.yaml", "tests/fixtures/objects/not-kubernetes.yaml"}
    )
    assert [o.name for o in workspace.objects] == ["checked-classic", "checked-classic-2", "context-classic"]
    assert len(workspace.documents) == 7
    assert workspace.other_documents == 4
    assert workspace.issues == [] and workspace.broken == []


def test_load_records_issues_per_file() -> None:
    workspace = load(["tests/fixtures/yamldoc/tabs.yaml", "tests/fixtures/sources/utf16-no-bom.yaml"])
    assert [(file, issue.kind, issue.line) for file, issue in workspace.issues] == [
        ("tests/fixtures/yamldoc/tabs.yaml", "syntax", 6),
        ("tests/fixtures/sources/utf16-no-bom.yaml", "encoding", 1),
    ]


def test_load_reads_stdin_once_under_its_display_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        sys, "stdin", io.TextIOWrapper(io.BytesIO(b"apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n"))
    )
    workspace = load(["-", "-"], stdin_name="ns.yaml")
    assert [f.name for f in workspace.files] == ["ns.yaml"]
    assert workspace.checked_files == frozenset({"ns.yaml"})
    assert workspace.objects[0].file == "ns.yaml"
