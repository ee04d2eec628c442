"""dralint's installed dependencies repacked as wheels, for offline installs into fresh environments.

A virtual environment made with ``--system-site-packages`` sees only the *base* interpreter's
packages, not those of the virtualenv or user install running the tests; so the tests that
install dralint somewhere new (a wheel, the GitHub Action, a pre-commit hook) repack the
installed dependencies into wheels (a wheelhouse) and point pip at it with ``--find-links`` and
no index.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as metadata
import re
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from testing.run import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 (pytest depends on tomli there)
    import tomli as tomllib


def requirements(pyproject: Path = ROOT / "pyproject.toml") -> list[Requirement]:
    """dralint's runtime dependencies, as this checkout declares them."""
    with open(pyproject, "rb") as handle:
        return [Requirement(text) for text in tomllib.load(handle)["project"]["dependencies"]]


def closure(wanted: Iterable[Requirement]) -> list[metadata.Distribution]:
    """The installed distributions that satisfy ``wanted`` and their dependencies (markers evaluated here)."""
    found: dict[str, metadata.Distribution] = {}
    queue = [(requirement, "") for requirement in wanted]
    while queue:
        requirement, extra = queue.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        if name not in found:
            try:
                found[name] = metadata.distribution(requirement.name)
            except metadata.PackageNotFoundError:
                raise LookupError(f"{requirement.name} is not installed; run pip install -e '.[dev]'") from None
            queue.extend((Requirement(text), "") for text in found[name].requires or ())
        for wanted_extra in requirement.extras:
            for text in found[name].requires or ():
                queue.append((Requirement(text), wanted_extra))
    return [found[name] for name in sorted(found)]


def repack(distribution: metadata.Distribution, directory: Path) -> Path:
    """A wheel of an installed distribution, made from the files its RECORD lists.

    Scripts and data outside site-packages are left out (pip writes console scripts again from
    ``entry_points.txt``), as are byte-code caches; the RECORD is written anew for what is kept.
    """
    info = distribution.read_text("WHEEL") or ""
    tags = re.findall(r"^Tag: (\S+)$", info, re.MULTILINE)
    if not tags:
        raise LookupError(f"{distribution.metadata['Name']} was not installed from a wheel")
    name = re.sub(r"[-_.]+", "_", distribution.metadata["Name"])
    # A compressed tag set, as wheel file names write it (cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64)
    parts = [".".join(sorted({tag.split("-")[n] for tag in tags})) for n in range(3)]
    wheel = directory / f"{name}-{distribution.version}-{'-'.join(parts)}.whl"
    records: list[str] = []
    record_name = ""
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in distribution.files or ():
            relative = file.as_posix()
            if relative.startswith("..") or "__pycache__" in relative or relative.endswith(".pyc"):
                continue
            if relative.endswith(".dist-info/RECORD"):
                record_name = relative
                continue
            if relative.endswith(".dist-info/INSTALLER") or relative.endswith(".dist-info/direct_url.json"):
                continue
            data = Path(str(distribution.locate_file(file))).read_bytes()
            archive.writestr(relative, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            records.append(f"{relative},sha256={digest},{len(data)}")
        records.append(f"{record_name},,")
        archive.writestr(record_name, "\n".join(records) + "\n")
    return wheel


def wheelhouse(directory: Path) -> Path:
    """Wheels of dralint's installed dependencies in ``directory`` (created)."""
    directory.mkdir(parents=True, exist_ok=True)
    for distribution in closure(requirements()):
        repack(distribution, directory)
    return directory
