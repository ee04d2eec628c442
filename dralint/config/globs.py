"""Path globs as users write them in ``.dralint.yaml`` (``exclude``, ``pathIgnores``, exceptions).

The semantics are gitignore's, which users already know: ``*`` and ``?`` stay within one path
segment, ``**`` spans segments, a pattern without a ``/`` matches a file or directory name at
any depth, and a pattern that matches a directory matches everything below it. Patterns are
relative to the directory of the configuration file (or the current directory).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import cache, lru_cache


@cache
def _compile(pattern: str) -> re.Pattern[str]:
    anchored = "/" in pattern.rstrip("/")
    body = pattern.strip("/")
    out: list[str] = []
    i = 0
    while i < len(body):
        char = body[i]
        if body.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif body.startswith("**", i):
            out.append(".*")
            i += 2
        elif char == "*":
            out.append("[^/]*")
            i += 1
        elif char == "?":
            out.append("[^/]")
            i += 1
        elif char == "[":
            end = body.find("]", i + 1)
            if end == -1:
                out.append(re.escape(char))
                i += 1
            else:
                inner = body[i + 1 : end].replace("\\", "\\\\")
                if inner.startswith("!"):
                    inner = "^" + inner[1:]
                out.append(f"[{inner}]")
                i = end + 1
        else:
            out.append(re.escape(char))
            i += 1
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(prefix + "".join(out) + r"\Z")


def _normalise(path: str) -> str:
    path = path.replace(os.sep, "/")
    while path.startswith("./"):
        path = path[2:]
    return path


@lru_cache(maxsize=65536)
def matches(pattern: str, path: str) -> bool:
    """Whether ``path`` (relative, ``/``-separated) or one of its parent directories matches ``pattern``."""
    regex = _compile(_normalise(pattern))
    parts = _normalise(path).split("/")
    return any(regex.match("/".join(parts[:end])) for end in range(len(parts), 0, -1))


def matches_any(patterns: Iterable[str], path: str) -> bool:
    return any(matches(pattern, path) for pattern in patterns)


def relative_to(path: str, root: str) -> str:
    """``path`` (as the user gave it, relative to the current directory) relative to ``root``.

    Paths outside ``root`` keep their absolute form, so that anchored patterns cannot match them.
    """
    return _relative(path, root, os.getcwd())


@lru_cache(maxsize=65536)
def _relative(path: str, root: str, cwd: str) -> str:
    absolute = os.path.normpath(os.path.join(cwd, path))
    root = os.path.normpath(os.path.join(cwd, root))
    if absolute == root or absolute.startswith(root.rstrip(os.sep) + os.sep):
        return _normalise(os.path.relpath(absolute, root))
    return _normalise(absolute)
