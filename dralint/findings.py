"""The finding model: what a check reports (a :class:`Violation`) and what the user sees (a :class:`Finding`).

Checks yield violations: a rule id, the object, the field path and a message. The engine turns
them into findings by stamping the rule's name and configured severity, resolving the path to a
file position, and applying suppressions. Checks never decide severities or positions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Literal

from dralint.api.ref import ObjectRef
from dralint.apimachinery.fieldpath import Path, render
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.api.objects import KubeObject

__all__ = [
    "SEVERITIES",
    "SEVERITY_RANK",
    "Finding",
    "Location",
    "ObjectRef",
    "Replacement",
    "Severity",
    "Suppression",
    "Violation",
]

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
SEVERITY_RANK: dict[str, int] = {"info": 1, "warning": 2, "error": 3}


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A 1-based position in an input file (``file`` as the user named it, or ``-`` for stdin)."""

    file: str
    line: int
    column: int


SuppressionKind = Literal["annotation", "comment", "config", "baseline"]


@dataclass(frozen=True, slots=True)
class Suppression:
    """Why a finding is not counted: which kind of suppression matched it, and the reason given."""

    kind: SuppressionKind
    reason: str

    @property
    def in_source(self) -> bool:
        """Written in the manifest itself (SARIF ``inSource``) rather than beside it (``external``)."""
        return self.kind in ("annotation", "comment")


@dataclass(frozen=True, slots=True)
class Replacement:
    """A did-you-mean an editor can apply: ``old``, written at (or after) the finding's position, becomes ``new``.

    The hint says the same in words; this is the machine-readable half, for the language
    server's quick fixes (a misspelt attribute, class name or apiVersion).
    """

    old: str
    new: str


# Extra (name, value) pairs for machine-readable output; values are JSON-shaped.
Details = tuple[tuple[str, object], ...]


@dataclass(frozen=True, slots=True)
class Violation:
    """What a check yields: a rule broken at a path of an object (or at an explicit location).

    ``path`` is relative to ``obj`` in its canonical (v1) shape, and the engine maps it back to
    the user's source shape; checks that read the user's shape directly (schema validation)
    set ``source_path``. ``location`` is used instead for defects found before there is an
    object (YAML syntax errors, unreadable files).
    """

    rule: str
    message: str
    obj: KubeObject | None = None
    path: Path = ()
    hint: str | None = None
    location: Location | None = None
    source_path: bool = False
    # For positions inside a string value (a CEL expression): character offset into that value.
    offset: int | None = None
    # Extra data for machine-readable output (e.g. the explanation of an unsatisfiable claim).
    details: Details = field(default=())
    replacement: Replacement | None = None  # the did-you-mean of the hint, when there is one
    # Objects that take part in what the finding says (the workloads competing for the devices, the classes
    # and slices of the dry-run): a finding on a file that is only context is reported when one of them is in
    # a checked file, so that a change that breaks another file is caught where the change is checked.
    involves: tuple[KubeObject, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Finding:
    """A reported finding, fully resolved: rule, severity, position, object and field path."""

    rule: str
    name: str
    severity: Severity
    message: str
    location: Location
    object: ObjectRef | None = None
    path: Path = ()
    hint: str | None = None
    suppressed: Suppression | None = None  # set when a suppression matched
    # Structured extras for machine-readable output (the full numbers a bounded message summarises).
    details: Details = field(default=(), compare=False)
    replacement: Replacement | None = field(default=None, compare=False)  # see Violation.replacement

    @property
    def path_text(self) -> str:
        return render(self.path)

    def sort_key(self) -> tuple[str, int, int, str, str, str]:
        return (
            self.location.file,
            self.location.line,
            self.location.column,
            self.rule,
            self.message,
            render(self.path),
        )


def exit_code(findings: Iterable[Finding], fail_on: str) -> int:
    """The exit code of a run that found ``findings``: 1 when an unsuppressed finding is at or above
    ``fail_on`` (``never`` never fails), else 0."""
    if fail_on == "never":
        return 0
    threshold = SEVERITY_RANK[fail_on]
    return int(any(f.suppressed is None and SEVERITY_RANK[f.severity] >= threshold for f in findings))
