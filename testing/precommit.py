"""Run pre-commit against this checkout offline, wherever the tests run (a venv, a user install, root).

pre-commit builds the hook's environment with virtualenv and installs this checkout into it
with pip. Offline, pip needs dralint's dependencies from somewhere: the environment running
the tests has them, but a hook environment sees only the *base* interpreter's packages. So pip
gets the wheelhouse of :mod:`testing.wheels` with ``--find-links`` and no index; virtualenv
seeds setuptools from the wheels it bundles, and pip builds dralint without an isolated build
environment (``PIP_NO_BUILD_ISOLATION=0`` turns isolation off).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from testing.git import git
from testing.run import ROOT
from testing.wheels import wheelhouse

__all__ = ["environment", "run", "snapshot", "wheelhouse"]


def snapshot(directory: Path, root: Path = ROOT) -> tuple[Path, str]:
    """A git repository in ``directory`` holding this checkout's work tree as one commit, and that commit.

    pre-commit installs a hook repository at a revision; the work tree under test may have
    changes that no commit of this checkout holds yet (``pre-commit try-repo`` does the same).
    """
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\0")
    for name in filter(None, listed):
        source = root / name
        if source.is_file():
            target = directory / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(directory, "init", "-q")
    git(directory, "add", "-A")
    git(directory, "commit", "-qm", "snapshot")
    return directory, git(directory, "rev-parse", "HEAD")


def environment(home: Path, wheels: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for running pre-commit offline with this checkout's hooks."""
    source = os.environ if base is None else base
    # PYTHONPATH would make the hook import the dralint of the tests, not the one pre-commit installed.
    unset = ("DRALINT_", "PIP_", "VIRTUALENV_", "PYTHONPATH", "PRE_COMMIT")
    environment = {k: v for k, v in source.items() if not k.startswith(unset)}
    environment.update(
        PRE_COMMIT_HOME=str(home),
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(wheels),
        PIP_NO_BUILD_ISOLATION="0",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_CONFIG_FILE=os.devnull,  # a machine's pip.conf must not add an index or links
        VIRTUALENV_SETUPTOOLS="bundle",  # to build dralint without an isolated build environment
        VIRTUALENV_NO_DOWNLOAD="1",
        NO_COLOR="1",
    )
    return environment


def run(arguments: list[str], cwd: Path, environment: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """``pre-commit ARGUMENTS`` in ``cwd`` (pre-commit as a module of the interpreter running the tests)."""
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *arguments],
        cwd=cwd,
        env=dict(environment),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
