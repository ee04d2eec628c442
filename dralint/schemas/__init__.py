"""The generated schema store: JSON schemas of the kinds dralint validates, per Kubernetes release.

``schemas/kubernetes.json.gz`` is written by ``scripts/generate_schemas.py`` from the
kubernetes-validate bundle and shipped with dralint (see :mod:`dralint.data`); nothing is
fetched at run time. It holds every definition once, named by a hash of its content
(``$ref``s point at those names), and per release the root definition of each (apiVersion,
kind). This module reads it and walks schemas along field paths; validation itself is
:mod:`dralint.validate.schema`.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from dralint import data
from dralint.apimachinery.fieldpath import Key, Path

FORMAT_VERSION = 1
STORE_FILE = "kubernetes.json.gz"  # in the top-level schemas/ folder

Schema = Mapping[str, Any]


@cache
def store() -> Mapping[str, Any]:
    """The decoded store (read once); its definitions are decoded one by one, when first used."""
    text = gzip.decompress((data.folder("schemas") / STORE_FILE).read_bytes()).decode("utf-8")
    loaded = _by_line(text)
    if loaded is None:  # pragma: no cover - another layout of the same JSON: decoded whole
        loaded = json.loads(text)
    if loaded.get("format") != FORMAT_VERSION:  # pragma: no cover - guards a stale generated file
        raise RuntimeError(f"{STORE_FILE} has format {loaded.get('format')}, expected {FORMAT_VERSION}")
    return loaded


# scripts/generate_schemas.py writes the definitions first, one per line, and the rest of the store
# after them: a run validates against a few dozen of the 546 definitions, and decoding them all
# took a tenth of a one-file check's own work.
_HEAD = '{"definitions":{\n'


def _by_line(text: str) -> dict[str, Any] | None:
    """The store with lazily decoded definitions, if ``text`` is laid out as the generator writes it."""
    end = text.find("\n}", len(_HEAD) - 1)
    if not text.startswith(_HEAD) or end < 0 or text[end + 2 : end + 3] not in (",", "}"):
        return None
    texts = data.entry_lines(text[len(_HEAD) : end] if end > len(_HEAD) else "", ":")
    if texts is None:
        return None
    loaded: dict[str, Any] = json.loads("{" + text[end + 3 :]) if text[end + 2] == "," else {}
    loaded["definitions"] = data.DecodedOnRead(texts)
    return loaded


def definitions() -> Mapping[str, Schema]:
    """Every stored definition by name; ``$ref`` values are ``#/$defs/<name>``."""
    defs: Mapping[str, Schema] = store()["definitions"]
    return defs


def root_name(release: str, api_version: str, kind: str) -> str | None:
    """The definition describing ``kind`` of ``api_version`` in ``release``, if that release has it."""
    name: str | None = store()["releases"].get(release, {}).get(api_version, {}).get(kind)
    return name


def kinds(release: str) -> dict[tuple[str, str], str]:
    """(apiVersion, kind) → root definition name, for every kind stored for ``release``."""
    return {
        (api_version, kind): name
        for api_version, by_kind in store()["releases"].get(release, {}).items()
        for kind, name in by_kind.items()
    }


def resolve(schema: Schema) -> Schema:
    """``schema`` with any ``$ref`` chain followed."""
    while "$ref" in schema:
        schema = definitions()[schema["$ref"].rpartition("/")[2]]
    return schema


def properties(schema: Schema) -> Mapping[str, Schema]:
    """The declared fields of an object schema (empty for maps and scalars)."""
    props: Mapping[str, Schema] = resolve(schema).get("properties", {})
    return props


def child(schema: Schema, step: str | int) -> Schema | None:
    """The schema of ``step`` (a field, map key or list index) below ``schema``; ``None`` if undeclared."""
    schema = resolve(schema)
    if isinstance(step, int):
        items = schema.get("items")
        return items if isinstance(items, Mapping) else None
    props = schema.get("properties")
    if props is not None and not isinstance(step, Key):
        found: Schema | None = props.get(step)
        return found
    extra = schema.get("additionalProperties")
    return extra if isinstance(extra, Mapping) else None


def at_path(release: str, api_version: str, kind: str, path: Path) -> Schema | None:
    """The schema of the value at ``path`` in ``kind``, or ``None`` when the path is not declared."""
    name = root_name(release, api_version, kind)
    if name is None:
        return None
    schema: Schema | None = definitions()[name]
    for step in path:
        if schema is None:
            return None
        schema = child(schema, step)
    return schema


def typed_path(release: str, api_version: str, kind: str, steps: Path) -> Path:
    """``steps`` with map keys marked as :class:`~dralint.apimachinery.fieldpath.Key` (fields stay plain strings).

    jsonschema reports paths as bare strings; whether a string is a field or a map key depends on
    the schema at that point, and decides how the path is rendered (``.name`` or ``[key]``).
    """
    name = root_name(release, api_version, kind)
    schema: Schema | None = definitions()[name] if name is not None else None
    out: list[str | int] = []
    for step in steps:
        if isinstance(step, str) and schema is not None:
            resolved = resolve(schema)
            if "properties" not in resolved and isinstance(resolved.get("additionalProperties"), Mapping):
                step = Key(step)
        out.append(step)
        schema = child(schema, step) if schema is not None else None
    return tuple(out)
