"""``dralint convert --to VERSION``: rewrite DRA objects between served ``resource.k8s.io`` versions.

The text is rewritten by :mod:`dralint.api.rewrite_text` (only the documents that hold an object
to convert; every other document is copied as it is). An object the target version cannot hold
is an error that names the field, and nothing is written. ``--in-place`` writes a file back in its
own encoding (UTF-8, or UTF-16 as its byte-order mark says) and with its byte-order mark, so that
what was not converted keeps its bytes.

The configuration is read as for every other command (:func:`dralint.pipeline.run.configure`):
``exclude`` skips files, ``limits.maxFileBytes`` bounds what is read, and the target release
(``--kubernetes-version`` or ``kubernetesVersion``) is the one the result must fit. A file that
cannot be read as text (too large, unreadable, not UTF-8) stops the command: rewriting it would
lose what could not be decoded.
"""

from __future__ import annotations

import sys
from typing import TextIO

from dralint.api.rewrite_text import convert_text
from dralint.api.versions import GROUP, VERSIONS
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


def run(settings: ConvertSettings, stream: TextIO | None = None) -> int:
    out = stream if stream is not None else sys.stdout
    target = settings.to.removeprefix(f"{GROUP}/")
    if target not in VERSIONS:
        raise UsageError(f"--to: unknown version {settings.to!r}; one of: {', '.join(VERSIONS)}")
    if not settings.paths and not sources.stdin_is_piped():
        raise UsageError("convert needs the manifests to convert: give PATHS (files, directories, or - for "
                         "standard input), or pipe them in")  # fmt: skip
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
                bom, encoding = sources.byte_order_mark(sources.read_bytes(path, 3))
                with open(path, "wb") as handle:
                    handle.write(bom + result.text.encode(encoding))
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
