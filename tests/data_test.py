"""dralint's data folders, and the YAML files of rules/ and profiles/ decoded ahead of time (decoded.json)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from dralint import data
from dralint.profiles import load as profiles
from dralint.rules import builtin_rules, builtin_texts, decode_builtin
from tests.conftest import ROOT


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_decoded", ROOT / "scripts" / "generate_decoded.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_decoded_copies_are_current() -> None:
    for path, wanted in _generator().decoded_files().items():
        assert path.read_text(encoding="utf-8") == wanted, f"{path} is stale: run python scripts/generate_decoded.py"


def test_decoded_rules_are_those_of_the_yaml_files() -> None:
    texts = builtin_texts()
    found = data.decoded("rules", texts)
    assert found is not None  # the copy is read
    assert {name: [tuple(rule) for rule in rules] for name, rules in found.items()} == {
        name: decode_builtin(name, text) for name, text in texts.items()
    }
    assert len(builtin_rules()) == sum(len(rules) for rules in found.values())


@pytest.mark.parametrize("driver", sorted(profiles.builtin()))
def test_decoded_profile_is_the_yaml_files_profile(driver: str) -> None:
    path = profiles.builtin()[driver]
    text = path.read_text(encoding="utf-8")
    assert data.decoded("profiles", {path.name: text}) is not None  # the copy is read
    from_yaml = [p for p in profiles.parse(f"profiles/{path.name}", text, validate=False) if p.driver == driver]
    assert [profiles._shipped(path)] == from_yaml


def test_decoded_gives_nothing_for_an_edited_file_or_an_unknown_one() -> None:
    name, text = next(iter(builtin_texts().items()))
    assert data.decoded("rules", {name: text}) is not None
    assert data.decoded("rules", {name: text + "\n# edited\n"}) is None
    assert data.decoded("rules", {name: text, "other.yaml": ""}) is None


@pytest.mark.parametrize("content", ["", "{not json", "[]", '{"format": 2, "files": {}}', '{"format": 1, "files": 3}'])
def test_a_broken_or_foreign_decoded_file_is_ignored(content: str, tmp_path: Path) -> None:
    (tmp_path / data.DECODED_FILE).write_text(content, encoding="utf-8")
    assert data._decoded_table(tmp_path) == {}


@pytest.mark.parametrize("folder", ["rules", "profiles"])
def test_decoded_files_read_by_line_are_their_json(folder: data.Folder) -> None:
    # Each file's entry is decoded when first asked for; together they are the file's JSON.
    path = data.folder(folder) / data.DECODED_FILE
    table = data._decoded_table(data.folder(folder))
    assert isinstance(table, data.DecodedOnRead)
    assert {name: table[name] for name in table} == json.loads(path.read_text(encoding="utf-8"))["files"]


def test_a_broken_line_of_a_decoded_file_loses_that_file_only(tmp_path: Path) -> None:
    text = data.decoded_text({"a.yaml": ("a: 1\n", {"a": 1}), "b.yaml": ("b: 2\n", {"b": 2})})
    (tmp_path / data.DECODED_FILE).write_text(text.replace('{"b": 2}', '{"b": 2'), encoding="utf-8")
    table = data._decoded_table(tmp_path)
    assert table["a.yaml"]["content"] == {"a": 1}
    assert table["b.yaml"] is None
