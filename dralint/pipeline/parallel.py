"""The per-file half of a check, run in worker processes (``--jobs``), and the merge of its parts.

The inputs are cut into consecutive slices, many more than processes. This process checks
the first slice, then forks the workers (so that they start with the modules, compiled schemas
and CEL environments that slice loaded) and takes the next slice whenever it is free, while
each worker is given slices two at a time and sends back each result from a thread of its
own, so that no process waits for another until the slices run out. For each slice a worker
reads and decodes the files and runs the local checks
(:data:`dralint.checks.registry.LOCAL_CHECKS` and CEL policies: they look at one object or one
file at a time) on its objects; it sends back the workspace (the
documents without their node trees) and the findings. The parent concatenates the parts in
input order, so the merged workspace is exactly what one process would have loaded, and runs
the checks that need the whole input on it. Positions for their findings are asked of the
worker that keeps the file's node tree, until the session ends. The engine sorts before it
suppresses, so the output is the same bytes for any number of jobs.

Small inputs are checked in this process: starting workers costs more than it saves below
:data:`MIN_PARALLEL_BYTES` (measured by ``benchmarks/jobs_bench.py``).
"""

from __future__ import annotations

import gc
import os
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import field
from typing import TYPE_CHECKING, Any, Protocol

from dralint import progress
from dralint.api.versions import Target
from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext, Options
from dralint.process import freeze_loaded, raise_recursion_limit, tune_garbage_collection
from dralint.read import sources
from dralint.read.load import Input, load_each, load_files, merge, settled
from dralint.read.workspace import Workspace
from dralint.read.yamldoc import Document, Limits, Lookup
from dralint.rules import Rule

if TYPE_CHECKING:  # multiprocessing is imported when workers start: a one-file run does not need it
    from multiprocessing.connection import Connection

    from dralint.read.helm_template import RenderFailure

MIN_PARALLEL_BYTES = 1 << 20  # below this much input, one process is faster
PARTS_PER_JOB = 16  # more parts than workers, so that none is left idle while another finishes a part
# What the context works out about each object on its own (see CheckContext): the local checks
# work it out where the files are read, and it travels back with the objects (and into the
# results cache), so that the checks across files do not work it out again.
PER_OBJECT = ("normalised", "pod_templates", "validated", "schema_errors", "pod_spec_errors")


@dataclass(frozen=True, slots=True)
class Part:
    """A slice of the inputs and everything needed to run the local checks on it."""

    files: tuple[Input, ...]
    target: Target
    options: Options
    rules: Mapping[str, Rule]
    selection: engine.Selection
    limits: Limits
    stdin_name: str = sources.STDIN
    freeze: bool = False  # freeze the loaded objects out of the garbage collector (see dralint.process)
    each: bool = False  # keep what each file gave apart (see Checked.each)
    # inputs rendered before reading (helm): their text, or why they did not render
    rendered: Mapping[str, str | RenderFailure] = field(default_factory=dict)


@dataclass(slots=True)
class Checked:
    """A loaded part and the findings of its local checks (``context`` only when checked in this process)."""

    workspace: Workspace
    found: engine.Found
    context: CheckContext | None = None
    each: list[Checked] | None = None  # per file of the part, for the results cache (Part.each)
    keep: bool = True  # whether ``each`` may be stored (every finding lies in the file it goes with)
    analyses: dict[str, Any] | None = None  # the PER_OBJECT analyses of the part's objects


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


class Stored(Protocol):
    """What the results cache (:mod:`dralint.pipeline.cache`) holds for the inputs, by their position."""

    def load(self, number: int) -> Checked | None: ...

    def store(self, number: int, checked: Checked) -> None: ...


@contextmanager
def check(
    files: Sequence[Input],
    *,
    jobs: int,
    target: Target,
    options: Options,
    rules: Mapping[str, Rule],
    selection: engine.Selection,
    limits: Limits,
    stdin_name: str = sources.STDIN,
    freeze: bool = False,
    stored: Stored | None = None,
    rendered: Mapping[str, str | RenderFailure] | None = None,
) -> Iterator[tuple[CheckContext, engine.Found]]:
    """Load ``files`` and run the local checks (in ``jobs`` processes when that pays): the context and findings.

    Positions are looked up in the workers while the ``with`` block lasts; afterwards the
    documents compose their node trees again when asked for one. ``freeze``: see
    :func:`dralint.process.freeze_loaded` (only entry points ask for it). ``stored``: what the
    results cache holds for each file; only the others are read and checked, then stored.
    """
    known = [stored.load(n) for n in range(len(files))] if stored is not None else [None] * len(files)
    todo = [n for n, found in enumerate(known) if found is None]
    chunk = tuple(files[n] for n in todo)
    slices = split(chunk, jobs)

    def part(chunk: tuple[Input, ...]) -> Part:
        return Part(
            chunk, target, options, rules, selection, limits, stdin_name, freeze, stored is not None, rendered or {}
        )

    if len(slices) <= 1:
        done = check_part(part(chunk), whole=len(todo) == len(files))  # counts the files as it reads them
        assert done.context is not None
        _keep(stored, todo, [done])
        if len(todo) == len(files):
            progress.update(objects=len(done.workspace.objects))
            yield done.context, done.found
            return
        parts = _in_order(known, todo, [done])
        workspace, found = _whole(parts)
        progress.update(objects=len(workspace.objects))
        yield seeded(CheckContext(workspace, target, options), parts), found
        return
    # This process works through the parts too: jobs - 1 workers beside it. While it checks a part,
    # it receives and sends nothing, so its own parts are never pickled.
    with _Workers(min(jobs, len(slices)) - 1) as workers:
        # As when loading (see load_files): the received documents are many small acyclic objects.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            results, received = workers.check([part(chunk) for chunk in slices], _check_here)
            _keep(stored, todo, results)
            parts = _in_order(known, todo, results)
            workspace, found = _whole(parts)
        finally:
            if freeze:
                freeze_loaded()
            if was_enabled:
                gc.enable()
        remote = {id(document) for result in received for document in result.workspace.documents}
        for document in workspace.documents:
            if id(document) in remote:
                document.finder = workers
        try:
            yield seeded(CheckContext(workspace, target, options), parts), found
        finally:
            for document in workspace.documents:
                document.finder = None


def _whole(parts: Sequence[Checked]) -> tuple[Workspace, engine.Found]:
    """The workspace of the whole run from its parts, and their findings (none when every checked
    file was skipped: the parts' findings are then about the context)."""
    merged = merge([p.workspace for p in parts])
    workspace = settled(merged)
    return workspace, [pair for p in parts for pair in p.found] if workspace is merged else []


def _check_here(part: Part) -> Checked:
    """:func:`check_part` in this process beside the workers (the progress line counts it once done)."""
    with progress.paused():
        return check_part(part)


def _keep(stored: Stored | None, todo: list[int], results: Sequence[Checked]) -> None:
    """Store what each file checked now gave (when its part could be kept apart by file)."""
    if stored is None or not all(result.keep for result in results):
        return
    for number, checked in zip(todo, [c for result in results for c in result.each or ()], strict=True):
        stored.store(number, checked)


def _in_order(known: Sequence[Checked | None], todo: list[int], results: Sequence[Checked]) -> list[Checked]:
    """The parts of every input in input order: those from the cache, and those checked now."""
    if len(todo) == len(known):
        return list(results)
    fresh = iter(c for result in results for c in (result.each or ()))
    return [found if found is not None else next(fresh) for found in known]


def split(files: Sequence[Input], jobs: int) -> list[tuple[Input, ...]]:
    """Consecutive slices of ``files`` of about equal size, or one slice when splitting does not pay."""
    if jobs <= 1 or len(files) < 2 or any(path == sources.STDIN for path, _ in files):
        return [tuple(files)]
    sizes = [_size(path) for path, _ in files]
    total = sum(sizes)
    if total < MIN_PARALLEL_BYTES:
        return [tuple(files)]
    count = min(len(files), jobs * PARTS_PER_JOB)
    slices: dict[int, list[Input]] = {}
    done = 0
    for item, size in zip(files, sizes, strict=True):
        slices.setdefault(min(count - 1, done * count // total), []).append(item)
        done += size
    return [tuple(chunk) for _, chunk in sorted(slices.items())]


def check_part(part: Part, *, whole: bool = False) -> Checked:
    """Load one slice of the inputs (``whole``: all of them) and run the local checks on it."""
    if not part.each:
        workspace = load_files(
            part.files, stdin_name=part.stdin_name, limits=part.limits, freeze=part.freeze, overlay=part.rendered
        )
        context = CheckContext(settled(workspace) if whole else workspace, part.target, part.options)
        found = engine.collect(context, part.rules, part.selection, "local")
        return Checked(context.workspace, found, context, analyses=_analyses(context))
    parts = load_each(
        part.files, stdin_name=part.stdin_name, limits=part.limits, freeze=part.freeze, overlay=part.rendered
    )
    context = CheckContext(settled(merge(parts)) if whole else merge(parts), part.target, part.options)
    found = engine.collect(context, part.rules, part.selection, "local")
    analyses = _analyses(context)
    # Local findings and analyses are about one file each: those of each file go with it.
    by_file: dict[str, engine.Found] = {}
    for pair in found:
        by_file.setdefault(pair[0].location.file, []).append(pair)
    each = [Checked(w, by_file.pop(w.files[0].name, []) if w.files else [], analyses=_of(analyses, w)) for w in parts]
    for done in each:
        for obj in done.workspace.objects:
            obj.position(())  # every report needs each object's line: looked up while the tree is here
    keep = not by_file  # (a finding about no file of the part: nothing of it is stored)
    if by_file and each:
        each[0].found.extend(pair for pairs in by_file.values() for pair in pairs)
    return Checked(context.workspace, found, context, each, keep, analyses)


def _analyses(context: CheckContext) -> dict[str, Any]:
    """The PER_OBJECT analyses the local checks worked out in ``context``."""
    return {name: context.__dict__[name] for name in PER_OBJECT if name in context.__dict__}


def _of(analyses: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """The part of ``analyses`` about the objects of ``workspace``."""
    objects = set(workspace.objects)
    out: dict[str, Any] = {}
    for name, value in analyses.items():
        if isinstance(value, dict):
            out[name] = {obj: item for obj, item in value.items() if obj in objects}
        else:  # pod templates, each with the object it is of
            out[name] = [item for item in value if item.owner in objects]
    return out


def seeded(context: CheckContext, parts: Sequence[Checked]) -> CheckContext:
    """``context`` (over the merged workspace of ``parts``) with the PER_OBJECT analyses every part brought."""
    for name in PER_OBJECT:
        values = [part.analyses[name] for part in parts if part.analyses is not None and name in part.analyses]
        if len(values) < len(parts) or not values:
            continue  # not worked out everywhere (its checks were not selected): worked out when asked
        if isinstance(values[0], dict):
            merged: Any = {key: item for value in values for key, item in value.items()}
        else:
            merged = [item for value in values for item in value]
        context.__dict__[name] = merged
    return context


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # reading it reports the problem


# --- the workers ----------------------------------------------------------------------------


class _Failed:
    """An exception raised in a worker, with its traceback (shown with ``--debug``)."""

    def __init__(self, error: BaseException) -> None:
        import pickle  # only in a worker whose check failed: every check imports this module
        import traceback

        self.trace = "".join(traceback.format_exception(error))
        try:
            pickle.dumps(error)
            self.error: BaseException = error
        except Exception:  # an exception that cannot be pickled: keep its text
            self.error = RuntimeError(f"{type(error).__name__}: {error}")


class _RemoteTraceback(Exception):
    def __str__(self) -> str:
        return str(self.args[0])


def _serve(connection: Connection, parts: Sequence[Part]) -> None:
    """A worker: check the parts it is told (by number), keep their documents, answer position look-ups in them.

    A worker is a process of its own, started by the command line: it applies the command
    line's process settings (a worker started by ``spawn`` does not inherit them).
    """
    import threading
    from multiprocessing.reduction import ForkingPickler
    from queue import SimpleQueue

    raise_recursion_limit()
    tune_garbage_collection()
    progress.detach()  # the parent draws the line, from the parts it gets back
    # Replies are written by a thread of their own: the parent reads one only when it is done with a
    # part of its own, and meanwhile this process goes on with the next part it was given.
    outbox: SimpleQueue[bytes | None] = SimpleQueue()

    def send() -> None:
        while (data := outbox.get()) is not None:
            with suppress(OSError):  # the parent is gone: nothing is waiting for the reply
                connection.send_bytes(data)

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    documents: dict[tuple[str, int], Document] = {}
    while True:
        message = connection.recv()
        if message is None:
            break
        kind, payload = message
        try:
            reply: Any
            if kind == "part":
                reply = done = check_part(parts[payload])
                done.context = None  # its caches are not worth sending back
                for document in done.workspace.documents:
                    documents[document.file, document.index] = document
                for obj in done.workspace.objects:
                    obj.position(())  # every report needs each object's line: look it up while the tree is here
            else:  # "find": [(file, document index, path, offset), ...]
                reply = [
                    documents[file, index].position(path)
                    if offset is None
                    else documents[file, index].scalar_position(path, offset)
                    for file, index, path, offset in payload
                ]
            data = bytes(ForkingPickler.dumps(reply))
        except BaseException as error:  # sent back and raised in the parent, which decides the exit code
            data = bytes(ForkingPickler.dumps(_Failed(error)))
        outbox.put(data)
    outbox.put(None)
    sender.join()


# Parts a worker is given ahead: the one it checks and the next, so that it never waits for this
# process to finish a part of its own before it gets more. The messages are part numbers (the
# parts themselves reach a worker when it starts), so that a pipe never fills up with them.
AHEAD = 2


class _Workers:
    """Worker processes that check parts of the inputs, then answer position look-ups (a :class:`Finder`)."""

    def __init__(self, count: int) -> None:
        self._count = count
        self._connections: list[Connection] = []
        self._processes: list[Any] = []
        self._owner: dict[str, Connection] = {}

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        for connection in self._connections:
            with suppress(OSError):  # a worker that is gone already
                connection.send(None)
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():  # pragma: no cover - a worker that does not stop
                process.terminate()
                process.join()
        for connection in self._connections:
            connection.close()

    def _start(self, parts: Sequence[Part]) -> None:
        import multiprocessing

        # fork starts a worker in milliseconds with dralint already imported (and the parts
        # without pickling them); spawn (macOS, Windows) imports it again in each worker.
        methods = multiprocessing.get_all_start_methods()
        context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        for _ in range(self._count):
            parent, child = context.Pipe()
            process = context.Process(target=_serve, args=(child, parts), daemon=True)
            process.start()
            child.close()
            self._connections.append(parent)
            self._processes.append(process)

    def check(self, parts: Sequence[Part], local: Callable[[Part], Checked]) -> tuple[list[Checked], list[Checked]]:
        """Check every part: the workers each take the next ones (:data:`AHEAD` at a time), and this process takes
        the next one whenever it is free. The results in the order of ``parts``, and those received from workers.

        This process checks the first part before it starts the workers: they are forked from it with
        the modules, compiled schemas and CEL environments the checks load on first use.
        """
        from multiprocessing.connection import Connection, wait

        results: dict[int, Checked] = {0: local(parts[0])}
        progress.advance(files=len(results[0].workspace.files), objects=len(results[0].workspace.objects))
        self._start(parts)
        received: list[Checked] = []
        waiting = deque(range(1, len(parts)))
        given: dict[Connection, deque[int]] = {connection: deque() for connection in self._connections}
        while waiting or any(given.values()):
            for connection, numbers in given.items():
                while waiting and len(numbers) < AHEAD:
                    numbers.append(waiting.popleft())
                    connection.send(("part", numbers[-1]))
            busy = [connection for connection, numbers in given.items() if numbers]
            if waiting:
                number = waiting.popleft()
                done = results[number] = local(parts[number])
                progress.advance(files=len(done.workspace.files), objects=len(done.workspace.objects))
                ready_ones = wait(busy, timeout=0) if busy else []
            else:
                ready_ones = wait(busy)
            for ready in ready_ones:
                assert isinstance(ready, Connection)
                number = given[ready].popleft()
                done = self._receive(ready)
                assert isinstance(done, Checked)
                results[number] = done
                received.append(done)
                progress.advance(files=len(done.workspace.files), objects=len(done.workspace.objects))
                for source in done.workspace.files:
                    self._owner[source.name] = ready
        return [results[number] for number in range(len(parts))], received

    def find(self, document: Document, path: Path, offset: int | None) -> tuple[int, int]:
        return self.find_all([(document, path, offset)])[0]

    def find_all(self, lookups: Sequence[Lookup]) -> list[tuple[int, int]]:
        """The positions, asked of each worker that holds some of the documents in one message."""
        by_owner: dict[int, tuple[Connection, list[int]]] = {}
        for number, (document, _, _) in enumerate(lookups):
            connection = self._owner[document.file]
            by_owner.setdefault(id(connection), (connection, []))[1].append(number)
        found: list[tuple[int, int]] = [(1, 1)] * len(lookups)
        for connection, numbers in by_owner.values():
            asked = [(lookups[n][0].file, lookups[n][0].index, lookups[n][1], lookups[n][2]) for n in numbers]
            connection.send(("find", asked))
            for number, position in zip(numbers, self._receive(connection), strict=True):
                found[number] = position
        return found

    def _receive(self, connection: Connection) -> Any:
        try:
            reply = connection.recv()
        except EOFError:
            raise RuntimeError("a --jobs worker process died (out of memory?); rerun with --jobs 1") from None
        if isinstance(reply, _Failed):
            raise reply.error from _RemoteTraceback(reply.trace)
        return reply
