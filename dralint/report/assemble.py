"""The report of a ``check`` run, assembled from what the reading stage holds and the findings.

The last stage of the pipeline (:func:`dralint.pipeline.run.check`): it counts what was checked,
collects the source lines and relative paths the formats show, and keeps the rules that ran.
Presentation choices (colour, ``--quiet``, ``--show-suppressed``) are carried, not decided here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from dralint.api.versions import Target
from dralint.dataclass import dataclass
from dralint.findings import Finding
from dralint.read import sources
from dralint.read.workspace import Workspace
from dralint.report import CheckedObject, Report, Summary, locations
from dralint.rules import Rule

if TYPE_CHECKING:
    from dralint.api.objects import KubeObject

__all__ = ["Presentation", "check_report"]


@dataclass(frozen=True, slots=True)
class Presentation:
    """How the human formats show the report (chosen on the command line)."""

    color: bool = False
    show_suppressed: bool = False
    quiet: bool = False


def check_report(
    workspace: Workspace,
    findings: list[Finding],
    rules: Mapping[str, Rule],
    enabled: frozenset[str],
    target: Target,
    fail_on: str,
    presentation: Presentation,
) -> Report:
    """The report of ``findings`` on ``workspace``: counts and objects are of the checked files only."""
    objects = tuple(
        CheckedObject(*_source_of(workspace, obj), obj.ref())
        for obj in workspace.objects
        if not workspace.checked_files or obj.file in workspace.checked_files
    )
    # A stream dralint rendered is no file of the user's: what was rendered, and the files its objects
    # came from, stand for it.
    checked = frozenset(
        name for name in workspace.checked_files if not sources.is_rendered(name) and name not in workspace.source_maps
    )
    if workspace.source_maps:
        checked |= {o.file for o in objects}
    return Report(
        findings=tuple(findings),
        summary=Summary(
            files=len(checked) if checked else len(workspace.files),
            documents=sum(1 for d in workspace.documents if not checked or d.file in checked),
            objects=len(objects),
            other_documents=workspace.other_documents,
            skipped_files=tuple(workspace.skipped),
        ),
        target={"kubernetesVersion": target.release, "featureGates": dict(sorted(target.gates.items()))},
        color=presentation.color,
        rules={rule_id: rules[rule_id] for rule_id in sorted(enabled)},
        objects=objects,
        files=tuple(sorted(checked)),
        show_suppressed=presentation.show_suppressed,
        quiet=presentation.quiet,
        fail_on=fail_on,
        excerpts=locations.excerpts([*workspace.files, *_rendered_sources(workspace, findings)], findings),
        **locations.source_paths([*checked, *(f.location.file for f in findings)]),
    )


def _source_of(workspace: Workspace, obj: KubeObject) -> tuple[str, int]:
    """The file and line of an object: where it was written, for an object of a rendered stream."""
    source_map = workspace.source_maps.get(obj.file)
    if source_map is None:
        return obj.file, obj.position(())[0]
    location, _ = source_map.locate(obj.document, obj.prefix, None)
    return location.file, location.line


def _rendered_sources(workspace: Workspace, findings: list[Finding]) -> list[sources.SourceFile]:
    """The user's files that findings of rendered streams point at (read for their excerpts; not inputs)."""
    if not workspace.source_maps:
        return []
    read = {source.name for source in workspace.files}
    wanted = sorted({f.location.file for f in findings} - read)
    return [sources.read(name) for name in wanted if os.path.isfile(name)]
