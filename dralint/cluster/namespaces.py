"""The labels of the namespaces the inputs describe: Namespace objects, and ``namespaces`` in the options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dralint.pipeline.context import CheckContext


def namespace_labels(ctx: CheckContext) -> dict[str, Mapping[str, str]]:
    """Labels of every namespace the inputs (or the options) describe."""
    out: dict[str, Mapping[str, str]] = {}
    for obj in ctx.objects:
        if obj.kind == "Namespace" and obj.group == "" and isinstance(obj.metadata.get("name"), str):
            labels = obj.metadata.get("labels")
            out[obj.metadata["name"]] = (
                {str(k): str(v) for k, v in labels.items()} if isinstance(labels, Mapping) else {}
            )
    for name, labels in ctx.options.namespaces.items():
        out[name] = {**out.get(name, {}), **labels}
    return out
