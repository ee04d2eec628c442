"""What the reading stage produces: a :class:`Workspace`, everything loaded from the inputs.

It lives with the reader (:mod:`dralint.read.load` fills it) so that reading depends on nothing
downstream; the pipeline's :class:`~dralint.pipeline.context.CheckContext` wraps it for the checks.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.api.objects import KubeObject, Unidentified
    from dralint.read.manifests import NotManifest
    from dralint.read.sourcemap import SourceMap
    from dralint.read.sources import SourceFile
    from dralint.read.yamldoc import DecodeIssue, Document

__all__ = ["Workspace"]


@dataclass(slots=True)
class Workspace:
    """Everything loaded from the inputs: files, documents, objects, and decoding defects."""

    files: list[SourceFile] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    objects: list[KubeObject] = field(default_factory=list)
    broken: list[Unidentified] = field(default_factory=list)
    list_documents: list[Document] = field(default_factory=list)  # bare YAML lists of objects
    other_documents: int = 0  # documents of the checked files that are not Kubernetes objects
    # Checked files that are not manifests (:mod:`dralint.read.manifests`), with why: not read further.
    skipped: list[tuple[str, NotManifest]] = field(default_factory=list)
    issues: list[tuple[str, DecodeIssue]] = field(default_factory=list)  # (file, issue)
    checked_files: frozenset[str] = frozenset()  # files findings are reported for (others are context)
    source_maps: dict[str, SourceMap] = field(default_factory=dict)  # rendered streams' names → their sources
