"""The :class:`~dralint.read.sourcemap.SourceMap` of a rendered kustomization: origins, patches, generators.

kustomize's ``config.kubernetes.io/origin`` annotation names the file an object was read from
(or the kustomization whose generator made it); it names no patch
(``alpha.config.kubernetes.io/transformations`` only says that a PatchTransformer ran, for every
object alike). So a field is attributed to the last patch of the kustomization and its bases
that targets the object and sets that field to the rendered value, else to the kustomization line
of a transformer that set it (:mod:`dralint.read.transformers`: namespace, names, labels,
replicas, images, replacements), else to the field (or its nearest parent) in the object's source
document; list items merged by a key are found by it (:mod:`dralint.read.mergekeys`).
"""

from __future__ import annotations

import os
from typing import Any

from dralint.apimachinery.fieldpath import Path, value_at
from dralint.dataclass import dataclass
from dralint.findings import Location
from dralint.read import kustomize, sources
from dralint.read.kustomize import Kustomization
from dralint.read.mergekeys import written_path
from dralint.read.sourcemap import SourceMap, document_offset, same_value
from dralint.read.transformers import Transformed, transformed
from dralint.read.yamldoc import Document, decode

__all__ = ["source_map"]

ORIGIN_ANNOTATION = "config.kubernetes.io/origin"


@dataclass(frozen=True, slots=True)
class _Patch:
    """One patch of a kustomization: its document, and where an inline patch's text sits in the kustomization."""

    file: str
    document: Document
    target: dict[str, Any]  # kind, name, group, version (absent: the patch's own kind and name)
    inline: tuple[Document, Path] | None = None  # the kustomization's document and the path of the text

    def position(self, path: Path, offset: int | None = None) -> tuple[int, int]:
        """Where the patch sets ``path`` (character ``offset`` of its string value, if given) in the user's file."""
        line, column = self.document.position(path) if offset is None else self.document.scalar_position(path, offset)
        if self.inline is None:
            return line, column
        owner, where = self.inline
        return owner.scalar_position(where, document_offset(self.document.text, line, column))

    def targets(self, kind: str, names: tuple[str, ...]) -> bool:
        wanted_kind = self.target.get("kind")
        wanted_name = self.target.get("name")
        return (wanted_kind is None or wanted_kind == kind) and (wanted_name is None or wanted_name in names)

    def sets(self, rendered: Any, path: Path) -> Path | None:
        """The path in the patch document where it sets ``path`` of the ``rendered`` object, if it does."""
        data = self.document.data
        if isinstance(data, dict):  # strategic merge: the object's own shape, keyed lists in the patch's order
            where, complete = written_path(rendered, data, path)
            return where if complete else None
        for index, op in enumerate(data if isinstance(data, list) else []):
            if not isinstance(op, dict) or op.get("op") not in ("add", "replace"):
                continue
            if not isinstance(op.get("path"), str):
                continue
            pointer = _pointer(op["path"])
            if pointer == path[: len(pointer)] and value_at(op.get("value"), path[len(pointer) :]) is not None:
                return (index, "value", *path[len(pointer) :])
        return None


@dataclass(frozen=True, slots=True)
class _ObjectOrigin:
    """A rendered object read from a file, then perhaps patched."""

    file: str
    document: Document | None
    patches: tuple[_Patch, ...]
    transformers: tuple[Transformed, ...]  # fields kustomize's transformers set, and who asked
    names: tuple[str, ...]  # its name as rendered and as written in the source

    def locate(self, rendered: Document, path: Path, offset: int | None) -> tuple[Location, str | None]:
        kind = rendered.data.get("kind") if isinstance(rendered.data, dict) else None
        value = value_at(rendered.data, path)
        for patch in reversed(self.patches):
            where = patch.sets(rendered.data, path) if patch.targets(str(kind), self.names) else None
            if where is not None and same_value(value, value_at(patch.document.data, where)):
                return Location(patch.file, *patch.position(where, offset if isinstance(value, str) else None)), None
        if self.document is None:
            return Location(self.file, 1, 1), None
        # the base's keyed lists may be in another order (a patch's items come first): its own path of the field
        source_path, complete = written_path(rendered.data, self.document.data, path)
        written = complete and same_value(value, value_at(self.document.data, source_path))
        if written and offset is not None:
            return Location(self.file, *self.document.scalar_position(source_path, offset)), None
        for change in () if written else reversed(self.transformers):
            if change.sets(rendered.data, str(kind), self.names, path):
                return change.asked, change.note
        return Location(self.file, *self.document.position(source_path)), None

    def start(self) -> Location:
        return Location(self.file, *(self.document.position(()) if self.document is not None else (1, 1)))


@dataclass(frozen=True, slots=True)
class _GeneratedOrigin:
    """A ConfigMap or Secret made by a generator of a kustomization."""

    kustomization: Kustomization
    entry: Path  # the generator's entry in the kustomization

    def locate(self, rendered: Document, path: Path, offset: int | None) -> tuple[Location, str | None]:
        return self._locate(path), None

    def _locate(self, path: Path) -> Location:
        """A data key at the literal or file of the generator that made it; anything else at the generator."""
        document = self.kustomization.document
        entry = value_at(document.data, self.entry) if document is not None and self.entry else None
        if document is None or not isinstance(entry, dict) or len(path) < 2 or path[0] not in ("data", "binaryData"):
            return self.start()
        key = str(path[1])
        for index, literal in enumerate(entry.get("literals") or []):
            if isinstance(literal, str) and literal.partition("=")[0] == key:
                return Location(self.kustomization.file, *document.position((*self.entry, "literals", index)))
        for named in entry.get("files") or []:
            name, _, file = named.partition("=") if isinstance(named, str) else ("", "", "")
            if key in (name, os.path.basename(name)) and not file:
                return Location(sources.display(os.path.join(self.kustomization.directory, name)), 1, 1)
            if key == name and file:
                return Location(sources.display(os.path.join(self.kustomization.directory, file)), 1, 1)
        return self.start()

    def start(self) -> Location:
        document = self.kustomization.document
        return Location(self.kustomization.file, *(document.position(self.entry) if document else (1, 1)))


def source_map(rendered_name: str, root: Kustomization, documents: list[Document], wrapper: str) -> SourceMap:
    """The origins of the rendered ``documents`` of the kustomization ``root`` (built in ``wrapper``)."""
    chain = _chain(root, set())
    patches = _patches(chain)
    transformers = tuple(change for kustomization in chain for change in transformed(kustomization))
    files: dict[str, list[Document]] = {}
    origins: dict[int, Any] = {}
    for document in documents:
        origin = _origin(document, wrapper, root, (patches, transformers), files)
        if origin is not None:
            origins[document.index] = origin
    starts = sorted((document.line, document.index) for document in documents)
    built = frozenset(_shown(path, root) for path in kustomize.builds(root)[0])
    return SourceMap(rendered_name, Location(root.file, 1, 1), origins, starts, built)


def _origin(
    document: Document,
    wrapper: str,
    root: Kustomization,
    changes: tuple[tuple[_Patch, ...], tuple[Transformed, ...]],
    files: dict[str, list[Document]],
) -> Any:
    data = _mapping(document.data)
    metadata = _mapping(data.get("metadata"))
    text = _mapping(metadata.get("annotations")).get(ORIGIN_ANNOTATION)
    decoded = decode("", text)[0] if isinstance(text, str) else []
    origin = _mapping(decoded[0].data) if decoded else {}
    kind, name = str(data.get("kind")), str(metadata.get("name"))
    if isinstance(origin.get("path"), str) and "repo" not in origin:
        file = _shown(os.path.normpath(os.path.join(wrapper, origin["path"])), root)
        if file not in files:
            source = sources.read(file)
            files[file] = decode(source.name, source.text)[0] if source.text else []
        source_document = _same_object(files[file], kind, name)
        names = (name, *_name_of(source_document))
        return _ObjectOrigin(file, source_document, *changes, names)
    if isinstance(origin.get("configuredIn"), str):
        owner = kustomize.load(_shown(os.path.normpath(os.path.join(wrapper, origin["configuredIn"])), root))
        by = _mapping(origin.get("configuredBy"))
        field = {"ConfigMapGenerator": "configMapGenerator", "SecretGenerator": "secretGenerator"}.get(
            str(by.get("kind")), ""
        )
        for index, entry in owner.entries(field):
            if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"] in name:
                return _GeneratedOrigin(owner, (field, index))
        return _GeneratedOrigin(owner, ())
    return None


def _mapping(value: Any) -> dict[str, Any]:
    """``value`` when it is a mapping, else an empty one (kustomize's output and the user's files are not trusted)."""
    return value if isinstance(value, dict) else {}


def _shown(absolute: str, root: Kustomization) -> str:
    """A path as findings show it: relative to the working folder, unless the kustomization was named absolutely."""
    if os.path.isabs(root.file):
        return absolute.replace(os.sep, "/")
    return sources.display(os.path.relpath(absolute))


def _same_object(documents: list[Document], kind: str, name: str) -> Document | None:
    """The document of ``documents`` holding the object rendered as ``kind``/``name`` (prefixes, suffixes aside)."""
    candidates = [d for d in documents if isinstance(d.data, dict) and d.data.get("kind") == kind]
    for match in (lambda n: n == name, lambda n: n in name):
        found = [d for d in candidates if match(str(_name_of(d)[0] if _name_of(d) else ""))]
        if found:
            return found[0]
    return candidates[0] if candidates else (documents[0] if documents else None)


def _name_of(document: Document | None) -> tuple[str, ...]:
    metadata = document.data.get("metadata") if document is not None and isinstance(document.data, dict) else None
    name = metadata.get("name") if isinstance(metadata, dict) else None
    return (name,) if isinstance(name, str) else ()


def _chain(kustomization: Kustomization, seen: set[str]) -> list[Kustomization]:
    """``kustomization`` after its local bases, in the order kustomize applies their patches and transformers."""
    seen.add(os.path.abspath(kustomization.file))
    found: list[Kustomization] = []
    for _, _, entry in kustomization.resources():
        directory = os.path.join(kustomization.directory, entry)
        base = kustomize.file_in(directory) if os.path.isdir(directory) else None
        if base is not None and os.path.abspath(base) not in seen:
            found.extend(_chain(kustomize.load(base), seen))
    return [*found, kustomization]


def _patches(chain: list[Kustomization]) -> tuple[_Patch, ...]:
    found: list[_Patch] = []
    for kustomization in chain:
        for key in ("patchesStrategicMerge", "patchesJson6902", "patches"):
            for index, entry in kustomization.entries(key):
                found.extend(_patch(kustomization, (key, index), entry))
    return tuple(found)


def _patch(kustomization: Kustomization, where: Path, entry: Any) -> list[_Patch]:
    target = _mapping(entry.get("target")) if isinstance(entry, dict) else {}
    owner = kustomization.document
    if isinstance(entry, str) and where[0] == "patchesStrategicMerge" and "\n" not in entry:
        entry = {"path": entry}
    if isinstance(entry, dict) and isinstance(entry.get("path"), str):
        file = sources.display(os.path.join(kustomization.directory, entry["path"]))
        if not os.path.isfile(file):
            return []
        source = sources.read(file)
        documents = decode(source.name, source.text)[0] if source.text else []
        return [_Patch(file, d, dict(target) or _own_target(d)) for d in documents]
    text = entry.get("patch") if isinstance(entry, dict) else entry
    if not isinstance(text, str) or owner is None:
        return []
    text_path = (*where, "patch") if isinstance(entry, dict) else where
    documents = decode(kustomization.file, text)[0]
    return [_Patch(kustomization.file, d, dict(target) or _own_target(d), (owner, text_path)) for d in documents]


def _own_target(document: Document) -> dict[str, Any]:
    """A strategic-merge patch targets the object of its own kind and name."""
    data = document.data if isinstance(document.data, dict) else {}
    return {"kind": data.get("kind"), "name": next(iter(_name_of(document)), None)}


def _pointer(text: str) -> Path:
    """A JSON pointer (RFC 6901) as a path: ``/spec/selectors/0`` → ``("spec", "selectors", 0)``."""
    steps: list[str | int] = []
    for raw in text.split("/")[1:]:
        step = raw.replace("~1", "/").replace("~0", "~")
        steps.append(int(step) if step.isdigit() else step)
    return tuple(steps)
