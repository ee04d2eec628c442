"""Where a report's findings sit, in the forms formats need: paths relative to one root, and source lines.

Assembled once per run from what the reading stage already holds; SARIF reads the relative paths,
the ``full`` text format the source lines.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterable
from typing import Any

from dralint.findings import Finding
from dralint.read import sources
from dralint.read.ignorefiles import repository_root
from dralint.read.sources import SourceFile


def source_paths(files: Iterable[str]) -> dict[str, Any]:
    """``source_root`` and ``relative_paths`` of a report: the files relative to one directory above them all.

    The directory is the git repository around the current directory (code scanning resolves
    paths from the repository root), else the current directory, widened to a common parent
    when a file lies outside it, so that no path needs ``..`` or an absolute URI.
    """
    absolute = {f: os.path.abspath(f) for f in sorted(set(files)) if f and f != sources.STDIN}
    cwd = os.getcwd()
    root = repository_root(cwd) or cwd
    if any(os.path.commonpath([root, path]) != root for path in absolute.values()):
        root = os.path.commonpath([root, *absolute.values()])
    relative = {f: os.path.relpath(path, root).replace(os.sep, "/") for f, path in absolute.items()}
    uri = pathlib.Path(root).as_uri()
    return {"source_root": uri if uri.endswith("/") else uri + "/", "relative_paths": relative}


def excerpts(files: list[SourceFile], findings: list[Finding]) -> dict[tuple[str, int], str]:
    """The source lines the findings point at, for formats that show them."""
    wanted: dict[str, set[int]] = {}
    for finding in findings:
        wanted.setdefault(finding.location.file, set()).add(finding.location.line)
    out: dict[tuple[str, int], str] = {}
    for source in files:
        lines = wanted.get(source.name)
        if not lines:
            continue
        text = source.text.split("\n")
        out.update(((source.name, n), text[n - 1].rstrip("\r")) for n in sorted(lines) if 0 < n <= len(text))
    return out
