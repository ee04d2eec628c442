"""The first pipeline stages: paths → files → documents → identified objects (a :class:`Workspace`)."""

from __future__ import annotations

import gc
from collections.abc import Sequence

from dralint import sources
from dralint.api.objects import identify
from dralint.context import Workspace
from dralint.yamldoc import Limits, decode


def load(
    checked: Sequence[str],
    context: Sequence[str] = (),
    *,
    stdin_name: str = sources.STDIN,
    exclude: Sequence[str] = (),
    limits: Limits | None = None,
    max_file_bytes: int = sources.DEFAULT_MAX_FILE_BYTES,
) -> Workspace:
    """Load the checked paths (findings are reported for them) and context paths (read only).

    The cyclic garbage collector is paused while loading: the node trees are many small
    acyclic objects, and letting the collector rescan them triples the loading time. The
    loaded objects are then frozen out of future collections.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _load(
            checked, context, stdin_name=stdin_name, exclude=exclude, limits=limits, max_file_bytes=max_file_bytes
        )
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def _load(
    checked: Sequence[str],
    context: Sequence[str],
    *,
    stdin_name: str,
    exclude: Sequence[str],
    limits: Limits | None,
    max_file_bytes: int,
) -> Workspace:
    checked_files = sources.discover(checked, exclude=exclude) if checked else []
    context_files = [f for f in sources.discover(context, exclude=exclude) if f not in checked_files] if context else []
    workspace = Workspace()
    reported: set[str] = set()
    for path in [*checked_files, *context_files]:
        source = sources.read(path, stdin_name=stdin_name, max_bytes=max_file_bytes)
        if path in checked_files:
            reported.add(source.name)
        workspace.files.append(source)
        workspace.issues.extend((source.name, issue) for issue in source.issues)
        if not source.text:
            continue
        documents, issues = decode(source.name, source.text, limits)
        workspace.issues.extend((source.name, issue) for issue in issues)
        workspace.documents.extend(documents)
        identified = identify(documents)
        workspace.objects.extend(identified.objects)
        workspace.broken.extend(identified.broken)
        workspace.list_documents.extend(identified.list_documents)
        workspace.other_documents += identified.other_documents
    workspace.checked_files = frozenset(reported)
    return workspace
