"""The report of a ``check`` run, assembled from what the reading stage holds and the findings.

The last stage of the pipeline (:func:`dralint.pipeline.run.check`): it counts what was checked,
collects the source lines and relative paths the formats show, and keeps the rules that ran.
Presentation choices (colour, ``--quiet``, ``--show-suppressed``) are carried, not decided here.
"""

from __future__ import annotations

from collections.abc import Mapping

from dralint.api.versions import Target
from dralint.dataclass import dataclass
from dralint.findings import Finding
from dralint.read.workspace import Workspace
from dralint.report import CheckedObject, Report, Summary, locations
from dralint.rules import Rule

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
    checked = workspace.checked_files
    objects = tuple(
        CheckedObject(obj.file, obj.position(())[0], obj.ref())
        for obj in workspace.objects
        if not checked or obj.file in checked
    )
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
        excerpts=locations.excerpts(workspace.files, findings),
        **locations.source_paths([*checked, *(f.location.file for f in findings)]),
    )
