"""The labels of the namespaces the inputs describe: Namespace objects, and ``namespaces`` in the options."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dralint.api.objects import KubeObject


def namespace_labels(
    objects: Iterable[KubeObject], extra: Mapping[str, Mapping[str, str]]
) -> dict[str, Mapping[str, str]]:
    """Labels of every namespace ``objects`` describe, with the ``extra`` labels (from the options) added."""
    out: dict[str, Mapping[str, str]] = {}
    for obj in objects:
        if obj.kind == "Namespace" and obj.group == "" and isinstance(obj.metadata.get("name"), str):
            labels = obj.metadata.get("labels")
            out[obj.metadata["name"]] = (
                {str(k): str(v) for k, v in labels.items()} if isinstance(labels, Mapping) else {}
            )
    for name, labels in extra.items():
        out[name] = {**out.get(name, {}), **labels}
    return out
