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
from typing import TYPE_CHECKING, Any

from dralint.errors import ConfigError

if TYPE_CHECKING:
    import pathspec


class GlobError(ConfigError):
    """A pattern that is not a valid glob (``[z-a]``): a configuration error wherever it is met."""


@cache
def _compile(pattern: str) -> pathspec.PathSpec[Any]:
    # pathspec implements gitignore's rules; its RE2 backend matches in linear time, so a
    # pattern such as ``*a*a*a*b`` or ``**/**/**/x`` cannot make matching backtrack. Imported here:
    # pathspec brings asyncio and ssl with it, which a run without patterns should not pay for.
    import pathspec
    import re2

    try:
        return pathspec.PathSpec.from_lines("gitignore", [pattern], backend="re2")
    except (ValueError, TypeError, re.error, re2.error) as error:
        reason = getattr(error, "msg", None) or str(error)  # re.error's msg lacks the regex position
        raise GlobError(f"invalid glob {pattern!r}: {reason}") from None


def check(pattern: str) -> None:
    """Raise :class:`GlobError` when ``pattern`` is not a valid glob (the configuration checks this)."""
    _compile(_normalise(pattern))


def _normalise(path: str) -> str:
    path = path.replace(os.sep, "/")
    while path.startswith("./"):
        path = path[2:]
    return path


@lru_cache(maxsize=65536)
def matches(pattern: str, path: str) -> bool:
    """Whether ``path`` (relative, ``/``-separated) or one of its parent directories matches ``pattern``."""
    spec = _compile(_normalise(pattern))
    parts = _normalise(path).split("/")
    return any(spec.match_file("/".join(parts[:end])) for end in range(len(parts), 0, -1))


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
