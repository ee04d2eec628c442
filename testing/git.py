"""git in tests: a command in a repository, as a fixed author, with its output."""

from __future__ import annotations

import subprocess
from pathlib import Path

AUTHOR = ("-c", "user.email=t@example.com", "-c", "user.name=t")


def git(repo: Path, *args: str) -> str:
    """``git ARGS`` in ``repo``; its standard output, stripped (a failure raises)."""
    return subprocess.run(["git", *AUTHOR, *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()
