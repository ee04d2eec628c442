"""``dralint convert --to VERSION``: rewrite DRA objects between served ``resource.k8s.io`` versions.

Only the documents that hold an object to convert are rewritten (with ruamel's round trip,
which keeps comments, key order, quoting and the file's indentation); every other document is
copied byte for byte. An object the target version cannot hold is an error that names the
field, and nothing is written.

The configuration is read as for every other command (:func:`dralint.pipeline.run.configure`):
``exclude`` skips files, ``limits.maxFileBytes`` bounds what is read, and the target release
(``--kubernetes-version`` or ``kubernetesVersion``) is the one the result must fit. A file that
cannot be read as text (too large, unreadable, not UTF-8) stops the command: rewriting it would
lose what could not be decoded.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator, MutableMapping
from typing import Any, TextIO

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

from dralint.api import rewrite
from dralint.api.rewrite import ConvertError
from dralint.api.versions import GROUP, LEGACY_VERSIONS, SERVED, VERSIONS
from dralint.apimachinery.fieldpath import render
from dralint.config.resolve import Layer
from dralint.dataclass import dataclass
from dralint.errors import InputError, UsageError
from dralint.pipeline import run as pipeline
from dralint.read import sources


@dataclass(frozen=True, slots=True)
class ConvertSettings:
    paths: tuple[str, ...]  # nothing: standard input
    to: str
    in_place: bool = False
    release: str | None = None  # the release whose schema the result must fit; None: as configured, else the newest
    config: str | None = None
    no_config: bool = False

    def request(self) -> pipeline.Request:
        return pipeline.Request(pipeline.with_shortcuts(Layer(), release=self.release), self.config, self.no_config)


@dataclass(frozen=True, slots=True)
class Converted:
    text: str
    objects: int  # objects rewritten


def run(settings: ConvertSettings, stream: TextIO | None = None) -> int:
    out = stream if stream is not None else sys.stdout
    target = settings.to.removeprefix(f"{GROUP}/")
    if target not in VERSIONS:
        raise UsageError(f"--to: unknown version {settings.to!r}; one of: {', '.join(VERSIONS)}")
    paths = settings.paths or (sources.STDIN,)
    if settings.in_place and sources.STDIN in paths:
        raise UsageError("--in-place cannot rewrite standard input")
    plan = pipeline.configure(settings.request())
    # Without a release on the command line or in the configuration: the newest serving the target version.
    release = plan.target.release if plan.effective.release is not None else None
    files = plan.files(paths)
    texts = [(path, read_text(path, plan.limits.max_file_bytes)) for path in files]
    results = [(path, convert_text(text, path, target, release)) for path, text in texts]
    total = sum(result.objects for _, result in results)
    if settings.in_place:
        for path, result in results:
            if result.objects:
                with open(path, "w", encoding="utf-8", newline="") as handle:
                    handle.write(result.text)
    else:
        for number, (_, result) in enumerate(results):
            if number and not result.text.startswith("---"):
                out.write("---\n")
            out.write(result.text)
    changed = sum(1 for _, result in results if result.objects)
    print(
        f"dralint: converted {total} object{'s' * (total != 1)} in {changed} file{'s' * (changed != 1)} "
        f"to {GROUP}/{target}",
        file=sys.stderr,
    )
    return 0


def read_text(path: str, max_bytes: int, *, what: str = "converted") -> str:
    """The text of ``path``; an :class:`InputError` (nothing ``what``) when it cannot be read whole as text."""
    source = sources.read(path, max_bytes=max_bytes)
    for issue in source.issues:
        if issue.kind == "too-large":
            raise InputError(
                f"{source.name}: file is larger than {max_bytes} bytes (limits.maxFileBytes); nothing {what}"
            )
        hint = f"; {issue.hint}" if issue.hint else ""
        raise InputError(f"{source.name}:{issue.line}:{issue.column}: {issue.message}{hint}; nothing {what}")
    return source.text


def convert_text(text: str, file: str, target: str, release: str | None = None) -> Converted:
    """``text`` (one file) with every DRA object of another version rewritten into ``target``."""
    if file.lower().endswith(".json"):
        return _convert_json(text, file, target, release)
    out: list[str] = []
    objects = 0
    for start, chunk in chunks(text):
        converted, count = _convert_chunk(chunk, file, start, target, release)
        out.append(converted)
        objects += count
    return Converted("".join(out), objects)


# A line that only starts a new document: the file is split there, so that documents without
# anything to convert are copied as they are.
_MARKER = re.compile(r"^---[ \t]*(#.*)?$")


def chunks(text: str) -> Iterator[tuple[int, str]]:
    """(first line, text) of the parts of ``text`` between document markers (the markers included)."""
    lines = text.splitlines(keepends=True)
    start, current = 1, list[str]()
    for number, line in enumerate(lines, start=1):
        if _MARKER.match(line.rstrip("\r\n")) and current:
            yield start, "".join(current)
            start, current = number, []
        current.append(line)
    if current:
        yield start, "".join(current)


def round_trip_yaml() -> YAML:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold long lines that were not folded
    return yaml


def _convert_chunk(chunk: str, file: str, start: int, target: str, release: str | None) -> tuple[str, int]:
    if "resource.k8s.io/" not in chunk:
        return chunk, 0
    yaml = round_trip_yaml()
    try:
        documents = list(yaml.load_all(chunk))
    except YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = start + mark.line if mark is not None else start
        problem = getattr(error, "problem", None) or error
        raise InputError(f"{file}:{line}: not valid YAML, nothing converted: {problem}") from None
    count = sum(_convert_value(document, file, start, target, release) for document in documents)
    if not count:
        return chunk, 0
    return dump_like(yaml, documents, chunk), count


def dump_like(yaml: YAML, documents: list[Any], chunk: str) -> str:
    """``documents`` (read from ``chunk`` by ``yaml``) written back with the indentation and markers of ``chunk``."""
    _, indent, sequence_offset = load_yaml_guess_indent(chunk)
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
    return text


def _convert_value(value: Any, file: str, start: int, target: str, release: str | None) -> int:
    """Convert the DRA object ``value`` is (or the items of the List it is); how many were converted."""
    if not isinstance(value, MutableMapping):
        return 0
    kind, api_version = value.get("kind"), value.get("apiVersion")
    if isinstance(kind, str) and kind.endswith("List") and isinstance(value.get("items"), list):
        return sum(_convert_value(item, file, start, target, release) for item in value["items"])
    if not isinstance(kind, str) or not isinstance(api_version, str) or not api_version.startswith(f"{GROUP}/"):
        return 0
    version = api_version.removeprefix(f"{GROUP}/")
    where = f"{file}:{_line(value, start)}"
    name = _name(value)
    if version in LEGACY_VERSIONS:
        raise ConvertError(
            f"{where}: {kind} {name} is classic DRA ({api_version}): it has no structured-parameters equivalent "
            "to convert to"
        )
    if version == target or version not in VERSIONS:
        return 0
    chosen = _release(kind, target, release, where)
    try:
        rewrite.convert(value, kind, version, target)
    except ConvertError as error:
        raise ConvertError(f"{where}: cannot convert {kind} {name} to {GROUP}/{target}: {error}") from None
    _check_fields(value, kind, target, chosen, f"{where}: cannot convert {kind} {name} to {GROUP}/{target}")
    return 1


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


def _check_fields(value: MutableMapping[str, Any], kind: str, target: str, release: str, context: str) -> None:
    """Refuse fields the target version does not have in ``release`` (they would be dropped or rejected)."""
    from dralint.validate.schema import validate

    unknown = [e for e in validate(release, f"{GROUP}/{target}", kind, _plain(value)) if e.problem == "unknown-field"]
    if unknown:
        fields = ", ".join(render(e.path) for e in unknown[:3]) + (" ..." if len(unknown) > 3 else "")
        raise ConvertError(
            f"{context}: {fields} cannot be represented there (no such field in Kubernetes {release}); "
            "nothing converted"
        )


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


def _convert_json(text: str, file: str, target: str, release: str | None) -> Converted:
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
    count = sum(_convert_value(document, file, 1, target, release) for document in documents)
    if not count:
        return Converted(text, 0)
    return Converted("".join(json.dumps(d, indent=2, ensure_ascii=False) + "\n" for d in documents), count)
