"""Where dralint's data lives: ``rules/`` (the catalogue), ``schemas/`` (JSON schemas), ``profiles/`` (drivers).

All are top-level folders of the repository, so that editors and other tools can use them
where they are. In a source checkout (and an editable install) they sit beside the package; a
wheel installs them under ``<prefix>/share/dralint/`` (the ``data-files`` of ``pyproject.toml``).

Decoding YAML with positions costs more than anything else in reading the catalogue (a tenth of
a one-file check) or a driver profile, so ``rules/`` and ``profiles/`` also hold
``decoded.json``: their YAML files decoded ahead of time, each with a CRC of its text (written
by ``scripts/generate_decoded.py``, kept current by tests). :func:`decoded` gives a file's
decoded content when the CRC matches the file as it is; otherwise (an edited file; an absent,
broken or foreign ``decoded.json``) the caller decodes the YAML, which stays the source.
"""

from __future__ import annotations

import json
import site
import sys
import zlib
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

__all__ = ["DECODED_FILE", "DecodedOnRead", "Folder", "decoded", "decoded_text", "entry_lines", "folder"]

Folder = Literal["rules", "schemas", "profiles"]

# A file each folder must hold, so that an unrelated folder of the same name is not taken for it.
_MARKERS: dict[Folder, str] = {"rules": "input.yaml", "schemas": "rules.schema.json", "profiles": "README.md"}


@cache
def folder(name: Folder) -> Path:
    """The ``rules``, ``schemas`` or ``profiles`` folder of this installation."""
    for candidate in _candidates(name):
        if (candidate / _MARKERS[name]).is_file():
            return candidate
    raise RuntimeError(f"dralint's {name}/ folder is missing from its installation (reinstall dralint)")


def _candidates(name: Folder) -> Iterator[Path]:
    yield Path(__file__).resolve().parent.parent / name  # a checkout or an editable install
    yield Path(sys.prefix) / "share" / "dralint" / name  # a wheel in a virtualenv or the system
    yield Path(site.getuserbase()) / "share" / "dralint" / name  # pip install --user
    import sysconfig  # only when the common places missed: other installation schemes

    yield Path(sysconfig.get_path("data")) / "share" / "dralint" / name


DECODED_FILE = "decoded.json"
DECODED_FORMAT = 1


def decoded(name: Folder, texts: Mapping[str, str]) -> dict[str, Any] | None:
    """The decoded content of each file of ``texts`` (file name in the folder -> its text), if
    ``<folder>/decoded.json`` was written from every one of them as they are; ``None`` otherwise."""
    table = _decoded_table(folder(name))
    out: dict[str, Any] = {}
    for file, text in texts.items():
        entry = table.get(file)
        if not isinstance(entry, dict) or entry.get("crc") != _crc(text) or "content" not in entry:
            return None
        out[file] = entry["content"]
    return out


def decoded_text(contents: Mapping[str, tuple[str, Any]]) -> str:
    """The text of a ``decoded.json`` for ``contents`` (file name -> (its text, its decoded content)),
    one file per line, so that a change to a file is a change to one line."""
    lines = [
        f"{json.dumps(file)}: {json.dumps({'crc': _crc(text), 'content': content}, ensure_ascii=False)}"
        for file, (text, content) in contents.items()
    ]
    files = ",\n".join(lines)
    return f'{{"format": {DECODED_FORMAT}, "files": {{\n{files}\n}}}}\n'


@cache
def _decoded_table(where: Path) -> Mapping[str, Any]:
    try:
        text = (where / DECODED_FILE).read_text(encoding="utf-8")
        by_line = _by_line(text)
        if by_line is not None:
            return by_line
        loaded = json.loads(text)
    except (OSError, ValueError):  # absent or unreadable: the YAML files are enough
        return {}
    files = loaded.get("files") if isinstance(loaded, dict) and loaded.get("format") == DECODED_FORMAT else None
    return files if isinstance(files, dict) else {}


# decoded_text writes one file per line; a run reads a few driver profiles of the many that are
# shipped, so each line is decoded when its file is first asked for.
_HEAD = f'{{"format": {DECODED_FORMAT}, "files": {{\n'
_TAIL = "\n}}\n"


def _by_line(text: str) -> Mapping[str, Any] | None:
    """The files of a ``decoded.json`` laid out as :func:`decoded_text` writes it, each decoded when first read."""
    if not (text.startswith(_HEAD) and text.endswith(_TAIL)):
        return None
    texts = entry_lines(text[len(_HEAD) : -len(_TAIL)], ": ")
    # A broken line reads as None: the file's YAML is read instead, as for a broken decoded.json.
    return None if texts is None else DecodedOnRead(texts, broken_as_none=True)


def entry_lines(body: str, separator: str) -> dict[str, str] | None:
    """The JSON text of each entry of an object's body written one entry a line (``"name"<separator>value,``),
    by name; ``None`` when a line is not laid out so."""
    texts: dict[str, str] = {}
    decoder = json.JSONDecoder()
    for line in body.split("\n") if body else ():
        try:
            name, end = decoder.raw_decode(line)
        except ValueError:
            return None
        if not isinstance(name, str) or line[end : end + len(separator)] != separator:
            return None
        texts[name] = line[end + len(separator) :].removesuffix(",")
    return texts


class DecodedOnRead(Mapping[str, Any]):
    """JSON values by name, kept as text and each decoded when first read: a run reads few of the many
    driver profiles and schema definitions dralint ships, and decoding them all cost a one-file check
    a tenth of its own work. With ``broken_as_none`` an undecodable value reads as ``None``."""

    def __init__(self, texts: dict[str, str], *, broken_as_none: bool = False) -> None:
        self._texts = texts
        self._decoded: dict[str, Any] = {}
        self._broken_as_none = broken_as_none

    def __getitem__(self, name: str) -> Any:
        if name not in self._decoded:
            try:
                self._decoded[name] = json.loads(self._texts[name])
            except ValueError:
                if not self._broken_as_none:
                    raise
                self._decoded[name] = None
        return self._decoded[name]

    def __contains__(self, name: object) -> bool:
        return name in self._texts

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


def _crc(text: str) -> int:
    # Tells edited files from those decoded.json was written from; no protection against tampering
    # is needed: it only decides which of two copies of dralint's own data to read.
    return zlib.crc32(text.encode("utf-8"))
