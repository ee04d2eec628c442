"""A file's text with its ``resource.k8s.io`` objects rewritten into another served version.

:func:`rewrite_text` does what does not depend on the release: only the documents that hold an
object to convert are rewritten (ruamel's round trip keeps comments, key order, quoting, the
file's indentation and its line breaks, CRLF included); every other document is copied character
for character. :func:`fit` then refuses what the target release cannot take: a version it does
not serve, a field the version does not have there. :func:`convert_text` is both, in that order.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

from dralint.api import rewrite
from dralint.api.rewrite import ConvertError
from dralint.api.versions import GROUP, LEGACY_VERSIONS, SERVED, VERSIONS
from dralint.apimachinery.fieldpath import render
from dralint.dataclass import dataclass
from dralint.errors import InputError
from dralint.regex import compiled_on_first_use

__all__ = [
    "Converted",
    "Written",
    "chunks",
    "convert_text",
    "fit",
    "rewrite_text",
    "round_trip",
    "round_trip_yaml",
]


@dataclass(frozen=True, slots=True)
class Written:
    """An object rewritten into the target version."""

    kind: str
    name: str  # namespace/name or name
    where: str  # file:line
    value: Any  # as plain data


@dataclass(frozen=True, slots=True)
class Converted:
    text: str
    objects: int  # objects rewritten
    written: tuple[Written, ...] = ()


def convert_text(text: str, file: str, target: str, release: str | None = None) -> Converted:
    """``text`` (one file) with every DRA object of another version rewritten into ``target``, fit for
    ``release`` (``None``: the newest release serving ``target``); raises :class:`ConvertError`."""
    converted = rewrite_text(text, file, target)
    fit(converted, target, release)
    return converted


def rewrite_text(text: str, file: str, target: str) -> Converted:
    """``text`` with its DRA objects rewritten into ``target`` (the shape; :func:`fit` checks the release)."""
    if file.lower().endswith(".json"):
        return _rewrite_json(text, file, target)
    out: list[str] = []
    written: list[Written] = []
    for start, chunk in chunks(text):
        out.append(_rewrite_chunk(chunk, file, start, target, written))
    return Converted("".join(out), len(written), tuple(written))


def fit(converted: Converted, target: str, release: str | None) -> None:
    """Refuse the objects ``release`` cannot take in ``target``: a version it does not serve, or fields
    the version does not have there (they would be dropped or rejected)."""
    from dralint.validate.schema import validate

    for item in converted.written:
        context = f"{item.where}: cannot convert {item.kind} {item.name} to {GROUP}/{target}"
        chosen = _release(item.kind, target, release, item.where)
        errors = validate(chosen, f"{GROUP}/{target}", item.kind, item.value)
        unknown = [e for e in errors if e.problem == "unknown-field"]
        if unknown:
            fields = ", ".join(render(e.path) for e in unknown[:3]) + (" ..." if len(unknown) > 3 else "")
            raise ConvertError(
                f"{context}: {fields} cannot be represented there (no such field in Kubernetes {chosen}); "
                "nothing converted"
            )


def _release(kind: str, target: str, release: str | None, where: str) -> str:
    served = SERVED.get((kind, target), ())
    if not served:
        raise ConvertError(f"{where}: no Kubernetes release serves {GROUP}/{target} {kind}")
    if release is None:
        return served[-1]
    if release not in served:
        window = served[0] if len(served) == 1 else f"{served[0]}-{served[-1]}"
        raise ConvertError(f"{where}: Kubernetes {release} does not serve {GROUP}/{target} {kind} (served in {window})")
    return release


# A line that only starts a new document: the file is split there, so that documents without
# anything to convert are copied as they are.
_MARKER = compiled_on_first_use(r"---[ \t]*(#.*)?")
_LINES = compiled_on_first_use(r"[^\n]*\n|[^\n]+")


def chunks(text: str) -> Iterator[tuple[int, str]]:
    """(first line, text) of the parts of ``text`` between document markers (the markers included).

    Lines end at ``\\n`` only, as YAML's line breaks (``\\r\\n`` too) and editors count them."""
    start, current = 1, list[str]()
    for number, match in enumerate(_LINES().finditer(text), start=1):
        line = match.group()
        if _MARKER().fullmatch(line.rstrip("\r\n")) and current:
            yield start, "".join(current)
            start, current = number, []
        current.append(line)
    if current:
        yield start, "".join(current)


def _newline(text: str) -> str:
    """The line break ``text`` uses (its first one): ``\\r\\n`` or ``\\n``."""
    end = text.find("\n")
    return "\r\n" if end > 0 and text[end - 1] == "\r" else "\n"


def round_trip_yaml() -> YAML:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold long lines that were not folded
    return yaml


class _NoParse:
    """Stands in for the parser ``load_yaml_guess_indent`` runs after its guess (the chunk is parsed already)."""

    def load(self, text: str) -> None:
        return None


def _rewrite_chunk(original: str, file: str, start: int, target: str, written: list[Written]) -> str:
    if f"{GROUP}/" not in original:
        return original

    def edit(documents: list[Any]) -> bool:
        before = len(written)
        for document in documents:
            _rewrite_value(document, file, start, target, written)
        return len(written) != before

    return round_trip(original, file, start, edit)


def round_trip(
    original: str, file: str, start: int, edit: Callable[[list[Any]], bool], *, what: str = "converted"
) -> str:
    """``original`` (a chunk of :func:`chunks`, from line ``start``) read with ruamel's round trip, its
    documents changed in place by ``edit`` (which says whether it changed any), and written back with
    the chunk's indentation, markers and line breaks; ``original`` itself when nothing changed."""
    # ruamel keeps the \r of a CRLF in the comments it carries over: it reads LF line breaks, and
    # the file's own are put back when it is written.
    newline = _newline(original)
    chunk = original.replace("\r\n", "\n") if newline != "\n" else original
    yaml = round_trip_yaml()
    try:
        documents = list(yaml.load_all(chunk))
    except YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = start + mark.line if mark is not None else start
        problem = getattr(error, "problem", None) or error
        raise InputError(f"{file}:{line}: not valid YAML, nothing {what}: {problem}") from None
    if not edit(documents):
        return original
    # ruamel's guess is a scan of the text, then a parse of it, which is not needed here.
    _, indent, sequence_offset = load_yaml_guess_indent(chunk, yaml=_NoParse())
    indent = indent or 2
    sequence_offset = sequence_offset or 0
    yaml.indent(mapping=indent, sequence=indent + sequence_offset, offset=sequence_offset)
    stream = io.StringIO()
    if chunk.startswith("---"):
        yaml.explicit_start = True
    yaml.dump_all(documents, stream)
    text = stream.getvalue()
    if not chunk.endswith("\n"):
        text = text.rstrip("\n")
    return text.replace("\n", newline) if newline != "\n" else text


def _rewrite_value(value: Any, file: str, start: int, target: str, written: list[Written]) -> None:
    """Rewrite the DRA object ``value`` is (or the items of the List it is) into ``target``."""
    if not isinstance(value, MutableMapping):
        return
    kind, api_version = value.get("kind"), value.get("apiVersion")
    if isinstance(kind, str) and kind.endswith("List") and isinstance(value.get("items"), list):
        for item in value["items"]:
            _rewrite_value(item, file, start, target, written)
        return
    if not isinstance(kind, str) or not isinstance(api_version, str) or not api_version.startswith(f"{GROUP}/"):
        return
    version = api_version.removeprefix(f"{GROUP}/")
    where = f"{file}:{_line(value, start)}"
    name = _name(value)
    if version in LEGACY_VERSIONS:
        raise ConvertError(
            f"{where}: {kind} {name} is classic DRA ({api_version}): it has no structured-parameters equivalent "
            "to convert to"
        )
    if version == target or version not in VERSIONS:
        return
    try:
        rewrite.convert(value, kind, version, target)
    except ConvertError as error:
        raise ConvertError(f"{where}: cannot convert {kind} {name} to {GROUP}/{target}: {error}") from None
    written.append(Written(kind, name, where, _plain(value)))


def _plain(value: Any) -> Any:
    if isinstance(value, MutableMapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _line(value: Any, start: int) -> int:
    lc = getattr(value, "lc", None)
    return start + lc.line if lc is not None and lc.line is not None else start


def _name(value: MutableMapping[str, Any]) -> str:
    metadata = value.get("metadata")
    name = metadata.get("name") if isinstance(metadata, MutableMapping) else None
    namespace = metadata.get("namespace") if isinstance(metadata, MutableMapping) else None
    if not isinstance(name, str):
        return "(unnamed)"
    return f"{namespace}/{name}" if isinstance(namespace, str) else name


def _rewrite_json(text: str, file: str, target: str) -> Converted:
    """A JSON file (one object or a stream of them), written back with two-space indentation."""
    decoder = json.JSONDecoder()
    documents, position = [], 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text):
            break
        try:
            document, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            where = f"{file}:{error.lineno}:{error.colno}"
            raise InputError(f"{where}: not valid JSON, nothing converted: {error.msg}") from None
        documents.append(document)
    written: list[Written] = []
    for document in documents:
        _rewrite_value(document, file, 1, target, written)
    if not written:
        return Converted(text, 0)
    out = "".join(json.dumps(d, indent=2, ensure_ascii=False) + "\n" for d in documents)
    newline = _newline(text)
    return Converted(out.replace("\n", newline) if newline != "\n" else out, len(written), tuple(written))
