"""Directory walks skip what git ignores: compared with git's own answer on the same tree."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dralint.errors import InputError
from dralint.read.ignorefiles import IgnoreFiles
from dralint.read.sources import discover
from tests.conftest import FIXTURES

TREE = FIXTURES / "ignorefiles" / "tree"

# The fixture keeps its ignore files under other names: as .gitignore files they would make
# git ignore the fixture's own files in this repository.
RENAMES = {"dot-gitignore": ".gitignore", "info-exclude": os.path.join(".git", "info", "exclude")}


def _repository(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is needed")
    root = tmp_path / "repo"
    shutil.copytree(TREE, root)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for source in sorted(root.rglob("*")):
        if source.name in RENAMES:
            target = source.parent / RENAMES[source.name]
            target.parent.mkdir(parents=True, exist_ok=True)
            source.replace(target)
    return root


def _git_untracked(root: Path) -> list[str]:
    """What git lists as untracked and not ignored: the oracle."""
    listed = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard"], cwd=root, check=True, capture_output=True, text=True
    ).stdout.split()
    return sorted((name for name in listed if name.endswith(".yaml")), key=lambda name: name.split("/"))


def test_discover_skips_what_git_ignores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repository(tmp_path)
    monkeypatch.chdir(root)
    assert discover(["."]) == [
        "app.yaml",
        "apps/deep/b.yaml",
        "apps/top-only.yaml",
        "apps/x.rendered.yaml",
        "keep.rendered.yaml",
        "vendor/chart.yaml",
    ]
    assert discover(["."]) == _git_untracked(root)


def test_discover_applies_the_ignore_files_of_parent_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repository(tmp_path)
    monkeypatch.chdir(root / "apps")
    assert discover(["."]) == ["deep/b.yaml", "top-only.yaml", "x.rendered.yaml"]


def test_discover_without_ignore_files_reads_everything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repository(tmp_path)
    monkeypatch.chdir(root)
    assert len(discover(["."], ignore_files=False)) == 11


def test_discover_reads_an_ignored_file_named_explicitly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repository(tmp_path)
    monkeypatch.chdir(root)
    assert discover(["x.rendered.yaml", "generated/rendered/a.yaml"]) == [
        "x.rendered.yaml",
        "generated/rendered/a.yaml",
    ]


def test_discover_of_an_ignored_folder_says_why_it_is_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repository(tmp_path)
    monkeypatch.chdir(root)
    with pytest.raises(InputError) as raised:
        discover(["generated"])
    assert str(raised.value) == (
        "generated: every *.yaml, *.yml or *.json file in this directory is ignored by .gitignore "
        "(--no-ignore-files reads them)"
    )


def test_ignore_files_apply_only_inside_a_git_repository(tmp_path: Path) -> None:
    shutil.copytree(TREE, tmp_path / "plain")
    (tmp_path / "plain" / "dot-gitignore").replace(tmp_path / "plain" / ".gitignore")
    assert not IgnoreFiles().ignored(str(tmp_path / "plain" / "x.rendered.yaml"), is_dir=False)


def test_ignore_files_in_a_linked_work_tree_read_the_shared_info_exclude(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    git = ["git", "-C", str(root), "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run([*git, "add", "vendor"], check=True)
    subprocess.run([*git, "commit", "-qm", "vendor"], check=True)
    (root / "vendor" / "excluded.yaml").write_text("kind: ConfigMap\n")
    subprocess.run([*git, "add", "-f", "vendor/excluded.yaml"], check=True)
    subprocess.run([*git, "commit", "-qm", "excluded"], check=True)
    linked = tmp_path / "linked"
    subprocess.run([*git, "worktree", "add", "-q", str(linked)], check=True)
    assert IgnoreFiles().ignored(str(linked / "vendor" / "excluded.yaml"), is_dir=False)
    assert not IgnoreFiles().ignored(str(linked / "vendor" / "chart.yaml"), is_dir=False)
