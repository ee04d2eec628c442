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
import sys
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


# ``[tool.dralint]``, also unclosed (then the file is read, and its TOML error said); the other
# ways to set the table (a dotted key, a key of ``[tool]``) are what key_positions finds of _TOOL.
_TOOL_HEADER = re.compile(r"^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*dralint\b", re.MULTILINE)
_TOOL = ("tool", "dralint")


def _has_tool_table(path: str) -> bool:
    """Whether ``pyproject.toml`` configures dralint: a ``[tool.dralint]`` header, or ``tool.dralint``
    set any other way TOML allows (dotted keys, an inline table). Files that do not name dralint
    at all are not parsed."""
    try:
        text = userfile.read_text(path)
    except ConfigError:
        return False
    if "dralint" not in text:
        return False
    if _TOOL_HEADER.search(text):
        return True
    try:
        tool = _parse_toml(text, path).get("tool")
    except ConfigError:  # invalid TOML that has no [tool.dralint] header: another tool's file
        return False
    return isinstance(tool, dict) and "dralint" in tool


def _parse_toml(text: str, display: str) -> dict[str, Any]:
    # The standard library's tomllib from Python 3.11; on 3.10 its backport tomli, the same code
    # with the same messages (a dependency there).
    tomllib: Any = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{display}: invalid TOML: {error}") from None
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise ConfigError(f"{display}: invalid TOML: nested too deeply") from None
    return data


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
    text = userfile.read_text(path)
    data = _parse_toml(text, display)
    from dralint.read.tomlkeys import key_positions  # only for a pyproject.toml that configures dralint

    keys = key_positions(text, _TOOL)
    line = keys.get((), (1, 1))[0]
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{display}:{line}:1: tool: expected a table, got {_toml_type(tool)}")
    section = tool.get("dralint", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{display}:{line}:1: tool.dralint: expected a table, got {_toml_type(section)}")
    return userfile.UserFile(display, _plain_toml(section), line=line, keys=keys)


def _toml_type(value: Any) -> str:
    """What TOML calls the type of ``value`` (``tool = 5``: an integer)."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array"}
    return names.get(type(value), "a date or time")


def _plain_toml(value: Any) -> Any:
    """TOML dates become ISO strings, as YAML gives them, so both formats validate alike."""
    if isinstance(value, dict):
        return {k: _plain_toml(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_toml(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value
