"""Where dralint's data lives: ``rules/`` (the catalogue), ``schemas/`` (JSON schemas), ``profiles/`` (drivers).

All are top-level folders of the repository, so that editors and other tools can use them
where they are. In a source checkout (and an editable install) they sit beside the package; a
wheel installs them under ``<prefix>/share/dralint/`` (the ``data-files`` of ``pyproject.toml``).
"""

from __future__ import annotations

import site
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Literal

__all__ = ["Folder", "folder"]

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
