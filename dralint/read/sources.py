"""Find and read the input: files, directories (recursively) and standard input.

Reading only: bytes become text here (BOMs, non-UTF-8 bytes, oversized files are noted as
issues), and the text is handed to :mod:`dralint.read.yamldoc`. Nothing here decides what a
document means.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import field
from pathlib import Path as FsPath

from dralint.dataclass import dataclass
from dralint.errors import InputError
from dralint.limits import Limits
from dralint.read.ignorefiles import IgnoreFiles
from dralint.read.yamldoc import DecodeIssue

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
STDIN = "-"
KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")  # kustomize's own order
# What dralint renders itself is read under the name of what was rendered plus one of these.
KUSTOMIZE_RENDERED = " (rendered)"
HELM_RENDERED = " (helm template)"


def is_rendered(name: str) -> bool:
    """Whether the input ``name`` is a stream dralint rendered (no file the user could edit or convert)."""
    return name.endswith((KUSTOMIZE_RENDERED, HELM_RENDERED))


DEFAULT_MAX_FILE_BYTES = Limits().max_file_bytes


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One input file as text, with the defects found while reading it."""

    name: str  # as shown in findings: the path as given (relative stays relative), or the stdin name
    text: str
    issues: tuple[DecodeIssue, ...] = field(default=())


def discover(
    paths: Sequence[str],
    *,
    exclude: Iterable[str] = (),
    ignore_files: bool = True,
    walked_filter: Callable[[list[str]], list[str]] | None = None,
) -> list[str]:
    """The manifest files named by ``paths``, in a stable order; ``-`` stands for stdin.

    Directories are walked recursively for ``*.yaml``, ``*.yml`` and ``*.json`` (any case),
    skipping hidden folders and files and, with ``ignore_files``, what git ignores
    (:mod:`dralint.read.ignorefiles`), in path order (folder by folder, names compared as
    text). Files named explicitly are always read. Paths are shown with forward slashes and
    without a leading ``./``. A missing path, an unreadable folder or a folder without manifests
    is an :class:`InputError`. A walk skips FIFOs, sockets and devices (opening a FIFO would
    wait for a writer forever) but keeps links to nothing, which :func:`read` reports; a special
    file named explicitly is kept for the same.
    """
    from fnmatch import fnmatch

    excluded = tuple(exclude)
    ignore = IgnoreFiles() if ignore_files else None
    found: list[str] = []
    for path in paths:
        if path == STDIN:
            found.append(STDIN)
            continue
        fs_path = FsPath(path)
        if fs_path.is_dir():
            walked = _walk(path, ignore)
            files = sorted(walked.files, key=lambda name: name.split("/"))
            files = [f for f in files if not any(fnmatch(f, pattern) for pattern in excluded)]
            if not files:
                if walked.ignored:
                    raise InputError(
                        f"{path}: every *.yaml, *.yml or *.json file in this directory is ignored by .gitignore "
                        "(--no-ignore-files reads them)"
                    )
                raise InputError(f"{path}: no *.yaml, *.yml or *.json files in this directory")
            found.extend(walked_filter(files) if walked_filter is not None else files)
        elif fs_path.exists() or fs_path.is_symlink():
            found.append(display(path))
        else:
            raise InputError(f"{path}: no such file or directory")
    seen: set[str] = set()
    return [p for p in found if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]


def walked(path: str) -> bool:
    """Whether a walk of the current directory reads ``path`` (relative to it): a manifest's suffix,
    no hidden folder or file on the way, nothing git ignores (a file created while a server runs)."""
    parts = display(path).split("/")
    if os.path.isabs(path) or ".." in parts or any(part.startswith(".") for part in parts):
        return False
    if not parts[-1].lower().endswith(MANIFEST_SUFFIXES):
        return False
    ignore = IgnoreFiles()
    folders = ["/".join(parts[:n]) for n in range(1, len(parts))]
    return not any(ignore.ignored(folder, is_dir=True) for folder in folders) and not ignore.ignored(path, is_dir=False)


@dataclass(slots=True)
class _Walked:
    files: list[str] = field(default_factory=list)
    ignored: int = 0  # manifests and folders left out because git ignores them


def _walk(root: str, ignore: IgnoreFiles | None) -> _Walked:
    def fail(error: OSError) -> None:
        raise InputError(f"{display(error.filename or root)}: cannot read directory: {error.strerror or error}")

    walked = _Walked()
    for directory, subdirs, files in os.walk(root, onerror=fail):
        kept = sorted(d for d in subdirs if not d.startswith("."))
        if ignore is not None:
            visible = [d for d in kept if not ignore.ignored(os.path.join(directory, d), is_dir=True)]
            walked.ignored += len(kept) - len(visible)
            kept = visible
        subdirs[:] = kept
        own = next((name for name in KUSTOMIZATION_FILES if name in files), None)
        if own is not None:  # the folder is rendered as a whole: its files are its resources and patches
            subdirs[:] = []
            walked.files.append(display(os.path.join(directory, own)))
            continue
        for name in files:
            if name.startswith(".") or not name.lower().endswith(MANIFEST_SUFFIXES):
                continue
            path = os.path.join(directory, name)
            if ignore is not None and ignore.ignored(path, is_dir=False):
                walked.ignored += 1
                continue
            try:
                mode = os.stat(path).st_mode
            except OSError:
                mode = stat.S_IFREG  # a link to nothing (or a vanished file): read() reports it
            if stat.S_ISREG(mode):
                walked.files.append(display(path))
    return walked


def display(path: str) -> str:
    """Paths in findings use forward slashes and no leading ``./``."""
    path = path.replace(os.sep, "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def stdin_is_piped() -> bool:
    """Whether standard input is piped in or redirected from a file (``cat a.yaml | dralint check``, ``< a.yaml``).

    A terminal, ``/dev/null`` (CI runners, cron), a closed standard input, and an empty pipe or
    file are not: a command given no path then does what it does without input (``check`` reads
    the current directory), so a runner that leaves an empty pipe there does not turn a check of
    the repository into a check of nothing. The first bytes are looked at, not consumed.
    """
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (AttributeError, OSError, ValueError):  # replaced by a non-file, or closed
        return False
    if not (stat.S_ISFIFO(mode) or stat.S_ISREG(mode)):
        return False
    peek = getattr(getattr(sys.stdin, "buffer", None), "peek", None)
    try:
        return peek is None or peek(1) != b""
    except (OSError, ValueError):
        return False


def read(path: str, *, stdin_name: str = STDIN, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> SourceFile:
    """Read one file (or stdin for ``-``) into text; unreadable files raise :class:`InputError`."""
    if path == STDIN:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputError("-: standard input is not available")
        raw = stream.read(max_bytes + 1)
        name = stdin_name
    else:
        name = path
        try:
            raw = read_bytes(path, max_bytes)
        except NotARegularFile as error:
            return SourceFile(name, "", (DecodeIssue("unreadable", str(error), 1, 1),))
        except OSError as error:
            if isinstance(error, FileNotFoundError) and os.path.islink(path):
                issue = DecodeIssue("unreadable", f"symbolic link to {os.readlink(path)}, which does not exist", 1, 1,
                                    hint="fix or remove the link")  # fmt: skip
                return SourceFile(name, "", (issue,))
            raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(raw) > max_bytes:
        return SourceFile(name, "", (_too_large(max_bytes),))
    text, issues = decode_bytes(raw)
    return SourceFile(name, text, tuple(issues))


def from_text(name: str, text: str, *, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> SourceFile:
    """A file whose text is given rather than read (an editor's unsaved buffer), held to the same size limit."""
    if len(text) > max_bytes // 4 and len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        return SourceFile(name, "", (_too_large(max_bytes),))
    return SourceFile(name, text.removeprefix("\ufeff"))


def _too_large(max_bytes: int) -> DecodeIssue:
    return DecodeIssue(
        "too-large",
        f"file is larger than {max_bytes} bytes; not checked",
        1,
        1,
        hint="raise limits.maxFileBytes in the configuration to check it",
    )


class NotARegularFile(OSError):
    """A FIFO, socket or device where a file was expected: never read (a FIFO would block)."""


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a directory"))  # fmt: skip


def read_bytes(path: str, max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes of the regular file ``path`` (more means: too large).

    Every file dralint reads goes through here (manifests, configuration, baselines, rule
    files), so one size limit applies to all, and a special file is refused before a read
    could block or never end (``/dev/zero``, a FIFO): it is opened non-blocking and checked.
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):  # as opening a file object refuses it
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not stat.S_ISREG(status.st_mode):
            kind = next((name for test, name in _KINDS if test(status.st_mode)), "not a regular file")
            raise NotARegularFile(f"{kind}, not a regular file; not read")
        # Asking for what the file holds, not for the limit: read(n) allocates n bytes first, and
        # the limit is megabytes. A byte more than its size means it grew since: read on.
        limit = max_bytes + 1
        data = _read(descriptor, min(limit, status.st_size + 1))
        if status.st_size < len(data) < limit:
            data += _read(descriptor, limit - len(data))
        return data
    finally:
        os.close(descriptor)


def _read(descriptor: int, count: int) -> bytes:
    """``count`` bytes, or fewer at the end of the file (no file object: half the cost of reading a small file)."""
    chunks = []
    while count > 0 and (chunk := os.read(descriptor, count)):
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_ENCODING_HINT = "Kubernetes manifests must be UTF-8; re-encode the file"


def byte_order_mark(raw: bytes) -> tuple[bytes, str]:
    """The byte-order mark ``raw`` starts with and the encoding it stands for (none: ``b""``, UTF-8)."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            return bom, name
    return b"", "utf-8"


def decode_bytes(raw: bytes) -> tuple[str, list[DecodeIssue]]:
    """Text of ``raw``: BOM-aware, UTF-8 by default; undecodable bytes are replaced and reported.

    kubectl (go-yaml) reads UTF-8 and, with a byte-order mark, UTF-16. UTF-32 is decoded so the
    file can still be checked, but reported; UTF-16 saved without a byte-order mark (a NUL in
    every other byte) makes the file unreadable. Other NULs are left to the YAML reader, which
    refuses the document holding them, as go-yaml does.
    """
    bom, encoding = byte_order_mark(raw)
    raw = raw[len(bom) :]
    issues: list[DecodeIssue] = []
    if encoding.startswith("utf-32"):
        issues.append(DecodeIssue("encoding", f"file is {encoding.upper()}; kubectl reads only UTF-8 and UTF-16", 1, 1,
                                  hint=_ENCODING_HINT))  # fmt: skip
    elif encoding == "utf-8" and b"\x00" in raw and _looks_like_utf16(raw):
        # Any other NUL is a character go-yaml refuses: the document holding it is reported then.
        line = raw.count(b"\n", 0, raw.index(b"\x00")) + 1
        issue = DecodeIssue("encoding", "file contains NUL bytes (UTF-16 without a byte-order mark?)", line, 1,
                            hint=_ENCODING_HINT)  # fmt: skip
        return "", [issue]
    try:
        return raw.decode(encoding), issues
    except UnicodeDecodeError as error:
        good = raw[: error.start].decode(encoding, errors="replace")
        line = good.count("\n") + 1
        column = len(good) - (good.rfind("\n") + 1) + 1
        issues.append(DecodeIssue(
            "encoding",
            f"byte 0x{raw[error.start]:02x} is not valid {encoding.upper()}",
            line,
            column,
            hint=_ENCODING_HINT,
        ))  # fmt: skip
        return raw.decode(encoding, errors="replace"), issues


def _looks_like_utf16(raw: bytes) -> bool:
    """Mostly-ASCII UTF-16 has a NUL in every other byte."""
    sample = raw[:200]
    return sample[1::2].count(0) > len(sample) // 4 or sample[0::2].count(0) > len(sample) // 4
