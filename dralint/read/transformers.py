"""The fields kustomize's built-in transformers set on rendered objects, and the kustomization line that asks for each.

A field the object's source does not hold as rendered was set by a patch (:mod:`dralint.read.kustomized`)
or by one of these: ``namespace``, ``namePrefix``/``nameSuffix``, labels and annotations (every
object), ``replicas`` (the ``spec.replicas`` of the object it names), ``images`` (the ``image`` of
the containers whose image it names, as renamed) and ``replacements`` (the ``fieldPaths`` of the objects its
targets select; the value came from its source object's field, which the note names).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from dralint.apimachinery.fieldpath import Path, value_at
from dralint.dataclass import dataclass
from dralint.findings import Location
from dralint.read import sources
from dralint.read.kustomize import Kustomization
from dralint.read.yamldoc import Document, decode

__all__ = ["Transformed", "transformed"]

# The fields set on every object, by the kustomization field that asks for it.
_EVERY_OBJECT: dict[str, Path] = {
    "namespace": ("metadata", "namespace"),
    "namePrefix": ("metadata", "name"),
    "nameSuffix": ("metadata", "name"),
    "commonLabels": ("metadata", "labels"),
    "labels": ("metadata", "labels"),
    "commonAnnotations": ("metadata", "annotations"),
}
_SELECTOR = re.compile(r"^\[(?P<key>[^=\]]+)=(?P<value>[^\]]*)\]$")

Step = str | int | tuple[str, str]  # a key, an index, "*" (any), or a (key, value) selector of a list item
Where = Callable[[Path], Location]  # a position of a kustomization (or replacement file) as a location


@dataclass(frozen=True, slots=True)
class Transformed:
    """A field a transformer sets (``fields``: steps from the object's root), on which objects, and who asked."""

    fields: tuple[Step, ...]
    asked: Location
    kind: str | None = None  # None: every object
    name: str | None = None
    image: str | None = None  # images: only an ``image`` naming this image
    note: str | None = None

    def sets(self, rendered: Any, kind: str, names: tuple[str, ...], path: Path) -> bool:
        """Whether this sets ``path`` (or a field above it) of the ``rendered`` object of ``kind`` named ``names``."""
        if (self.kind is not None and self.kind != kind) or (self.name is not None and self.name not in names):
            return False
        if self.image is not None:
            value = value_at(rendered, path)
            return bool(path) and path[-1] == "image" and isinstance(value, str) and _names_image(value, self.image)
        if len(path) < len(self.fields):
            return False
        data = rendered
        for step, taken in zip(self.fields, path, strict=False):
            if isinstance(step, tuple):
                item = data[taken] if isinstance(data, list) and isinstance(taken, int) and taken < len(data) else None
                if not isinstance(item, Mapping) or str(item.get(step[0])) != step[1]:
                    return False
            elif step != "*" and step != taken:
                return False
            data = value_at(data, (taken,))
        return True


def transformed(kustomization: Kustomization) -> Iterator[Transformed]:
    """What the transformers of ``kustomization`` set, in the order kustomize runs them (replacements last)."""
    document = kustomization.document
    data = document.data if document is not None else None
    if document is None or not isinstance(data, dict):
        return
    where = _where(kustomization.file, document)
    for key, path in _EVERY_OBJECT.items():
        if data.get(key) not in (None, "", [], {}):
            yield Transformed(path, where((key,)))
    for index, entry in kustomization.entries("images"):
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            image = entry["newName"] if isinstance(entry.get("newName"), str) else entry["name"]
            yield Transformed((), where(("images", index)), image=image)
    for index, entry in kustomization.entries("replicas"):
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            count = ("replicas", index, "count") if "count" in entry else ("replicas", index)
            yield Transformed(("spec", "replicas"), where(count), name=entry["name"])
    for index, entry in kustomization.entries("replacements"):
        yield from _replacement(kustomization, entry, where, ("replacements", index))


def _where(file: str, document: Document) -> Where:
    return lambda path: Location(file, *document.position(path))


def _replacement(kustomization: Kustomization, entry: Any, where: Where, at: Path) -> Iterator[Transformed]:
    if isinstance(entry, dict) and isinstance(entry.get("path"), str):  # the replacement is in a file of its own
        file = sources.display(os.path.join(kustomization.directory, entry["path"]))
        if not os.path.isfile(file):
            return
        source = sources.read(file)
        documents = decode(source.name, source.text)[0] if source.text else []
        for document in documents:
            yield from _replacement_targets(document.data, _where(file, document), ())
        return
    yield from _replacement_targets(entry, where, at)


def _replacement_targets(entry: Any, where: Where, at: Path) -> Iterator[Transformed]:
    entry = _mapping(entry)
    source = _mapping(entry.get("source"))
    copied = " ".join(str(source[k]) for k in ("kind", "name") if isinstance(source.get(k), str))
    field = source.get("fieldPath") if isinstance(source.get("fieldPath"), str) else "metadata.name"
    note = f"the value is copied there by a replacement from {copied} {field}" if copied else None
    targets = entry.get("targets")
    for number, target in enumerate(targets if isinstance(targets, list) else []):
        select = _mapping(_mapping(target).get("select"))
        kind = select.get("kind") if isinstance(select.get("kind"), str) else None
        name = select.get("name") if isinstance(select.get("name"), str) else None
        paths = _mapping(target).get("fieldPaths")
        for index, path in enumerate(paths if isinstance(paths, list) else []):
            if isinstance(path, str):
                asked = where((*at, "targets", number, "fieldPaths", index))
                yield Transformed(_field_path(path), asked, kind, name, note=note)


def _mapping(value: Any) -> dict[str, Any]:
    """``value`` when it is a mapping, else an empty one (the user's kustomization is not trusted)."""
    return value if isinstance(value, dict) else {}


def _field_path(text: str) -> tuple[Step, ...]:
    """kustomize's field path (``spec.containers.[name=model].image``, ``spec.requests.0.name``) as steps."""
    steps: list[Step] = []
    for part in re.findall(r"\[[^\]]*\]|[^.]+", text):
        selector = _SELECTOR.match(part)
        if selector is not None:
            steps.append((selector.group("key"), selector.group("value")))
        else:
            steps.append(int(part) if part.isdigit() else part.strip("[]"))
    return tuple(steps)


def _names_image(image: str, name: str) -> bool:
    """Whether the container image ``image`` is of the image ``name`` (a tag or digest after it, or nothing)."""
    return image == name or image.startswith((f"{name}:", f"{name}@"))

