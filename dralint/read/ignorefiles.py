"""Which files git ignores: ``.gitignore`` files (nested ones too) and ``.git/info/exclude``.

Directory walks skip what git ignores, as ruff does, so that rendered output (``build/``) and
vendored trees listed in ``.gitignore`` are not checked. Only inside a git repository, as git
itself: the patterns of the ``.gitignore`` nearest to a path take precedence over those of its
parents, which take precedence over ``.git/info/exclude``; the last matching pattern of a file
wins, and ``!pattern`` includes a path again. Matching is pathspec's implementation of git's
rules.
"""

from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when a .gitignore is read: pathspec's import costs more than a small check
    import pathspec

GITIGNORE = ".gitignore"


class IgnoreFiles:
    """Answers "does git ignore this path?", reading each directory's ``.gitignore`` once."""

    def __init__(self) -> None:
        self._specs: dict[str, pathspec.GitIgnoreSpec | None] = {}

    def ignored(self, path: str, *, is_dir: bool) -> bool:
        """Whether git ignores ``path`` (a file, or a directory when ``is_dir``); ``False`` outside a repository."""
        absolute = os.path.abspath(path)
        root = repository_root(os.path.dirname(absolute))
        if root is None or absolute == root:
            return False
        suffix = "/" if is_dir else ""
        directory = os.path.dirname(absolute)
        while True:  # the nearest .gitignore first
            spec = self._spec(os.path.join(directory, GITIGNORE))
            if spec is not None:
                decided = spec.check_file(_relative(absolute, directory) + suffix).include
                if decided is not None:
                    return decided
            if directory == root:
                break
            directory = os.path.dirname(directory)
        exclude = self._spec(_info_exclude(root))
        return exclude is not None and bool(exclude.check_file(_relative(absolute, root) + suffix).include)

    def _spec(self, path: str) -> pathspec.GitIgnoreSpec | None:
        if path not in self._specs:
            self._specs[path] = _read(path)
        return self._specs[path]


def _read(path: str) -> pathspec.GitIgnoreSpec | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:  # no such file, or unreadable: git ignores it too
        return None
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _relative(path: str, directory: str) -> str:
    return os.path.relpath(path, directory).replace(os.sep, "/")


@cache
def repository_root(directory: str) -> str | None:
    """The top of the git work tree that holds ``directory`` (absolute), or ``None``."""
    directory = os.path.abspath(directory)
    while True:
        if os.path.exists(os.path.join(directory, ".git")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _info_exclude(root: str) -> str:
    """``info/exclude`` of the repository at ``root``; a linked work tree's ``.git`` file points to its git dir."""
    git_dir = os.path.join(root, ".git")
    if os.path.isfile(git_dir):
        git_dir = os.path.join(root, _first_line(git_dir).removeprefix("gitdir:").strip())
        if os.path.isfile(os.path.join(git_dir, "commondir")):  # a linked work tree shares info/ with the main one
            git_dir = os.path.join(git_dir, _first_line(os.path.join(git_dir, "commondir")))
    return os.path.join(git_dir, "info", "exclude")


def _first_line(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.readline().strip()
    except OSError:
        return ""
