"""A check kept warm between edits (what the language server runs): each file is read and checked
on its own once, and an edit re-reads and re-checks only the file it changed.

The run is the one ``dralint check`` makes (:func:`dralint.pipeline.run.checking`, the local
checks per file as ``--jobs`` runs them in :mod:`dralint.pipeline.parallel`, then the checks
across objects, then suppressions), cut at the seam between the two kinds of checks:

- the **local** part of a file (its documents and objects, and the findings of the checks that
  look at one object at a time, run when the file's findings are first asked for: the editor
  shows a few files of thousands) is kept per file and rebuilt only when that file changes;
- the **global** part (references, the dry-run, everything that reads the whole input) is run
  on a :class:`Snapshot` of every part, which the caller may run in a thread: it never mutates
  the session. Until it is done, :meth:`Session.quick` gives the local findings with the last
  global findings moved to where their objects now are, so an edit shows its own findings
  at once and the cross-file ones follow.

Unsaved buffers replace their files (:meth:`Session.set_text`): a template edited in one
editor tab changes the findings of the Deployment open in another once the global part ran.
What dralint renders (a kustomization, a Helm chart, once a file of it is opened) is one part
named after it, rendered again when one of its files is saved (the renderers read the disk).
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import field

from dralint.api.objects import KubeObject
from dralint.api.ref import ObjectRef
from dralint.dataclass import dataclass
from dralint.errors import InputError
from dralint.findings import Finding, Location
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext, Options
from dralint.pipeline.run import Checking
from dralint.read import helm_template, manifests, sources
from dralint.read.helm_template import HelmChart, RenderFailure, chart_of
from dralint.read.load import Input, load_files, merge, settled
from dralint.read.workspace import Workspace
from dralint.read.yamldoc import Document
from dralint.suppress import Suppressor


@dataclass(slots=True, eq=False)
class Part:
    """One file, loaded on its own: its workspace, a version, and its local findings once asked for."""

    name: str
    checked: bool
    workspace: Workspace
    version: int
    found: engine.Found | None = None  # the local checks run when the file's findings are first wanted


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every part at one moment, in input order: what the global checks run on."""

    parts: tuple[Part, ...]

    def workspace(self) -> Workspace:
        return settled(merge([part.workspace for part in self.parts]))

    def versions(self) -> dict[str, int]:
        return {part.name: part.version for part in self.parts}


@dataclass(slots=True)
class GlobalResult:
    """The findings of the checks across objects on a snapshot, and the context they were computed in."""

    found: engine.Found
    context: CheckContext
    versions: dict[str, int] = field(default_factory=dict)


HELM_MISSING = "Helm charts are not rendered: helm is not on PATH, so their templates get no diagnostics"


class Session:
    """The warm state of one workspace: configuration, per-file parts, the overlay of unsaved texts."""

    def __init__(self, checking: Checking, *, simulate: bool = True) -> None:
        self.checking = checking
        plan = checking.plan
        self.options: Options = plan.options(simulate=simulate, rule_options=checking.selection.options)
        self._inputs: list[Input] = []
        self._parts: dict[str, Part] = {}
        self._overlay: dict[str, str] = {}
        self._version = 0
        self._global: engine.Found = []
        self.notices: list[str] = []  # what the user should be told once (helm is not installed)
        # Guards the parts, the overlay and the global findings: an edit is decoded in a thread
        # while the event loop answers requests, and the checks across files run in another.
        self._lock = threading.Lock()

    def take_notices(self) -> list[str]:
        """What the user should be told (once) since last asked: helm is not installed."""
        with self._lock:
            notices, self.notices = self.notices, []
        return notices

    # --- the files ---------------------------------------------------------------------------

    def index(self, files: Sequence[Input], *, cancelled: Callable[[], bool] | None = None) -> int:
        """Load ``files`` ((path, checked) pairs, as :meth:`Plan.inputs` gives them), each as a part of its own.

        May run in a thread while documents are opened and edited: each file is decoded outside the
        lock and added unless a buffer already put it there. ``cancelled`` is asked between files
        (the server started over, or is shutting down). Returns how many files were loaded.
        """
        with self._lock:
            named = {name for name, _ in files}
            # Documents opened before the index began keep their place after the indexed files.
            self._inputs = [*files, *(pair for pair in self._inputs if pair[0] not in named)]
        loaded = 0
        for name, checked in files:
            if cancelled is not None and cancelled():
                break
            with self._lock:
                if name in self._parts:
                    continue
                self._version += 1
                version, text = self._version, self._overlay.get(name)
            part = self._load(name, checked, text, version)
            with self._lock:
                self._parts.setdefault(name, part)
            loaded += 1
        return loaded

    @property
    def files(self) -> list[str]:
        return [name for name, _ in self._inputs]

    def has(self, name: str) -> bool:
        return name in self._parts

    def documents(self, name: str) -> list[Document]:
        """The documents of ``name`` as last checked (empty for a file the session does not know)."""
        part = self._parts.get(name)
        return part.workspace.documents if part is not None else []

    def text(self, name: str) -> str | None:
        """The text of ``name`` as checked (the unsaved buffer when there is one)."""
        part = self._parts.get(name)
        if part is None or not part.workspace.files:
            return self._overlay.get(name)
        return part.workspace.files[0].text

    def set_text(self, name: str, text: str | None) -> bool:
        """Check ``name`` with ``text`` instead of what the file holds (``None``: the file again).

        A file the session did not know is added as a checked file. Returns whether the objects
        of the file changed (then the global part must run again; an edit of comments or
        layout only moves the findings). May run in a thread (one call at a time): the text is
        decoded outside the session's lock, so a 10 MB paste does not hold up the other calls.
        """
        with self._lock:
            if text is None:
                self._overlay.pop(name, None)
            else:
                self._overlay[name] = text
            rendered = name not in self._parts and bool(self._renderers({name}))
        chart = _chart_input(name)
        if (rendered or chart is not None) and text is not None and not _saved_as(name, text):
            return False  # kustomize and helm read the disk: an unsaved edit of what they render is checked once saved
        return self.reload(chart if chart is not None else name)

    def reload(self, name: str) -> bool:
        """Read ``name`` again (saved, created or deleted on disk); see :meth:`set_text` for the result.

        A file that a rendered part (a kustomization) is built from is not a part of its own: that
        part is rendered again instead, from the files as saved (the renderer reads the disk).
        """
        chart = _chart_input(name)
        with self._lock:
            renderers = [] if name in self._parts else self._renderers({name})
            if chart is not None:  # a chart's file: the chart is rendered again if a file of it was opened
                renderers = [chart] if chart in self._parts else []
        if renderers or chart is not None:
            return any([self.reload(renderer) for renderer in renderers])
        with self._lock:
            old = self._parts.get(name)
            text = self._overlay.get(name)
            if text is None and not _exists(name):
                if old is None:
                    return False
                self._inputs = [pair for pair in self._inputs if pair[0] != name]
                del self._parts[name]
                self._global = [pair for pair in self._global if pair[0].location.file != name]
                return True
            checked = old.checked if old is not None else dict(self._inputs).get(name, True)
            self._version += 1
            version = self._version
        new = self._load(name, checked, text, version)
        with self._lock:
            if all(known != name for known, _ in self._inputs):
                self._inputs.append((name, True))
            self._parts[name] = new
            self._global = _moved(self._global, {name: new})
        return old is None or _contents(old) != _contents(new)

    def _renderers(self, names: Collection[str]) -> list[str]:
        """The parts rendered from one of the files ``names`` (call with the lock held)."""
        return [
            part.name
            for part in self._parts.values()
            if any(not source_map.files.isdisjoint(names) for source_map in part.workspace.source_maps.values())
        ]

    def _load(self, name: str, checked: bool, text: str | None, version: int) -> Part:
        overlay: dict[str, str | RenderFailure] | None = {name: text} if text is not None else None
        chart = chart_of(name)
        if chart is not None and overlay is None:
            if not helm_template.installed():  # said (once), and the chart has no findings
                with self._lock:
                    self.notices.append(HELM_MISSING)
                return Part(name, checked, Workspace(), version)
            try:
                limit = self.checking.plan.limits.max_file_bytes
                overlay = {name: helm_template.render(HelmChart(chart), max_bytes=limit)}
            except InputError as error:  # helm could not be run
                with self._lock:
                    self.notices.append(f"{chart}: the chart is not rendered: {error}")
                return Part(name, checked, Workspace(), version)
        workspace = load_files([(name, checked)], limits=self.checking.plan.limits, overlay=overlay)
        return Part(name, checked, workspace, version)

    def _local(self, part: Part) -> engine.Found:
        """The findings of the checks of one object at a time on ``part`` (run once per version of the file)."""
        if part.found is None:
            context = CheckContext(part.workspace, self.checking.plan.target, self.options)
            part.found = engine.collect(context, self.checking.rules, self.checking.selection, "local")
        return part.found

    # --- the checks --------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        with self._lock:
            return Snapshot(tuple(self._parts[name] for name, _ in self._inputs if name in self._parts))

    def run_global(self, snapshot: Snapshot) -> GlobalResult:
        """The checks across objects on ``snapshot`` (reads the session's configuration only: safe in a thread)."""
        context = CheckContext(snapshot.workspace(), self.checking.plan.target, self.options)
        rules, selection = self.checking.rules, self.checking.selection
        found = engine.collect(context, rules, selection, "global")
        # The late checks read every finding: the local ones of each part too (cached per version of a file).
        local = [pair for part in snapshot.parts for pair in self._local(part)]
        found += engine.late(context, rules, selection, [*local, *found])
        return GlobalResult(found, context, snapshot.versions())

    def accept(self, result: GlobalResult) -> None:
        """Keep ``result`` as the global findings, moved into the files edited since its snapshot."""
        with self._lock:
            edited = {name: part for name, part in self._parts.items() if result.versions.get(name) != part.version}
            gone = set(result.versions) - set(self._parts)
            found = [pair for pair in result.found if pair[0].location.file not in gone]
            self._global = _moved(found, edited)

    def quick(self, names: Collection[str]) -> tuple[CheckContext, list[Finding]]:
        """The findings of the files ``names`` now: local ones as they are, global ones as last computed (moved).

        Only those files are read for suppressions, so the cost does not grow with the workspace.
        """
        with self._lock:
            charts = {chart for chart in map(_chart_input, names) if chart is not None}
            wanted = {*names, *self._renderers(names), *charts}
            parts = [self._parts[name] for name, _ in self._inputs if name in wanted and name in self._parts]
            moved = list(self._global)
        workspace = settled(merge([part.workspace for part in parts]))
        context = CheckContext(workspace, self.checking.plan.target, self.options)
        found = [pair for part in parts for pair in self._local(part)]
        shown = workspace.checked_files | {file for m in workspace.source_maps.values() for file in m.files}
        found += [pair for pair in moved if pair[0].location.file in shown]
        return context, self.finish(context, found)

    def finish(self, context: CheckContext, found: engine.Found) -> list[Finding]:
        """Suppressions applied (and reported on), sorted: :func:`engine.finish` with this run's suppressions."""
        checking = self.checking
        suppressor = Suppressor(context, checking.rules, exceptions=checking.exceptions, root=checking.plan.root)
        return engine.finish(context, checking.rules, checking.selection, list(found), suppressor, late_checks=False)


def _chart_input(name: str) -> str | None:
    """The input of the Helm chart whose file (``Chart.yaml``, values, a template) ``name`` is, if it is one."""
    folder = manifests.chart_folder(name)
    return HelmChart(sources.display(os.path.relpath(folder))).name if folder is not None else None


def _exists(name: str) -> bool:
    """Whether the input ``name`` is still there: its file, or the chart it renders."""
    chart = chart_of(name)
    return os.path.isfile(os.path.join(chart, "Chart.yaml")) if chart is not None else os.path.isfile(name)


def _saved_as(name: str, text: str) -> bool:
    """Whether the file ``name`` holds ``text`` (a buffer just opened, saved or reverted)."""
    try:
        with open(name, encoding="utf-8", newline="") as handle:
            return handle.read() == text
    except (OSError, UnicodeDecodeError):
        return False


def _contents(part: Part) -> list[tuple[str, str, object]]:
    """What the global checks read of a part: its objects' content (not their positions, not comments)."""
    return [(obj.api_version, obj.kind, obj.raw) for obj in part.workspace.objects]


def _identity(obj: KubeObject) -> ObjectRef:
    return obj.ref()


def _moved(found: engine.Found, parts: Mapping[str, Part]) -> engine.Found:
    """Findings of the edited files (``parts``) moved to where their objects are now; others unchanged.

    A finding about an object that is still there (same apiVersion, kind, namespace, name)
    follows it: by the lines the object moved when its content is the same, else to the
    position of the finding's path in the new text. Findings about objects that are gone, or
    about the file itself, are dropped until the global checks run again.
    """
    if not parts:
        return found
    now: dict[str, dict[ObjectRef, KubeObject]] = {}
    for name, part in parts.items():
        objects: dict[ObjectRef, KubeObject] = {}
        for obj in part.workspace.objects:
            objects.setdefault(_identity(obj), obj)
        now[name] = objects
    out: engine.Found = []
    for finding, written in found:
        in_file = now.get(finding.location.file)
        if in_file is None:
            out.append((finding, written))
            continue
        moved_to = in_file.get(_identity(written)) if written is not None else None
        if written is not None and moved_to is not None:
            out.append((dataclasses.replace(finding, location=_follow(finding, written, moved_to)), moved_to))
    return out


def _follow(finding: Finding, old: KubeObject, new: KubeObject) -> Location:
    where = finding.location
    if old.raw == new.raw:
        shift = new.position(())[0] - old.position(())[0]
        return Location(where.file, where.line + shift, where.column)
    line, column = new.document.position(new.prefix + finding.path)
    return Location(where.file, line, column)


def findings_by_file(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    out: dict[str, list[Finding]] = {}
    for finding in findings:
        out.setdefault(finding.location.file, []).append(finding)
    return out
