"""The repository stays cheap to clone: no large files committed by accident (built wheels, caches, reports)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import ROOT

# A file over this size is a mistake unless a test needs its size (hostile-input fixtures do).
LIMIT_BYTES = 1024 * 1024
NEEDS_ITS_SIZE: frozenset[str] = frozenset()


def _tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the committed files cannot be listed")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [name for name in listed.stdout.decode().split("\0") if name]


def test_no_committed_file_is_over_one_mebibyte() -> None:
    large = [
        f"{name} ({size:,} bytes)"
        for name in _tracked_files()
        if name not in NEEDS_ITS_SIZE
        and (path := ROOT / name).is_file()
        and not path.is_symlink()
        and (size := path.stat().st_size) > LIMIT_BYTES
    ]
    assert large == [], "files over 1 MiB are committed; add them to NEEDS_ITS_SIZE if a test needs their size"


def test_built_packages_are_ignored() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "x-1.0-py3-none-any.whl", "dist/x.tar.gz", ".venv/bin/python"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert ignored.stdout.split() == ["x-1.0-py3-none-any.whl", "dist/x.tar.gz", ".venv/bin/python"]

