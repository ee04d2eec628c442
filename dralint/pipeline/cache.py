"""The results cache of ``check``: per file, what reading it and its local checks found; per run, the report.

Like ruff's and mypy's, it lives in the repository (``.dralint_cache/`` at the root of the git
work tree ``check`` runs in, ignored by git through a ``.gitignore`` inside it) and is keyed by
content, not by time: an entry holds for the same dralint (version and the files of its
installation), the same configuration (the merged settings, and the content of the rule files,
driver profiles and baseline they name), the same day (exceptions expire), and the same input.

- A file's entry (its documents, objects and the findings of the checks that look at one object at
  a time) is used when that file, in the same role (checked or context), is unchanged.
- The run's entry (the whole report) is used only when every input is unchanged: the checks
  across files (references, the dry-run) see the whole input, so any change runs them again.

Entries are pickles, signed with a key kept outside the repository (``$XDG_CACHE_HOME/dralint``):
an entry that is not signed with this machine's key (copied from elsewhere, committed, damaged)
is never unpickled, and counts as missing, as does any entry that cannot be read. Writes are
atomic (a temporary file renamed), so concurrent runs never see half an entry. The language
server keeps its own results in memory and does not use this cache.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from stat import S_ISREG
from typing import Any

from dralint import __version__

DIRECTORY = ".dralint_cache"
FORMAT = 1  # bumped when what an entry holds changes
_GITIGNORE = "# Automatically created by dralint.\n*\n"
_KEY_BYTES = 32
_NAMED_MAX_BYTES = 1 << 28  # a configuration file larger than this is known by its metadata


Inputs = Sequence[tuple[str, bool, str]]  # (path, checked, content digest) of each input file, in order


class Cache:
    """The cache of one repository, for runs with one fingerprint of the settings (see :func:`fingerprint`).

    An entry is named by what it is about (a file and its role; a run's list of inputs) and holds the
    digest of what it was computed from, so that a changed file replaces its entry instead of adding one.
    """

    def __init__(self, folder: Path, key: bytes, settings: str) -> None:
        self.folder = folder
        self._key = key
        self.settings = settings

    def load_file(self, path: str, checked: bool, content: str) -> Any | None:
        """What was stored for this file with this content, in this role."""
        return self._load(_hash(self.settings, "file", path, str(checked)), content)

    def store_file(self, path: str, checked: bool, content: str, value: object) -> None:
        self._store(_hash(self.settings, "file", path, str(checked)), content, value)

    def load_run(self, inputs: Inputs) -> Any | None:
        """What was stored for a run over these inputs, each with this content."""
        name, contents = _run(self.settings, inputs)
        return self._load(name, contents)

    def store_run(self, inputs: Inputs, value: object) -> None:
        name, contents = _run(self.settings, inputs)
        self._store(name, contents, value)

    def _load(self, name: str, stamp: str) -> Any | None:
        """The entry ``name`` if it is signed with this machine's key and was stored for ``stamp``."""
        try:
            blob = (self.folder / name[:2] / name).read_bytes()
        except OSError:
            return None
        signature, payload = blob[:_KEY_BYTES], blob[_KEY_BYTES:]
        if not hmac.compare_digest(signature, _sign(self._key, name, payload)):
            return None
        try:
            stored, value = pickle.loads(payload)
        except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, IndexError, TypeError, ValueError):
            return None  # signed here, yet unreadable: as good as missing
        return value if stored == stamp else None

    def _store(self, name: str, stamp: str, value: object) -> None:
        """Store ``value`` for ``stamp`` as entry ``name``; a cache that cannot be written is left alone."""
        try:
            payload = pickle.dumps((stamp, value), protocol=pickle.HIGHEST_PROTOCOL)
            directory = self.folder / name[:2]
            directory.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(_sign(self._key, name, payload) + payload)
                os.replace(temporary, directory / name)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except (OSError, pickle.PicklingError, RecursionError):
            return


def _run(settings: str, inputs: Inputs) -> tuple[str, str]:
    """The name of a run's entry (its input files and their roles) and the digest of their contents."""
    name = _hash(settings, "run", *(f"{path}\0{checked}" for path, checked, _ in inputs))
    return name, _hash(*(content for _, _, content in inputs))


def open_cache(repository: str | None, settings: Sequence[object], named_files: Iterable[str]) -> Cache | None:
    """The cache of the repository at ``repository`` for runs with these settings (their reprs) and these
    configuration files (their contents count); ``None`` outside a repository or when it cannot be used.

    Entries are kept per installation of dralint: those of any other (an upgrade, an edited
    checkout) are removed when this one first writes its folder."""
    if repository is None:
        return None
    key = _machine_key()
    if key is None:
        return None
    root = Path(repository) / DIRECTORY
    folder = root / f"{FORMAT}-{_installation()[:16]}"
    try:
        if not folder.is_dir():
            root.mkdir(exist_ok=True)
            for old in root.iterdir():
                if old.is_dir() and old.name.startswith(f"{FORMAT}-"):
                    shutil.rmtree(old, ignore_errors=True)
            folder.mkdir(exist_ok=True)
        ignore = root / ".gitignore"
        if not ignore.exists():
            ignore.write_text(_GITIGNORE, encoding="utf-8")
    except OSError:
        return None
    return Cache(folder, key, fingerprint(settings, named_files))


def fingerprint(settings: Sequence[object], named_files: Iterable[str]) -> str:
    """What every entry depends on besides the input and this installation of dralint (which names the
    folder): the settings and the content of the configuration files they name (rule files, driver
    profiles, a baseline)."""
    parts: list[str] = [sys.version, *(repr(s) for s in settings)]
    for path in sorted(set(named_files)):
        parts.append(f"{path}\0{_tree_digest(path)}")
    return _hash(*parts)


def digest(data: bytes) -> str:
    """The content digest of one input."""
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def input_digest(path: str, max_bytes: int) -> str:
    """The digest of an input file's content; for what is not read as a regular file within the size
    limit (a FIFO is never opened, a file over ``limits.maxFileBytes`` never read whole), its metadata."""
    try:
        stat = os.stat(path)
        if not S_ISREG(stat.st_mode) or stat.st_size > max_bytes:
            return f"stat:{stat.st_mode}:{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}"
        with open(path, "rb") as handle:
            return digest(handle.read(max_bytes + 1))
    except OSError as error:
        return f"error:{error.errno}"


def _installation() -> str:
    """This installation of dralint: its version, and every file of its package and data folders by size and time."""
    from dralint import data

    roots = [Path(__file__).resolve().parent.parent]
    for name in ("rules", "schemas", "profiles"):
        try:
            roots.append(data.folder(name))
        except RuntimeError:
            continue
    return _hash(__version__, *(_tree_digest(str(root), by_content=False) for root in roots))


def _tree_digest(path: str, *, by_content: bool = True) -> str:
    """A digest of a file, or of every file under a directory (by content, or by size and time)."""
    entries: list[str] = []
    for file in _files(path):
        try:
            if by_content:  # (not read when not a regular file: /dev/zero named as the baseline)
                entries.append(f"{file}\0{input_digest(file, _NAMED_MAX_BYTES)}")
            else:
                stat = os.stat(file)
                entries.append(f"{file}\0{stat.st_size}\0{stat.st_mtime_ns}")
        except OSError:
            entries.append(f"{file}\0unreadable")
    return _hash(*entries)


def _files(path: str) -> list[str]:
    if not os.path.isdir(path):
        return [path]
    found: list[str] = []
    for folder, directories, names in os.walk(path):
        directories[:] = [d for d in directories if d != "__pycache__"]
        found.extend(os.path.join(folder, name) for name in names if not name.endswith(".pyc"))
    return sorted(found)


def _machine_key() -> bytes | None:
    """This user's signing key, made on first use (outside any repository, readable by the user only)."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(home) / "dralint" / "cache-key"
    try:
        key = path.read_bytes()
        if len(key) == _KEY_BYTES:
            return key
    except OSError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent)
        with os.fdopen(handle, "wb") as out:
            out.write(os.urandom(_KEY_BYTES))
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
        key = path.read_bytes()  # another run may have won the race: use what is there
    except OSError:
        return None
    return key if len(key) == _KEY_BYTES else None


def _sign(key: bytes, name: str, payload: bytes) -> bytes:
    return hmac.new(key, name.encode() + b"\0" + payload, hashlib.sha256).digest()


def _hash(*parts: str) -> str:
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0\1")
    return h.hexdigest()
