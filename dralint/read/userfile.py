"""Read one user-written YAML file (configuration, user rules) keeping positions for error messages.

Unlike manifests, these files configure dralint itself: anything wrong with them is a
:class:`~dralint.errors.ConfigError` (exit code 2) that names the file, line and column.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.errors import ConfigError
from dralint.read.sources import DEFAULT_MAX_FILE_BYTES, NotARegularFile, decode_bytes, read_bytes
from dralint.read.yamldoc import Document, decode


@dataclass(frozen=True, slots=True)
class UserFile:
    """A decoded YAML file and the way back from field paths to positions."""

    name: str
    data: Any
    document: Document | None = None
    base: Path = ()  # where ``data`` sits in the document (``("tool", "dralint")`` for pyproject.toml)
    line: int = 1  # position of ``data`` when there is no document (TOML, a file decoded ahead of time)
    column: int = 1
    # Without a document, where keys are written (TOML: :mod:`dralint.read.tomlkeys`), by path;
    # a path not in it is at its nearest recorded ancestor, or at ``line`` and ``column``.
    keys: Mapping[Path, tuple[int, int]] = field(default_factory=dict)

    def position(self, path: Path) -> tuple[int, int]:
        if self.document is None:
            for depth in range(len(path), -1, -1):
                found = self.keys.get(path[:depth])
                if found is not None:
                    return found
            return (self.line, self.column)
        return self.document.position(self.base + path)

    def where(self, path: Path = (), offset: int | None = None) -> str:
        """``file:line:column`` of the value at ``path``; of its character ``offset`` when it is a string
        scalar of a YAML document (a CEL error inside an expression)."""
        if offset is not None and self.document is not None:
            line, column = self.document.scalar_position(self.base + path, offset)
        else:
            line, column = self.position(path)
        return f"{self.name}:{line}:{column}"


def parse(name: str, text: str) -> UserFile:
    """Decode ``text``; syntax errors, duplicate keys and several documents are configuration errors."""
    documents, issues = decode(name, text, templates=False)
    if issues:
        issue = issues[0]
        raise ConfigError(f"{name}:{issue.line}:{issue.column}: {issue.message}")
    if len(documents) > 1:
        raise ConfigError(f"{name}:{documents[1].line}:1: expected one YAML document, found several")
    if not documents:
        return UserFile(name, None)
    return UserFile(name, documents[0].data, documents[0])


def read_text(path: str, *, max_bytes: int = DEFAULT_MAX_FILE_BYTES, what: str = "file") -> str:
    """The UTF-8 text of a file that configures dralint, within the same size limit as manifests."""
    try:
        raw = read_bytes(path, max_bytes)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such {what}") from None
    except NotARegularFile as error:
        raise ConfigError(f"{path}: {error}") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(raw) > max_bytes:
        raise ConfigError(f"{path}: {what} is larger than {max_bytes} bytes (limits.maxFileBytes)")
    # As manifests are read: a byte-order mark (UTF-8 or UTF-16) is honoured, and a byte that is
    # not UTF-8 is named with its position.
    text, issues = decode_bytes(raw)
    if issues:
        issue = issues[0]
        raise ConfigError(f"{path}:{issue.line}:{issue.column}: {issue.message}")
    return text


def read(path: str, *, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> UserFile:
    return parse(path, read_text(path, max_bytes=max_bytes))
