"""The first pipeline stages: paths → files → documents → identified objects (a :class:`Workspace`)."""

from __future__ import annotations

import gc
import os
from collections.abc import Mapping, Sequence

from dralint import progress
from dralint.api.objects import identify
from dralint.process import freeze_loaded
from dralint.read import helm, kustomize, kustomized, manifests, sources
from dralint.read.helm_template import RenderFailure, chart_of
from dralint.read.issues import DecodeIssue
from dralint.read.workspace import Workspace
from dralint.read.yamldoc import Limits, decode

Input = tuple[str, bool]  # a file to read, and whether findings are reported for it (else it is context)


def load(
    checked: Sequence[str],
    context: Sequence[str] = (),
    *,
    stdin_name: str = sources.STDIN,
    exclude: Sequence[str] = (),
    limits: Limits | None = None,
) -> Workspace:
    """Load the checked paths (findings are reported for them) and context paths (read only)."""
    return load_files(inputs(checked, context, exclude=exclude), stdin_name=stdin_name, limits=limits)


def inputs(
    checked: Sequence[str], context: Sequence[str] = (), *, exclude: Sequence[str] = (), path_order: bool = False
) -> list[Input]:
    """The files to read, in reading order: checked ones first, then context files not already checked.

    With ``path_order``, checked and context files are read in one path order instead (standard input
    first), the order a directory walk over all of them gives: the dry-run places pods in reading order,
    so checking some files of a repository with the rest as context places them as checking all would.
    """
    walked = kustomize.unclaimed
    checked_files = sources.discover(checked, exclude=exclude, walked_filter=walked) if checked else []
    # The same file may be named two ways (apps/a.yaml checked, ../repo/apps/a.yaml as context): read it once.
    seen = {os.path.abspath(f) for f in checked_files}
    context_files = [
        f for f in sources.discover(context, exclude=exclude, walked_filter=walked) if os.path.abspath(f) not in seen
    ]
    files = [(f, True) for f in checked_files] + [(f, False) for f in context_files]
    if path_order:
        files.sort(key=lambda item: (item[0] != sources.STDIN, os.path.abspath(item[0]).split(os.sep)))
    return files


def load_files(
    files: Sequence[Input],
    *,
    stdin_name: str = sources.STDIN,
    limits: Limits | None = None,
    freeze: bool = False,
    overlay: Mapping[str, str | RenderFailure] | None = None,
) -> Workspace:
    """Read and decode ``files`` ((path, checked) pairs, in order) into a workspace.

    ``overlay`` maps paths (as in ``files``) to text that replaces what the file holds: an
    editor's unsaved buffers, checked as if they were saved (a path need not exist on disk), and
    rendered Helm charts (or why one did not render: a finding where helm says).

    The cyclic garbage collector is paused while loading (and enabled again after, if it was):
    the node trees are many small acyclic objects, and letting the collector rescan them
    triples the loading time. With ``freeze`` (a process-wide effect: only entry points ask for
    it) the loaded objects are then frozen out of future collections.
    """
    return merge(load_each(files, stdin_name=stdin_name, limits=limits, freeze=freeze, overlay=overlay))


def load_each(
    files: Sequence[Input],
    *,
    stdin_name: str = sources.STDIN,
    limits: Limits | None = None,
    freeze: bool = False,
    overlay: Mapping[str, str | RenderFailure] | None = None,
) -> list[Workspace]:
    """:func:`load_files`, one workspace per input (what the results cache keeps per file)."""
    manifests.forget_charts()  # charts may have come or gone since the last load (the language server)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _load(files, stdin_name=stdin_name, limits=limits, overlay=overlay or {})
    finally:
        if freeze:
            freeze_loaded()
        if was_enabled:
            gc.enable()


def _load(
    files: Sequence[Input], *, stdin_name: str, limits: Limits | None, overlay: Mapping[str, str | RenderFailure]
) -> list[Workspace]:
    max_file_bytes = limits.max_file_bytes if limits is not None else sources.DEFAULT_MAX_FILE_BYTES
    parts = []
    for count, (path, checked) in enumerate(files, 1):
        workspace = Workspace()
        parts.append(workspace)
        entry = overlay.get(path)
        failed = entry if isinstance(entry, RenderFailure) else None  # a chart that did not render
        text = "" if failed is not None else entry if isinstance(entry, str) else None
        wrapper = None  # where a rendered kustomization was built
        if text is None and kustomize.is_kustomization(path):
            source, wrapper = _rendered(path, workspace, max_file_bytes)
        elif text is not None:
            source = sources.from_text(path, text, max_bytes=max_file_bytes)
        else:
            source = sources.read(path, stdin_name=stdin_name, max_bytes=max_file_bytes)
        progress.update(files=count)  # skipped files were read too
        skipped = manifests.not_a_manifest(path, source.text) if source.text else None
        if skipped is not None:  # another tool's file: counted, not read further
            if checked:
                workspace.skipped.append((source.name, skipped))
            continue
        if checked:
            reported = {source.name}
            if wrapper is not None or source.name.endswith(RENDERED_SUFFIX):
                reported.add(source.name.removesuffix(RENDERED_SUFFIX))  # where a failed build is reported
            elif chart_of(path) is not None:
                reported.add(sources.display(os.path.join(str(chart_of(path)), "Chart.yaml")))
            if failed is not None:
                reported.add(failed.file)
            workspace.checked_files = frozenset(reported)
        if failed is not None:
            issue = DecodeIssue("render", failed.message, failed.line, failed.column, hint=failed.hint)
            workspace.issues.append((failed.file, issue))
        workspace.files.append(source)
        workspace.issues.extend((source.name, issue) for issue in source.issues)
        if not source.text:
            continue
        documents, issues = decode(source.name, source.text, limits)
        workspace.issues.extend((source.name, issue) for issue in issues)
        workspace.documents.extend(documents)
        if wrapper is not None:
            workspace.source_maps[source.name] = kustomized.source_map(
                source.name, kustomize.load(path), documents, wrapper
            )
        elif (path == sources.STDIN or chart_of(path) is not None) and helm.is_rendered_chart(source.text):
            workspace.source_maps[source.name] = helm.source_map(source.name, source.text, documents, chart_of(path))
        identified = identify(documents)
        workspace.objects.extend(identified.objects)
        workspace.broken.extend(identified.broken)
        workspace.list_documents.extend(identified.list_documents)
        if checked:  # the summary counts what was checked, not the context
            workspace.other_documents += identified.other_documents
    return parts


RENDERED_SUFFIX = sources.KUSTOMIZE_RENDERED


def _rendered(path: str, workspace: Workspace, max_file_bytes: int) -> tuple[sources.SourceFile, str | None]:
    """The kustomization ``path`` rendered, as a file named after it; a failed build is an issue of the kustomization
    (and no folder: the rendered stream then has no origins)."""
    kustomization = kustomize.load(path)
    rendering = kustomize.render(kustomization, max_bytes=max_file_bytes)
    name = kustomization.file + RENDERED_SUFFIX
    if rendering.error is not None:
        issue = DecodeIssue("render", rendering.error, rendering.line, rendering.column, hint=rendering.hint)
        workspace.issues.append((kustomization.file, issue))
        return sources.SourceFile(name, ""), None
    return sources.SourceFile(name, rendering.text), rendering.wrapper


def merge(parts: Sequence[Workspace]) -> Workspace:
    """One workspace of several loaded from consecutive slices of the inputs, as if loaded at once
    (the whole run's is then :func:`settled`)."""
    merged = Workspace()
    for part in parts:
        merged.files.extend(part.files)
        merged.documents.extend(part.documents)
        merged.objects.extend(part.objects)
        merged.broken.extend(part.broken)
        merged.list_documents.extend(part.list_documents)
        merged.other_documents += part.other_documents
        merged.skipped.extend(part.skipped)
        merged.issues.extend(part.issues)
        merged.source_maps.update(part.source_maps)
    merged.checked_files = frozenset().union(*(part.checked_files for part in parts))
    return merged


def settled(workspace: Workspace) -> Workspace:
    """The workspace of a whole run (not of a slice of its inputs): when every checked file was
    skipped (not a manifest), nothing is checked, and the context goes too.

    An empty set of checked files stands for "all of them" downstream, which would report on
    the context instead.
    """
    if workspace.checked_files or not workspace.skipped:
        return workspace
    return Workspace(skipped=workspace.skipped)
