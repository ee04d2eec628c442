"""``--changed [REF]``: the files of a git repository that changed since a revision.

"Changed since REF" is what a pull request shows: the files that differ between the work tree
and the merge base of REF and ``HEAD`` (committed, staged or not), plus untracked files that
git does not ignore; deleted files are left out. Without REF the base is the merge base with the
default branch (``origin/HEAD``, else a local ``main`` or ``master``), so on a feature branch it
is the branch's changes and on the default branch itself the uncommitted ones; without any of
those branches it is ``HEAD``. git is asked, never a library: its answer is the one users see.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from dralint.dataclass import dataclass
from dralint.errors import UsageError
from dralint.read.sources import MANIFEST_SUFFIXES

DEFAULT_BRANCHES = ("origin/HEAD", "main", "master")


@dataclass(frozen=True, slots=True)
class Changed:
    root: str  # the top of the work tree (absolute)
    base: str | None  # the commit compared with; None when the repository has no commit yet
    files: tuple[str, ...]  # changed files that still exist, absolute, sorted

    def manifests(self, paths: Sequence[str]) -> list[str]:
        """The changed manifests that are one of ``paths`` or below one (all: the work tree), relative to here.

        As in a directory walk, files in hidden folders (``.github/``) and hidden files are not manifests.
        """
        roots = [os.path.abspath(path).rstrip(os.sep) for path in paths or (self.root,)]
        return [
            os.path.relpath(file)
            for file in self.files
            if file.lower().endswith(MANIFEST_SUFFIXES)
            and not any(part.startswith(".") for part in os.path.relpath(file, self.root).split(os.sep))
            and any(file == root or file.startswith(root + os.sep) for root in roots)
        ]


def _git(arguments: Sequence[str], cwd: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", *arguments], cwd=cwd, capture_output=True, text=True, encoding="utf-8", check=False
        )
    except OSError as error:
        raise UsageError(f"--changed needs git: {error.strerror or error}") from None


def _commit(revision: str, root: str) -> str | None:
    result = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}"], root)
    return result.stdout.strip() if result.returncode == 0 else None


def _merge_base(one: str, other: str, root: str) -> str | None:
    result = _git(["merge-base", one, other], root)
    return result.stdout.strip() if result.returncode == 0 else None


def base_of(ref: str | None, root: str) -> str | None:
    """The commit the work tree is compared with (see the module's docstring)."""
    head = _commit("HEAD", root)
    if ref:
        commit = _commit(ref, root)
        if commit is None:
            hint = "; paths go before --changed, or write --changed=REF" if os.path.exists(ref) else ""
            raise UsageError(f"--changed {ref}: not a git revision{hint}")
        if head is None:
            return commit
        return _merge_base(commit, head, root) or commit  # unrelated histories: compare with REF itself
    if head is None:
        return None
    for branch in DEFAULT_BRANCHES:
        commit = _commit(branch, root)
        if commit is not None:
            return _merge_base(commit, head, root) or head
    return head


def changed(ref: str | None, cwd: str = ".") -> Changed:
    """The files changed since ``ref`` (``None``: the default base) in the repository holding ``cwd``."""
    top = _git(["rev-parse", "--show-toplevel"], cwd)
    if top.returncode != 0:
        raise UsageError(f"--changed needs a git repository: {os.path.abspath(cwd)} is not in one")
    root = os.path.abspath(top.stdout.strip())
    base = base_of(ref, root)
    names: list[str] = []
    if base is None:  # nothing committed yet: everything staged is new
        names += _names(["ls-files", "-z", "--cached"], root)
    else:
        names += _names(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=d", base, "--"], root)
    names += _names(["ls-files", "-z", "--others", "--exclude-standard"], root)
    files = sorted({os.path.join(root, *name.split("/")) for name in names})
    return Changed(root, base, tuple(f for f in files if os.path.isfile(f)))


def _names(arguments: Sequence[str], root: str) -> list[str]:
    result = _git(arguments, root)
    if result.returncode != 0:
        raise UsageError(f"--changed: git {arguments[0]} failed: {' '.join(result.stderr.split())}")
    return [name for name in result.stdout.split("\0") if name]
