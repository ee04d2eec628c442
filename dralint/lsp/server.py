"""The language server: LSP over stdio (pygls) around a warm :class:`dralint.pipeline.session.Session`.

On ``initialize`` the workspace's configuration is read and its manifests and inventory are
indexed (the files ``dralint check .`` would read there). Opening or editing a document (after
a debounce) re-checks that document alone and publishes at once; the checks across files (the
dry-run included) then run in a thread on a snapshot, and every open document's diagnostics are
published again when they are done. Unsaved buffers replace their files throughout. A file of a
Helm chart (a template, ``values.yaml``, ``Chart.yaml``) renders its chart with helm when it is
opened or saved, and the chart's findings are published on its templates (a chart that does not
render: on the template helm names, or ``Chart.yaml``); without helm, the user is told once.

Nothing the client sends may stop the server: a request that fails is logged (``window/logMessage``
with the traceback) and answered with nothing, and the diagnostics already published stay.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path
from pygls.workspace import TextDocument

from dralint import __version__
from dralint.api.objects import KubeObject
from dralint.config import CONFIG_NAMES, PYPROJECT
from dralint.errors import DralintError
from dralint.findings import Finding, Replacement
from dralint.lsp import actions, selectors
from dralint.lsp.ranges import Position, finding_range
from dralint.pipeline import run as pipeline
from dralint.pipeline.context import CheckContext
from dralint.pipeline.session import GlobalResult, Session, Snapshot, findings_by_file
from dralint.read import sources
from dralint.read.load import Input
from dralint.report import help_uri
from dralint.rules import render as rule_docs

DEBOUNCE_SECONDS = 0.2  # a burst of keystrokes is checked once (initializationOptions: {"debounce": ms})
SOURCE = "dralint"
CHECKED_ACROSS_FILES = "dralint: checks across files done:"  # logged when the cross-file diagnostics are out
INDEXED = "dralint: indexed"  # logged when the workspace's files are read
# The workspace's files read at most (initializationOptions: {"maxFiles": N}); open documents come on top.
MAX_FILES = 2000
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}
_T = TypeVar("_T")
log = logging.getLogger("dralint.lsp")


class DralintServer(LanguageServer):
    """The server's state: the session, the open documents' findings, and the scheduling of checks."""

    def __init__(self) -> None:
        super().__init__("dralint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.session: Session | None = None
        self.root = os.getcwd()
        self.options: Any = None  # initializationOptions
        self.watch_files = False  # the client lets the server register file watchers
        self.debounce = DEBOUNCE_SECONDS
        self.findings: dict[str, list[Finding]] = {}
        self.context: CheckContext | None = None  # of the last global run: the inventory hover reads
        self.facts = selectors.Facts()
        self.dirty: set[str] = set()  # documents edited since they were last checked
        self._timer: asyncio.TimerHandle | None = None
        self._checking = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._global_running = False
        self._global_wanted = False
        self._global_started = 0.0
        self.global_runs = 0
        self.stopping = False  # after the client's shutdown request: nothing more is published
        self.max_files = MAX_FILES
        self.indexed = False  # the workspace's files are all read: the checks across files may run
        self._told_excluded: set[str] = set()
        self._told: set[str] = set()  # the session's notices already shown
        self._reporting = False

    # --- names and texts ---------------------------------------------------------------------

    def name_of(self, uri: str) -> str:
        """The file name findings use for ``uri`` (relative to the workspace root, as ``dralint check .`` names it)."""
        parsed = urlparse(uri)
        path = unquote(parsed.path) if parsed.scheme == "file" else uri
        relative = os.path.relpath(path, self.root) if os.path.isabs(path) else path
        return relative.replace(os.sep, "/")

    def uri_of(self, name: str) -> str:
        return from_fs_path(os.path.join(self.root, name)) or name

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        self.window_log_message(types.LogMessageParams(kind, message))

    def guarded(self, what: str, function: Callable[[], _T], default: _T) -> _T:
        """``function()``, or ``default`` with the error logged: nothing a client sends may stop the server.

        This is the server's equivalent of the command line's top-level handler (``cli._run``):
        an internal error in one request must not end the editor's session.
        """
        try:
            return function()
        except Exception as error:
            self.failed(what, error)
        return default

    def stop(self) -> None:
        """After the client's ``shutdown``: no re-check is scheduled and nothing more is published."""
        self.stopping = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls shows an error of the server to the client; when sending is what failed (the client
        closed the pipe, or the server is exiting), sending the report fails again, and pygls reports
        that failure in turn, without end (a hang writing ever longer tracebacks): report once."""
        if self._reporting or self.stopping:
            log.error("%s", error)
            return
        self._reporting = True
        try:
            super().report_server_error(error, source)
        finally:
            self._reporting = False

    def failed(self, what: str, error: BaseException) -> None:
        """Log why ``what`` failed: a dralint error in its one line, anything else (a bug) with its traceback."""
        if isinstance(error, DralintError):
            self.log(f"dralint: {what}: {error}", types.MessageType.Warning)
        else:
            trace = "".join(traceback.format_exception(error))
            self.log(f"dralint: internal error in {what}:\n{trace}", types.MessageType.Error)

    # --- the session -------------------------------------------------------------------------

    def start_session(self, root: str, options: Any) -> None:
        """Read the workspace's configuration (a broken one: the defaults, said so) and start indexing its files.

        The files ``dralint check .`` would read there (``.gitignore`` and ``exclude`` honoured), at
        most ``maxFiles`` of them, are read in a thread: documents opened meanwhile are checked on
        their own at once, and the checks across files run when the index is complete.
        """
        self.root = os.path.abspath(root)
        self.options = options
        os.chdir(self.root)  # configuration, globs and file names are relative to the workspace
        if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
            self.debounce = max(0.0, float(options["debounce"]) / 1000)
        if isinstance(options, dict) and isinstance(options.get("maxFiles"), int) and options["maxFiles"] > 0:
            self.max_files = options["maxFiles"]
        try:
            checking = pipeline.checking(pipeline.Request())
        except DralintError as error:
            self.window_show_message(
                types.ShowMessageParams(types.MessageType.Error, f"dralint: {error}; using the default configuration")
            )
            checking = pipeline.checking(pipeline.Request(no_config=True))
        session = Session(checking)
        self.facts = selectors.Facts(profiles=checking.plan.profiles)  # until the inventory is read
        for uri, document in self.workspace.text_documents.items():  # a restart keeps the unsaved buffers
            name = self.name_of(uri)
            if not checking.plan.excluded(name):
                session.set_text(name, document.source)
        self.session = session
        self.indexed = False
        self.index(session)

    def index(self, session: Session) -> None:
        """Find the workspace's files and read them into ``session`` in a thread; then run the checks across files."""
        started = time.perf_counter()
        plan, limit = session.checking.plan, self.max_files

        def cancelled() -> bool:  # the configuration changed (a new session), or the client is leaving
            return self.session is not session or self.stopping

        def work() -> tuple[int, str | None]:
            """How many files ``dralint check .`` would read (or why none), the first ``limit`` of them read."""
            try:
                files = plan.inputs(())
            except DralintError as error:  # a workspace without manifests yet: documents are added as they open
                return 0, str(error)
            chosen = _bounded(files, _inventory(plan), limit) if len(files) > limit else files
            session.index(chosen, cancelled=cancelled)
            return len(files), None

        future = _in_thread(work)
        future.add_done_callback(lambda done: self._indexed(session, done, started))

    def _indexed(self, session: Session, done: asyncio.Future[tuple[int, str | None]], started: float) -> None:
        if self.session is not session or self.stopping:
            return
        error = done.exception()
        if error is not None:  # what was read is used: the checks across files still run on it
            self.failed("indexing the workspace", error)
        else:
            found, problem = done.result()
            if problem is not None:
                self.log(f"dralint: {problem}")
            if found > self.max_files:
                self.window_show_message(
                    types.ShowMessageParams(
                        types.MessageType.Warning,
                        f"dralint: the workspace has {found} manifests, more than maxFiles ({self.max_files}): "
                        f"{self.max_files} are read for the checks across files (the inventory first); exclude "
                        "folders in .dralint.yaml (exclude:) or raise initializationOptions.maxFiles",
                    )
                )
        self.indexed = True
        took = (time.perf_counter() - started) * 1000
        self.log(f"{INDEXED} {len(session.files)} files in {self.root} ({took:.0f} ms)")
        self.run_global()

    def excluded(self, name: str) -> bool:
        """Whether the configuration's ``exclude`` leaves ``name`` out: ``dralint check`` would not read it,
        so the server publishes nothing for it (said once in the log)."""
        session = self.session
        if session is None or not session.checking.plan.excluded(name):
            return False
        if name not in self._told_excluded:
            self._told_excluded.add(name)
            self.log(f"dralint: {name} is excluded by the configuration (exclude): not checked")
        return True

    def document_changed(self, uri: str) -> None:
        """Check ``uri`` again after the debounce (keystrokes in between restart the wait)."""
        self.dirty.add(uri)
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(self.debounce, self.check_dirty)

    def check_dirty(self) -> None:
        """Re-check the edited documents (in a thread), publish, and run the checks across files if contents changed."""
        self._timer = None
        task = asyncio.ensure_future(self._check_dirty())
        self._tasks.add(task)  # the loop keeps only weak references to tasks
        task.add_done_callback(self._tasks.discard)

    async def _check_dirty(self) -> None:
        async with self._checking:  # one re-check at a time: edits meanwhile wait for the next
            session = self.session
            dirty, self.dirty = self.dirty, set()
            if session is None or not dirty:
                return
            changed = False
            for uri in sorted(dirty):
                if self.excluded(self.name_of(uri)):
                    continue
                document = self.workspace.text_documents.get(uri)
                text = document.source if document is not None else None
                reread = partial(session.set_text, self.name_of(uri), text)
                changed |= await self.off_loop(f"reading {uri}", reread, False)
            self.tell(session)
            self.publish_quick()
            if changed:
                self.run_global()

    def tell(self, session: Session) -> None:
        """Show the session's notices (helm is not installed) to the user, each once."""
        for notice in session.take_notices():
            if notice not in self._told:
                self._told.add(notice)
                self.window_show_message(types.ShowMessageParams(types.MessageType.Warning, f"dralint: {notice}"))

    async def off_loop(self, what: str, function: Callable[[], _T], default: _T) -> _T:
        """:meth:`guarded` in a thread: decoding a 10 MB paste must not stop the server answering."""
        try:
            return await asyncio.get_running_loop().run_in_executor(None, function)
        except Exception as error:
            self.failed(what, error)
        return default

    def publish_quick(self) -> None:
        session = self.session
        if session is None:
            return
        names = {self.name_of(uri) for uri in self.workspace.text_documents}
        result = self.guarded("checking", partial(session.quick, names), None)
        if result is not None:
            self.publish(*result)

    def run_global(self) -> None:
        """Run the checks across files in a thread (one at a time; an edit meanwhile asks for one more run)."""
        session = self.session
        if session is None or not self.indexed:  # the end of the index runs them
            return
        if self._global_running:
            self._global_wanted = True
            return
        self._global_running = True
        self._global_started = time.perf_counter()
        snapshot = session.snapshot()
        future = _in_thread(partial(_run_global, session, snapshot))
        future.add_done_callback(lambda done: self._global_done(session, done))

    def _global_done(self, ran_on: Session, done: asyncio.Future[GlobalResult]) -> None:
        self._global_running = False
        self.global_runs += 1
        if self.stopping:  # the client asked the server to shut down while the checks ran
            return
        session = self.session
        error = done.exception()
        if session is not ran_on:  # the configuration changed meanwhile: the result is of another session
            self._global_wanted = True
        elif error is not None:
            self.failed("the checks across files", error)
        elif session is not None:
            result = done.result()
            self.guarded("collecting the findings", lambda: session.accept(result), None)
            self.context = result.context
            self.facts = self.guarded(
                "reading the inventory",
                lambda: selectors.facts(
                    (entry.slice for entry in result.context.inventory.slices), session.checking.plan.profiles
                ),
                selectors.Facts(profiles=session.checking.plan.profiles),
            )
            self.publish_quick()
            took = (time.perf_counter() - self._global_started) * 1000
            self.log(f"{CHECKED_ACROSS_FILES} {len(result.versions)} files in {took:.0f} ms")
        if self._global_wanted:
            self._global_wanted = False
            self.run_global()

    def publish(self, context: CheckContext, findings: list[Finding]) -> None:
        """Publish the diagnostics of every open document (suppressed findings are not shown)."""
        if self.stopping:
            return
        by_file = findings_by_file(f for f in findings if f.suppressed is None)
        objects = _objects_by_file(context.objects)
        for uri, document in list(self.workspace.text_documents.items()):
            name = self.name_of(uri)
            found = by_file.get(name, [])
            self.findings[name] = found
            diagnostics = [self.diagnostic(document, f, objects.get(name, {})) for f in found]
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=document.version)
            )

    def diagnostic(
        self, document: TextDocument, finding: Finding, objects: dict[tuple[object, ...], KubeObject]
    ) -> types.Diagnostic:
        lines = document.lines
        line = finding.location.line - 1
        text = lines[line].rstrip("\r\n") if 0 <= line < len(lines) else ""
        obj = objects.get(_key(finding)) if finding.object is not None else None
        start, end = finding_range(finding, text, obj)
        rule = self.session.checking.rules.get(finding.rule) if self.session is not None else None
        href = help_uri(rule) if rule is not None else None
        message = finding.message + (f"\nhint: {finding.hint}" if finding.hint else "")
        data: dict[str, Any] = {}
        if finding.replacement is not None:
            data["replacement"] = [finding.replacement.old, finding.replacement.new]
        return types.Diagnostic(
            range=self.client_range(document, start, end),
            message=message,
            severity=_SEVERITY[finding.severity],
            code=finding.rule,
            code_description=types.CodeDescription(href=href) if href else None,
            source=SOURCE,
            data=data or None,
        )

    def client_range(self, document: TextDocument, start: Position, end: Position) -> types.Range:
        codec = document.position_codec
        lines = document.lines
        return types.Range(
            codec.position_to_client_units(lines, types.Position(*start)),
            codec.position_to_client_units(lines, types.Position(*end)),
        )


_WORKER = "dralint-check"


def _in_thread(function: Callable[[], _T]) -> asyncio.Future[_T]:
    """``function()`` in a daemon thread, as a future of the running loop.

    Not the loop's executor: ``exit`` must not wait for the index of a large workspace or a
    dry-run of minutes to finish (asyncio waits for the executor's threads, Python for every
    thread that is not a daemon); the work is thrown away with the process.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[_T] = loop.create_future()

    def settle(result: _T | None, error: BaseException | None) -> None:
        if future.cancelled():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def work() -> None:
        result: _T | None = None
        error: BaseException | None = None
        try:
            result = function()
        except Exception as failed:  # reported by whoever awaits the future
            error = failed
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is gone
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, name=_WORKER, daemon=True).start()
    return future


def _run_global(session: Session, snapshot: Snapshot) -> GlobalResult:
    """The checks across files, in a thread; the driver profiles are read there too (once, about 150 ms
    for the shipped ones), so that the first hover or completion that needs them does not wait."""
    profiles = session.checking.plan.profiles
    for driver in profiles.drivers():
        try:
            profiles.get(driver)
        except DralintError:  # a broken profile: said when a hover, a completion or a check reads it
            continue
    return session.run_global(snapshot)


def _inventory(plan: pipeline.Plan) -> set[str]:
    """The files of the configured inventory (none when a path of it is missing: the checks say so)."""
    try:
        return set(plan.files(plan.effective.inventory))
    except DralintError:
        return set()


def _bounded(files: list[Input], inventory: set[str], limit: int) -> list[Input]:
    """``limit`` of ``files``, in their order: the inventory's first (every claim is dry-run against it),
    then the others."""
    ranked = [pair for pair in files if pair[0] in inventory] + [pair for pair in files if pair[0] not in inventory]
    kept = {name for name, _ in ranked[:limit]}
    return [pair for pair in files if pair[0] in kept]


def _key(finding: Finding) -> tuple[object, ...]:
    ref = finding.object
    assert ref is not None
    return (ref.api_version, ref.kind, ref.namespace, ref.name)


def _objects_by_file(objects: Sequence[KubeObject]) -> dict[str, dict[tuple[object, ...], KubeObject]]:
    out: dict[str, dict[tuple[object, ...], KubeObject]] = {}
    for obj in objects:
        ref = obj.ref()
        out.setdefault(obj.file, {}).setdefault((ref.api_version, ref.kind, ref.namespace, ref.name), obj)
    return out


# --- the features ------------------------------------------------------------------------------

server = DralintServer()


@server.feature(types.INITIALIZE)
def initialize(ls: DralintServer, params: types.InitializeParams) -> None:
    folders = params.workspace_folders or []
    uri = folders[0].uri if folders else params.root_uri
    root = unquote(urlparse(uri).path) if uri else (params.root_path or os.getcwd())
    ls.guarded("indexing the workspace", lambda: ls.start_session(root, params.initialization_options), None)
    watched = params.capabilities.workspace.did_change_watched_files if params.capabilities.workspace else None
    ls.watch_files = bool(watched and watched.dynamic_registration)


# Files whose changes on disk matter while they are not open: manifests and the configuration.
WATCHED = ("**/*.{yaml,yml,json,YAML,YML,JSON}", "**/.dralint.{yaml,yml}", "**/pyproject.toml")


@server.feature(types.INITIALIZED)
def initialized(ls: DralintServer, params: types.InitializedParams) -> None:
    if ls.watch_files:
        watchers = [types.FileSystemWatcher(glob_pattern=pattern) for pattern in WATCHED]
        registration = types.Registration(
            "dralint-watched-files",
            types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            types.DidChangeWatchedFilesRegistrationOptions(watchers),
        )
        ls.client_register_capability(types.RegistrationParams([registration]))
    ls.run_global()


@server.feature(types.SHUTDOWN)
def shutdown(ls: DralintServer, params: None) -> None:
    """Publish nothing more: the client stops reading after ``exit``, and a check still running must not write."""
    ls.stop()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: DralintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.dirty.add(params.text_document.uri)
    ls.check_dirty()


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: DralintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.document_changed(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: DralintServer, params: types.DidSaveTextDocumentParams) -> None:
    """What a renderer reads from the disk (a chart's file, a kustomization's) was saved: render it again."""
    ls.dirty.add(params.text_document.uri)
    ls.check_dirty()


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: DralintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    session = ls.session
    name = ls.name_of(uri)
    if (
        session is not None
        and session.has(name)
        and ls.guarded(f"closing {uri}", lambda: session.set_text(name, None), False)
    ):
        ls.run_global()
    ls.findings.pop(ls.name_of(uri), None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: DralintServer, params: types.DidChangeWatchedFilesParams) -> None:
    session = ls.session
    if session is None:
        return
    names = {os.path.basename(ls.name_of(event.uri)) for event in params.changes}
    if names & {*CONFIG_NAMES, PYPROJECT}:  # the configuration changed: start again with it
        ls.guarded("reading the configuration", lambda: ls.start_session(ls.root, ls.options), None)
        ls.publish_quick()
        ls.run_global()
        return
    changed = False
    for event in params.changes:
        if event.uri in ls.workspace.text_documents:
            continue  # the buffer is what counts while the document is open
        name = ls.name_of(event.uri)
        if not session.has(name) and (ls.excluded(name) or not sources.walked(name)):
            continue  # a new file that dralint check . would not read either
        changed |= ls.guarded(f"reading {name}", partial(session.reload, name), False)
    if changed:
        ls.publish_quick()
        ls.run_global()


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: DralintServer, params: types.HoverParams) -> types.Hover | None:
    return ls.guarded("hover", lambda: _hover(ls, params), None)


def _hover(ls: DralintServer, params: types.HoverParams) -> types.Hover | None:
    document = ls.workspace.get_text_document(params.text_document.uri)
    name = ls.name_of(document.uri)
    position = document.position_codec.position_from_client_units(document.lines, params.position)
    line, column = position.line, position.character
    parts: list[str] = []
    expression = _expression(ls, name, line, column)
    if expression is not None:
        offset = expression.offset(_lines(document), line, column)
        if offset is not None:
            reference = selectors.reference_at(expression.text, offset)
            if reference is not None:
                parts.append(ls.facts.describe(reference.kind, reference.domain, reference.name))
    session = ls.session
    for finding in ls.findings.get(name, []):
        diagnostic = ls.diagnostic(document, finding, {})
        if _contains(diagnostic.range, params.position) and session is not None:
            rule = session.checking.rules.get(finding.rule)
            if rule is not None:
                parts.append(f"{finding.rule}: {finding.message}\n\n---\n\n{rule_docs.markdown(rule)}")
    if not parts:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, "\n\n---\n\n".join(parts)))


def _contains(range_: types.Range, position: types.Position) -> bool:
    start, end = range_.start, range_.end
    return (start.line, start.character) <= (position.line, position.character) <= (end.line, end.character)


def _lines(document: TextDocument) -> list[str]:
    return document.source.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _expression(ls: DralintServer, name: str, line: int, column: int) -> selectors.Expression | None:
    session = ls.session
    if session is None or not session.has(name):
        return None
    documents = session.documents(name)
    return selectors.expression_at(documents, line, column)


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=['"', ".", "["]))
def completion(ls: DralintServer, params: types.CompletionParams) -> types.CompletionList | None:
    return ls.guarded("completion", lambda: _completion(ls, params), None)


def _completion(ls: DralintServer, params: types.CompletionParams) -> types.CompletionList | None:
    document = ls.workspace.get_text_document(params.text_document.uri)
    name = ls.name_of(document.uri)
    lines = _lines(document)
    position = document.position_codec.position_from_client_units(document.lines, params.position)
    line, column = position.line, position.character
    if line >= len(lines):
        return None
    # The buffer may not parse while a reference is half-typed: read the text before the cursor
    # on its line when the checked text has no expression there.
    expression = _expression(ls, name, line, column)
    offset = expression.offset(lines, line, column) if expression is not None else None
    before = expression.text[:offset] if expression is not None and offset is not None else lines[line][:column]
    found = selectors.completions(before, ls.facts)
    if not found:
        return None
    items = []
    for index, item in enumerate(found):  # in dralint's order (the inventory's domains first): sort_text
        start = document.position_codec.position_to_client_units(
            document.lines, types.Position(line, max(0, column - item.replace_from))
        )
        edit = types.TextEdit(types.Range(start, params.position), item.label)
        items.append(
            types.CompletionItem(
                label=item.label,
                detail=item.detail,
                kind=types.CompletionItemKind.Field,
                text_edit=edit,
                sort_text=f"{index:05d}",
            )
        )
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
def code_action(ls: DralintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    return ls.guarded("code actions", lambda: _code_actions(ls, params), None)


def _code_actions(ls: DralintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    document = ls.workspace.get_text_document(params.text_document.uri)
    name = ls.name_of(document.uri)
    lines = _lines(document)
    codec = document.position_codec
    out: list[types.CodeAction] = []
    session = ls.session
    documents = session.documents(name) if session is not None and session.has(name) else []
    for diagnostic in params.context.diagnostics:
        if diagnostic.source != SOURCE or not isinstance(diagnostic.code, str):
            continue
        start = codec.position_from_client_units(document.lines, diagnostic.range.start)
        data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
        fix = data.get("replacement")
        if isinstance(fix, list) and len(fix) == 2 and all(isinstance(part, str) for part in fix):
            edit = actions.replacement(lines, (start.line, start.character), Replacement(fix[0], fix[1]))
            if edit is not None:
                out.append(_action(ls, document, f"Replace `{fix[0]}` with `{fix[1]}`", [edit], diagnostic, True))
        if not name.lower().endswith(".json") and start.line < len(lines):
            edits = actions.suppression(lines, start.line, diagnostic.code, documents)
            title = f"Suppress {diagnostic.code} here (# dralint: ignore[{diagnostic.code}])"
            out.append(_action(ls, document, title, edits, diagnostic, False))
    return out


def _action(
    ls: DralintServer,
    document: TextDocument,
    title: str,
    edits: list[actions.Edit],
    diagnostic: types.Diagnostic,
    preferred: bool,
) -> types.CodeAction:
    text_edits = [types.TextEdit(ls.client_range(document, edit.start, edit.end), edit.text) for edit in edits]
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=preferred or None,
        edit=types.WorkspaceEdit(changes={document.uri: text_edits}),
    )


def serve() -> int:
    """Speak LSP on standard input and output until the client says ``exit``; the exit code LSP asks for:
    0 after ``shutdown``, 1 when the client exits (or goes away) without it."""
    # pygls closes the stream it writes to on ``exit``: given a duplicate of standard output, it
    # leaves the process's own open for the command line's final flush (which failed with
    # "I/O operation on closed file", an internal error, after every normal shutdown).
    with os.fdopen(os.dup(sys.stdout.fileno()), "wb") as output:
        server.start_io(sys.stdin.buffer, output)
    code = 0 if server.stopping else 1
    if any(thread.name == _WORKER and thread.is_alive() for thread in threading.enumerate()):
        # An index or a check still runs (see _in_thread): Python's finalisation would stop its
        # thread inside a C++ extension (RE2), which aborts the process ("terminate called
        # without an active exception", exit -6). Nothing of it is wanted any more.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code
