"""``--changed``: which files changed since which base, asked of git."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from dralint.errors import UsageError
from dralint.read.changed import base_of, changed
from testing.git import git


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is needed")
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "trunk")
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (repo / name).write_text(f"# {name}\n")
    return repo


def names(repo: Path, ref: str | None) -> list[str]:
    return [os.path.relpath(f, repo) for f in changed(ref, str(repo)).files]


def test_without_a_commit_every_staged_and_untracked_file_is_new(repo: Path) -> None:
    git(repo, "add", "a.yaml")
    assert base_of(None, str(repo)) is None
    assert names(repo, None) == ["a.yaml", "b.yaml", "c.yaml"]


def test_without_a_default_branch_the_base_is_head(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    (repo / "a.yaml").write_text("# changed\n")
    (repo / "b.yaml").unlink()  # deleted: nothing to check
    (repo / ".gitignore").write_text("ignored.yaml\n")
    (repo / "ignored.yaml").write_text("# ignored\n")
    (repo / "new.yaml").write_text("# untracked\n")
    assert base_of(None, str(repo)) == git(repo, "rev-parse", "HEAD")
    assert names(repo, None) == [".gitignore", "a.yaml", "new.yaml"]


@pytest.mark.parametrize("default", ["main", "master", "origin/HEAD"])
def test_the_default_base_is_the_merge_base_with_the_default_branch(repo: Path, default: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    fork = git(repo, "rev-parse", "HEAD")
    if default == "origin/HEAD":
        git(repo, "update-ref", "refs/remotes/origin/trunk", fork)
        git(repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
    else:
        git(repo, "branch", default)
    git(repo, "checkout", "-qb", "feature")
    (repo / "a.yaml").write_text("# on the branch\n")
    git(repo, "commit", "-qam", "two")
    (repo / "c.yaml").write_text("# not committed yet\n")
    assert base_of(None, str(repo)) == fork
    assert names(repo, None) == ["a.yaml", "c.yaml"]


def test_a_ref_is_compared_from_its_merge_base(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    git(repo, "checkout", "-qb", "feature")
    (repo / "a.yaml").write_text("# on the branch\n")
    git(repo, "commit", "-qam", "two")
    git(repo, "checkout", "-q", "trunk")
    (repo / "b.yaml").write_text("# on trunk after the fork\n")
    git(repo, "commit", "-qam", "three")
    git(repo, "checkout", "-q", "feature")
    assert names(repo, "trunk") == ["a.yaml"]


def test_a_bad_revision_is_a_usage_error(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    with pytest.raises(UsageError, match=r"^--changed nope: not a git revision$"):
        changed("nope", str(repo))
