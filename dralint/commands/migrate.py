"""``dralint migrate``: move workloads from device plugins to DRA, rewritten or backed by DeviceClasses.

``dralint migrate PATH...`` rewrites every container's device-plugin request (``nvidia.com/gpu: 1``)
into a claim from a ResourceClaimTemplate (see :mod:`dralint.migrate.workloads`), printing the
result or, with ``-w``, writing the files; documents without such a request are copied byte for
byte, the others keep their comments and key order (the round trip of ``dralint convert``). The
templates go into the file of the first workload that names them, just before it, in the newest
``resource.k8s.io`` version the target release serves.

``dralint migrate --classes PATH...`` leaves the workloads alone and prints the DeviceClasses
whose ``extendedResourceName`` lets DRA serve the resources they ask for.

A resource no profile can map (a time-sliced replica, a monitoring resource, one no profile
names) is left as it is, said on standard error with why, and the exit code is 1.
"""

from __future__ import annotations

import io
import sys
from collections.abc import MutableMapping
from dataclasses import field
from functools import cache
from typing import Any, Literal, TextIO

from dralint.api.rewrite_text import chunks, round_trip, round_trip_yaml
from dralint.commands import migrate_check
from dralint.commands.convert import read_text
from dralint.commands.simulate import SimulateSettings
from dralint.config.resolve import Layer
from dralint.dataclass import dataclass
from dralint.errors import InputError, UsageError
from dralint.migrate import classes, resolve, workloads
from dralint.pipeline import run as pipeline
from dralint.read import sources

Mode = Literal["rewrite", "classes", "check"]


@dataclass(frozen=True, slots=True)
class MigrateSettings:
    paths: tuple[str, ...]  # nothing: standard input
    mode: Mode = "rewrite"
    in_place: bool = False
    flags: Layer = field(default_factory=Layer)
    config: str | None = None
    no_config: bool = False
    release: str | None = None  # shortcut for programmatic callers (tests): as --kubernetes-version
    format: Literal["text", "json", "html"] = "text"  # of --check

    def request(self) -> pipeline.Request:
        return pipeline.Request(pipeline.with_shortcuts(self.flags, release=self.release), self.config, self.no_config)


@dataclass(slots=True)
class _State:
    """What a rewrite has written so far: the templates already emitted, the requests left alone."""

    resolve: workloads.Resolve
    version: str
    emitted: set[tuple[str | None, str]] = field(default_factory=set)
    skipped: list[str] = field(default_factory=list)
    left: dict[str, list[str]] = field(default_factory=dict)  # workload ("Job ml/train") -> requests left, why
    containers: int = 0
    templates: int = 0


def run(settings: MigrateSettings, stream: TextIO | None = None) -> int:
    out = stream if stream is not None else sys.stdout
    paths = settings.paths or (sources.STDIN,)
    if settings.in_place and (settings.mode != "rewrite" or sources.STDIN in paths):
        raise UsageError("--in-place rewrites files: it needs PATHS and no --classes")
    plan = pipeline.configure(settings.request())
    profiles = plan.profiles
    lookup = cache(lambda name: resolve.resolve(name, profiles))
    files = plan.files(paths)
    texts = [(path, read_text(path, plan.limits.max_file_bytes, what="migrated")) for path in files]
    if settings.mode == "classes":
        return _classes(texts, lookup, plan.target, out)
    state = _State(lookup, workloads.claim_version(plan.target.release))
    if settings.mode == "check":
        if sources.STDIN in paths:
            raise UsageError("--check reads the workloads three times: give them as files, not standard input")
        base = SimulateSettings(
            paths=settings.paths,
            flags=settings.flags,
            config=settings.config,
            no_config=settings.no_config,
            release=settings.release,
        )
        rewritten = [(p, _rewrite_text(t, p, state)[0]) for p, t in texts]
        return migrate_check.run(base, plan, rewritten, state.left, lookup, settings.format, out)
    results = [(path, _rewrite_text(text, path, state)) for path, text in texts]
    if settings.in_place:
        for path, (text, changed) in results:
            if changed:
                bom, encoding = sources.byte_order_mark(sources.read_bytes(path, 3))
                with open(path, "wb") as handle:
                    handle.write(bom + text.encode(encoding))
    else:
        for number, (_, (text, _)) in enumerate(results):
            if number and not text.startswith("---"):
                out.write("---\n")
            out.write(text)
    for line in state.skipped:
        print(line, file=sys.stderr)
    files_changed = sum(1 for _, (_, changed) in results if changed)
    print(
        f"dralint: moved {state.containers} container{'s' * (state.containers != 1)} in {files_changed} "
        f"file{'s' * (files_changed != 1)} to claims from {state.templates} "
        f"ResourceClaimTemplate{'s' * (state.templates != 1)}",
        file=sys.stderr,
    )
    return 1 if state.skipped else 0


def _rewrite_text(text: str, file: str, state: _State) -> tuple[str, bool]:
    """``text`` (one file) rewritten, and whether anything changed."""
    if file.lower().endswith(".json"):
        raise InputError(f"{file}: dralint migrate rewrites YAML files; write this one as YAML first")
    out: list[str] = []
    changed = False
    for start, chunk in chunks(text):
        rewritten, templates = _rewrite_chunk(chunk, file, start, state)
        if templates and not rewritten.startswith("---"):
            rewritten = "---\n" + rewritten  # the templates end with no marker of their own
        if "\r\n" in chunk:  # the file's line breaks for what is added
            templates = [t.replace("\n", "\r\n") for t in templates]
            rewritten = rewritten if rewritten.startswith("---\r\n") else rewritten.replace("---\n", "---\r\n", 1)
        out += [*templates, rewritten]
        changed = changed or rewritten is not chunk
    return "".join(out), changed


def _rewrite_chunk(chunk: str, file: str, start: int, state: _State) -> tuple[str, list[str]]:
    """The chunk rewritten (itself when nothing changed) and the documents of the templates it needs first."""
    if "resources" not in chunk:
        return chunk, []
    wanted: list[workloads.Wanted] = []

    def edit(documents: list[Any]) -> bool:
        containers = 0
        for document in documents:
            for obj in _objects(document):
                result = workloads.rewrite_object(obj, state.resolve)
                wanted.extend(w for w in result.wanted if w not in wanted)
                containers += result.containers
                state.skipped += [
                    f"{file}:{_line(obj, s.path, start)}: {workloads.describe(s)}" for s in result.skipped
                ]
                if result.skipped:
                    reasons = state.left.setdefault(_workload(obj), [])
                    reasons += [f"{s.resource} left as it is: {s.reason}" for s in result.skipped]
        state.containers += containers
        return containers > 0

    rewritten = round_trip(chunk, file, start, edit, what="migrated")
    templates = []
    for want in wanted:
        key = (want.namespace, want.name)
        if key in state.emitted:
            continue
        state.emitted.add(key)
        state.templates += 1
        templates.append(_document(workloads.claim_template(want, state.version)))
    return rewritten, templates


def _workload(obj: Any) -> str:
    """The workload's name as the dry-run writes it: ``Deployment ml/infer``."""
    metadata = obj.get("metadata") if isinstance(obj.get("metadata"), MutableMapping) else {}
    return f"{obj.get('kind')} {metadata.get('namespace') or 'default'}/{metadata.get('name')}"


def _load(chunk: str, file: str, start: int) -> list[Any]:
    """The documents of ``chunk``, read (and left) as they are."""
    found: list[Any] = []

    def keep(documents: list[Any]) -> bool:
        found.extend(documents)
        return False

    round_trip(chunk, file, start, keep, what="migrated")
    return found


def _objects(document: Any) -> list[MutableMapping[str, Any]]:
    """The object ``document`` is, or the items of the List it is."""
    if not isinstance(document, MutableMapping):
        return []
    items = document.get("items")
    kind = document.get("kind")
    if isinstance(kind, str) and kind.endswith("List") and isinstance(items, list):
        return [item for item in items if isinstance(item, MutableMapping)]
    return [document]


def _line(obj: Any, path: tuple[Any, ...], start: int) -> int:
    """The line of ``path`` in ``obj`` (a ruamel mapping read from a chunk starting at line ``start``)."""
    node, line = obj, getattr(getattr(obj, "lc", None), "line", 0) or 0
    for step in path:
        lc = getattr(node, "lc", None)
        try:
            if lc is not None:
                line = (lc.item(step) if isinstance(step, int) else lc.key(step))[0]
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
    return start + line


def _document(value: Any) -> str:
    stream = io.StringIO()
    yaml = round_trip_yaml()
    yaml.explicit_start = True
    yaml.dump(value, stream)
    return stream.getvalue()


def _classes(texts: list[tuple[str, str]], lookup: workloads.Resolve, target: Any, out: TextIO) -> int:
    """Print the DeviceClasses backing the resources the workloads of ``texts`` ask for."""
    names: set[str] = set()
    for path, text in texts:
        for start, chunk in chunks(text):
            if "resources" in chunk:
                for document in _load(chunk, path, start):
                    for obj in _objects(document):
                        names.update(workloads.requested(obj))
    version = classes.class_version(target)
    note = classes.gate_note(target)
    if version is None:
        raise UsageError(note or f"Kubernetes {target.release} has no extendedResourceName")
    if note is not None:
        out.write(f"# {note}\n")
    unmapped = 0
    for name in sorted(names):
        found = lookup(name)
        if isinstance(found, resolve.Unmapped):
            unmapped += 1
            owner = f" ({found.driver})" if found.driver else ""
            out.write(f"# {name}{owner} cannot be backed by a DeviceClass: {found.reason}\n")
            continue
        out.write(f"# {name}: {found.entry.description or found.driver}\n")
        if found.installed is not None:
            since = f" from {found.installed.since} on" if found.installed.since else ""
            out.write(f"# the deployment of {found.driver} installs this class{since}\n")
        out.write(_document(classes.device_class(found, version)))
    if not names:
        print("dralint: no workload asks for a device-plugin resource", file=sys.stderr)
    return 1 if unmapped else 0


__all__ = ["MigrateSettings", "run"]
