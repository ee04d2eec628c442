"""Output formats. Each module renders a finished :class:`Report` and decides nothing.

The registry is explicit; modules are imported only when their format is asked for. Every
report carries all findings, suppressed ones included: formats with a native notion of
suppression (SARIF ``suppressions``, JUnit ``skipped``) always show them, the others only
with ``show_suppressed``.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
from collections.abc import Callable, Iterable, Mapping
from contextlib import ExitStack
from dataclasses import field
from typing import Any, TextIO

from dralint.dataclass import dataclass
from dralint.errors import UsageError
from dralint.findings import Finding, ObjectRef
from dralint.report import escape
from dralint.rules import Rule

FORMATS: dict[str, str] = {
    "concise": "dralint.report.text",
    "full": "dralint.report.full",
    "github": "dralint.report.github",
    "json": "dralint.report.json_format",
    "junit": "dralint.report.junit",
    "sarif": "dralint.report.sarif",
    "text": "dralint.report.text",  # the name of concise before full existed; kept for scripts
}
# What each format needs done to text from the input before it renders it (report/escape.py).
ESCAPES: dict[str, Callable[[str], str]] = {
    "github": escape.for_terminal,
    "json": escape.for_unicode,
    "junit": escape.for_xml,
    "sarif": escape.for_unicode,
    "text": escape.for_terminal,
}
# The full format escapes the source lines it shows itself (report/full.py), keeping carets aligned.
ESCAPES |= {"concise": escape.for_terminal, "full": escape.for_terminal}
AUTO = "auto"  # github under GitHub Actions, full on a terminal, concise elsewhere (decided by the check command)
DOCS_URL = "https://github.com/dralint/dralint/blob/main/docs/rules/{id}.md"


@dataclass(frozen=True, slots=True)
class Summary:
    files: int
    documents: int
    objects: int
    other_documents: int
    skipped_files: tuple[tuple[str, str], ...] = ()  # checked files that are not manifests, and why


@dataclass(frozen=True, slots=True)
class CheckedObject:
    """An object of a checked file (JUnit reports one test case per object, passing or not)."""

    file: str
    line: int
    ref: ObjectRef


@dataclass(frozen=True, slots=True)
class Report:
    """What a ``check`` run produced, ready to render."""

    findings: tuple[Finding, ...]
    summary: Summary
    target: dict[str, Any] = field(default_factory=dict)  # release and gates, for machine formats
    color: bool = False
    rules: Mapping[str, Rule] = field(default_factory=dict)  # the rules that ran, by id
    objects: tuple[CheckedObject, ...] = ()
    files: tuple[str, ...] = ()  # the checked files
    show_suppressed: bool = False
    fail_on: str = "error"
    # (file, line) -> the text of that line, for the lines findings point at (the full format shows them)
    excerpts: Mapping[tuple[str, int], str] = field(default_factory=dict)
    # Where the files are, for formats that need URIs (SARIF): the directory every checked file is
    # under (the git repository, or the current directory) as a file URI ending in "/", and each
    # file's path relative to it. Empty when unknown: paths are then used as they are shown.
    source_root: str = ""
    relative_paths: Mapping[str, str] = field(default_factory=dict)
    quiet: bool = False  # --quiet: the human formats print the findings and nothing else

    @property
    def active(self) -> tuple[Finding, ...]:
        """The findings that count (not suppressed)."""
        return tuple(f for f in self.findings if f.suppressed is None)

    @property
    def suppressed(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.suppressed is not None)

    @property
    def shown(self) -> tuple[Finding, ...]:
        """The findings formats without a notion of suppression print."""
        return self.findings if self.show_suppressed else self.active


Renderer = Callable[[Report, TextIO], None]


# The formats with a ``statistics`` renderer (``--statistics``): the ones people read print counts per rule
# instead of the findings; github keeps its annotations (what a pull request shows) and logs the counts
# instead of one line per finding left without one. Machine formats always carry every finding.
STATISTICS: dict[str, str] = {
    "concise": "dralint.report.text",
    "full": "dralint.report.text",
    "github": "dralint.report.github",
    "text": "dralint.report.text",
}


def renderer(name: str, *, statistics: bool = False) -> Renderer:
    """The format's ``render``, given the report with its input text escaped as the format needs.

    ``statistics``: counts per rule instead of the findings, for the formats in :data:`STATISTICS`.
    """
    if statistics and name in STATISTICS:
        module = importlib.import_module(STATISTICS[name])
        function: Renderer = module.statistics
    else:
        module = importlib.import_module(FORMATS[name])
        function = module.render
    treat = ESCAPES[name]

    def render(report: Report, stream: TextIO) -> None:
        function(
            dataclasses.replace(
                report,
                findings=escape.strings(report.findings, treat),
                objects=escape.strings(report.objects, treat),
                files=escape.strings(report.files, treat),
                relative_paths=escape.strings(report.relative_paths, treat),
            ),
            stream,
        )

    return render


def help_uri(rule: Rule) -> str | None:
    """Where a rule's documentation is published (built-in rules only)."""
    return DOCS_URL.format(id=rule.id) if rule.builtin else None


def open_output(stack: ExitStack, path: str) -> TextIO:
    """``path`` opened for a report (UTF-8, ``\\n`` line ends), closed with ``stack``; a usage error if it cannot."""
    try:
        return stack.enter_context(open(path, "w", encoding="utf-8", newline="\n"))
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def refuse_replacing_manifests(paths: Iterable[str], manifests: Iterable[str]) -> None:
    """A usage error if a report file would replace one of ``manifests`` (files that hold Kubernetes
    objects): ``-o app.yaml`` for ``-o app.json``. A file of an earlier report, read back as
    input, holds no objects and may be replaced."""
    outputs = {_file_id(path): path for path in paths if os.path.isfile(path)}
    if not outputs:
        return
    for manifest in manifests:
        path = outputs.get(_file_id(manifest))
        if path is not None:
            raise UsageError(f"-o {path}: it is one of the manifests read; write the report to another file")


def _file_id(path: str) -> tuple[int, int] | None:
    """The device and inode of ``path`` (what ``os.path.samefile`` compares), ``None`` when it cannot be read."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_dev, status.st_ino)
