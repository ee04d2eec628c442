"""The configuration file: find it, read it, and validate it against ``schemas/config.schema.json``.

``.dralint.yaml`` (or ``.dralint.yml``, or ``[tool.dralint]`` in ``pyproject.toml``) is looked
for in the current directory and then its parents, up to the root of the git repository.
Reading only: what the values mean, and how they combine with flags and the environment, is
:mod:`dralint.config.resolve`'s job.
"""

from __future__ import annotations

import datetime
import importlib
import os
import re
from collections.abc import Mapping
from typing import Any

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.errors import ConfigError
from dralint.read import userfile
from dralint.validate import userschema as schemacheck

CONFIG_NAMES = (".dralint.yaml", ".dralint.yml")
SCHEMA = "config.schema.json"  # in schemas/
PYPROJECT = "pyproject.toml"


@dataclass(frozen=True, slots=True)
class ConfigFile:
    """A validated configuration file; relative paths and globs in it are relative to ``root``."""

    file: userfile.UserFile
    root: str

    @property
    def name(self) -> str:
        return self.file.name

    @property
    def data(self) -> Mapping[str, Any]:
        return self.file.data if isinstance(self.file.data, Mapping) else {}

    def where(self, path: Path = ()) -> str:
        return self.file.where(path)

    def position(self, path: Path = ()) -> tuple[int, int]:
        return self.file.position(path)


def discover(start: str = ".") -> str | None:
    """The configuration file that applies in ``start``: the nearest one up to the git root."""
    directory = os.path.abspath(start)
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return candidate
        pyproject = os.path.join(directory, PYPROJECT)
        if os.path.isfile(pyproject) and _has_tool_table(pyproject):
            return pyproject
        parent = os.path.dirname(directory)
        if os.path.exists(os.path.join(directory, ".git")) or parent == directory:
            return None
        directory = parent


_TOOL_HEADER = re.compile(r"^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*dralint[ \t]*[\].]", re.MULTILINE)


def _has_tool_table(path: str) -> bool:
    try:
        return _TOOL_HEADER.search(userfile.read_text(path)) is not None
    except ConfigError:
        return False


def load(path: str) -> ConfigFile:
    """Read and validate the configuration at ``path``; any defect is a :class:`ConfigError`."""
    display = _display(path)
    if os.path.basename(path) == PYPROJECT:
        file = _read_pyproject(path, display)
    else:
        read = userfile.read(path)
        file = userfile.UserFile(display, read.data, read.document)
    if file.data is None:
        file = userfile.UserFile(file.name, {}, file.document)
    schemacheck.validate(schemacheck.schema(SCHEMA), file.data, file.where)
    return ConfigFile(file, os.path.dirname(os.path.abspath(path)))


def _display(path: str) -> str:
    relative = os.path.relpath(os.path.abspath(path))
    return relative if not relative.startswith("..") else os.path.abspath(path)


def _read_pyproject(path: str, display: str) -> userfile.UserFile:
    try:
        tomllib: Any = importlib.import_module("tomllib")  # standard library from Python 3.11
    except ImportError:  # pragma: no cover - depends on the Python version
        raise ConfigError(f"{display}: reading [tool.dralint] needs Python 3.11 or newer; use .dralint.yaml") from None

    text = userfile.read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{display}: invalid TOML: {error}") from None
    match = _TOOL_HEADER.search(text)
    line = text.count("\n", 0, match.start()) + 1 if match else 1
    section = data.get("tool", {}).get("dralint", {})
    return userfile.UserFile(display, _plain_toml(section), line=line)


def _plain_toml(value: Any) -> Any:
    """TOML dates become ISO strings, as YAML gives them, so both formats validate alike."""
    if isinstance(value, dict):
        return {k: _plain_toml(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_toml(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value
