"""Render a kustomization with the installed ``kustomize`` (or ``kubectl kustomize``), with origin annotations.

Reading only: the result is text (the rendered stream) or kustomize's error, plus what the
kustomization refers to (its bases, patches and generators' files), which
:mod:`dralint.read.sourcemap` uses to lead findings back to the user's files. The user's files
are never written: the origin annotations come from a wrapper kustomization in a temporary
folder that has the user's folder as its only resource. Nothing but kustomize runs, and
kustomize runs without plugins, exec functions or Helm (its defaults); remote bases are refused
before it could fetch them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from typing import Any

from dralint.dataclass import dataclass
from dralint.errors import InputError
from dralint.read import sources
from dralint.read.sources import KUSTOMIZATION_FILES
from dralint.read.yamldoc import Document, decode

__all__ = ["KUSTOMIZATION_FILES", "Kustomization", "Rendering", "is_kustomization", "load", "render", "renderer"]

RENDER_TIMEOUT_SECONDS = 60
# kustomize reads a remote base (a git repository or an archive) from a URL: never fetched here.
_REMOTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|git@|github\.com/|gitlab\.com/|bitbucket\.org/)|[?&]ref=", re.I)


def is_kustomization(path: str) -> bool:
    """Whether ``path`` names a kustomization file (by its name, as kustomize finds them)."""
    return os.path.basename(path) in KUSTOMIZATION_FILES


def file_in(directory: str) -> str | None:
    """The kustomization file of ``directory``, if it has one."""
    for name in KUSTOMIZATION_FILES:
        candidate = os.path.join(directory, name)
        if os.path.isfile(candidate):
            return candidate
    return None


def renderer() -> list[str]:
    """The command that builds a kustomization: ``kubectl kustomize``, else ``kustomize build`` (else exit 2)."""
    for program, arguments in (("kubectl", ["kustomize"]), ("kustomize", ["build"])):
        found = shutil.which(program)
        if found is not None:
            return [found, *arguments]
    raise InputError("rendering a kustomization needs kustomize or kubectl on PATH; neither is installed")


@dataclass(frozen=True, slots=True)
class Kustomization:
    """One kustomization file, decoded: where it is and its document (``None`` when it does not decode)."""

    file: str  # as shown in findings
    document: Document | None

    @property
    def directory(self) -> str:
        return os.path.dirname(self.file) or "."

    def entries(self, key: str) -> list[tuple[int, Any]]:
        """The items of the list field ``key`` with their indexes (none when absent or not a list)."""
        data = self.document.data if self.document is not None else None
        items = data.get(key) if isinstance(data, dict) else None
        return list(enumerate(items)) if isinstance(items, list) else []

    def resources(self) -> Iterator[tuple[str, int, str]]:
        """``(field, index, entry)`` for each resource, base and component named by text."""
        for key in ("resources", "bases", "components"):
            for index, entry in self.entries(key):
                if isinstance(entry, str):
                    yield key, index, entry


def load(file: str) -> Kustomization:
    """The kustomization in ``file`` (read as any input; defects make its document ``None``)."""
    source = sources.read(file)
    documents, issues = decode(source.name, source.text) if source.text else ([], [])
    usable = documents and isinstance(documents[0].data, dict) and not issues
    return Kustomization(source.name, documents[0] if usable else None)


def unclaimed(files: list[str]) -> list[str]:
    """Walked ``files`` without what their kustomizations render: bases of another, and files one of them reads."""
    roots = [f for f in files if is_kustomization(f)]
    if not roots:
        return files
    taken = claimed([load(f) for f in roots])
    return [f for f in files if os.path.abspath(f) not in taken]


def claimed(roots: list[Kustomization]) -> set[str]:
    """Absolute paths of what ``roots`` render: the kustomization files of their bases, and the files they read.

    A base is checked through what builds on it, not also on its own (unless named explicitly).
    """
    found: set[str] = set()
    pending = list(roots)
    seen = {os.path.abspath(k.file) for k in roots}
    while pending:
        current = pending.pop(0)
        for path in _named_files(current):
            found.add(os.path.abspath(path))
        for _, _, entry in current.resources():
            directory = os.path.join(current.directory, entry)
            base = file_in(directory) if os.path.isdir(directory) else None
            if base is None:
                continue
            found.add(os.path.abspath(base))
            if os.path.abspath(base) not in seen:
                seen.add(os.path.abspath(base))
                pending.append(load(base))
    return found


def with_renderers(manifests: Sequence[str], changed: Sequence[str], roots: Sequence[str]) -> list[str]:
    """``manifests`` (changed ones, for ``--changed``) with those a kustomization under ``roots`` renders
    replaced by that kustomization, which is also added when another of the ``changed`` files (absolute
    paths: a patch, a generator's file) is in one of the folders it builds."""
    try:
        found = [f for f in sources.discover(roots, walked_filter=unclaimed) if is_kustomization(f)]
    except InputError:  # a folder without manifests has no kustomization either
        found = []
    touched = {os.path.abspath(f) for f in [*changed, *manifests]}
    out: list[str] = []
    claimed: list[tuple[set[str], tuple[str, ...]]] = []
    for kustomization in found:
        files, folders = builds(load(kustomization))
        claimed.append((files, folders))
        if any(path in files or path.startswith(folders) for path in touched):
            out.append(kustomization)
    for manifest in manifests:
        path = os.path.abspath(manifest)
        if not any(path in files or path.startswith(folders) for files, folders in claimed):
            out.append(manifest)
    return out


def builds(kustomization: Kustomization) -> tuple[set[str], tuple[str, ...]]:
    """What building ``kustomization`` reads: its files and those of its bases, and their folders (with a separator)."""
    chain = [kustomization]
    files: set[str] = set()
    seen = {os.path.abspath(kustomization.file)}
    for current in chain:
        files.add(os.path.abspath(current.file))
        files.update(os.path.abspath(path) for path in _named_files(current))
        for _, _, entry in current.resources():
            directory = os.path.join(current.directory, entry)
            base = file_in(directory) if os.path.isdir(directory) else None
            if base is not None and os.path.abspath(base) not in seen:
                seen.add(os.path.abspath(base))
                chain.append(load(base))
    return files, tuple(os.path.abspath(k.directory) + os.sep for k in chain)


def _named_files(kustomization: Kustomization) -> Iterator[str]:
    """The local files a kustomization names as resources or patches."""
    for _, _, entry in kustomization.resources():
        yield os.path.join(kustomization.directory, entry)
    for key in ("patches", "patchesStrategicMerge", "patchesJson6902"):
        for _, entry in kustomization.entries(key):
            path = entry.get("path") if isinstance(entry, dict) else entry
            if isinstance(path, str) and "\n" not in path:
                yield os.path.join(kustomization.directory, path)


@dataclass(frozen=True, slots=True)
class Rendering:
    """What building a kustomization gave: the rendered stream, or kustomize's error (with the line it concerns)."""

    text: str
    error: str | None = None
    line: int = 1  # of the kustomization file, for the error
    column: int = 1
    wrapper: str = ""  # the folder origin annotations' paths are relative to
    hint: str = "fix the kustomization so that kustomize build succeeds"


def render(kustomization: Kustomization, *, max_bytes: int, timeout: float = RENDER_TIMEOUT_SECONDS) -> Rendering:
    """Build ``kustomization`` with origin annotations; a build that fails is an error, never an exception."""
    remote = _remote_resource(kustomization)
    if remote is not None:
        return remote
    command = renderer()
    with tempfile.TemporaryDirectory(prefix="dralint-kustomize-") as wrapper:
        target = os.path.relpath(os.path.abspath(kustomization.directory), wrapper).replace(os.sep, "/")
        with open(os.path.join(wrapper, "kustomization.yaml"), "w", encoding="utf-8") as handle:
            handle.write(f"resources:\n- {target}\nbuildMetadata: [originAnnotations]\n")
        try:
            done = subprocess.run(
                [*command, wrapper],
                capture_output=True,
                timeout=timeout,
                check=False,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            return Rendering("", f"kustomize did not finish within {timeout:g} seconds")
        except OSError as error:
            raise InputError(f"cannot run {command[0]}: {error.strerror or error}") from None
        if done.returncode != 0:
            return Rendering("", _error_text(done.stderr.decode("utf-8", "replace"), wrapper, kustomization))
        if len(done.stdout) > max_bytes:
            return Rendering("", f"the rendered kustomization is larger than {max_bytes} bytes; not checked")
        return Rendering(done.stdout.decode("utf-8", "replace"), wrapper=os.path.abspath(wrapper))


def _remote_resource(kustomization: Kustomization) -> Rendering | None:
    """An error for the first remote base, which dralint does not fetch; ``None`` when all are local."""
    for key, index, entry in kustomization.resources():
        if _REMOTE.search(entry) and not os.path.exists(os.path.join(kustomization.directory, entry)):
            document = kustomization.document
            line, column = document.position((key, index)) if document is not None else (1, 1)
            message = f"remote {key[:-1]} {entry} is not fetched: dralint renders local kustomizations only"
            hint = "vendor the base into the repository, or check the output of kustomize build with dralint check -"
            return Rendering("", message, line, column, hint=hint)
    return None


def _error_text(stderr: str, wrapper: str, kustomization: Kustomization) -> str:
    """kustomize's error on one line, without the log prefix and with the user's paths instead of the wrapper's."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    text = " ".join(lines) or "kustomize failed without a message"
    text = re.sub(r'^E\d{4} [\d:.]+\s+\d+ \S+\] "command failed" err=<?\s*', "", text)
    text = re.sub(r"^Error: ", "", text).rstrip(">").strip().strip('"').strip()
    # The wrapper's own layer of the message says only that the user's folder failed to build.
    _, wrapped, inner = text.partition("recursed accumulation of path '")
    if wrapped:
        text = inner.partition("': ")[2] or text
    folder = kustomization.directory
    for spelling in (os.path.realpath(folder), os.path.abspath(folder)):
        text = text.replace(spelling + os.sep, "" if folder == "." else folder + "/").replace(spelling, folder)
    return text
