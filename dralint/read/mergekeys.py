"""Follow a rendered object's path into a strategic-merge patch or a source document that orders its lists differently.

A strategic merge matches the items of some lists by a key, not by position, and orders the
merged list its own way (kubectl 1.32's kustomize puts the containers a patch names first, in the
patch's order, then the base's others): the second container of the rendered pod may be the first
of a patch and another of the base. The keys are the ``x-kubernetes-patch-merge-key`` of the
Kubernetes OpenAPI for the pod spec lists dralint reads, and the list-map key of a container's
resource claims. A list a patch replaces whole (kubectl 1.32's kustomize replaces
``resourceClaims`` and ``resources.claims``: its built-in OpenAPI predates them) is the patch's
list, so finding an item by its key finds it at its position there too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.apimachinery.fieldpath import Path

__all__ = ["MERGE_KEYS", "written_path"]

# list field -> the key its items are merged by
MERGE_KEYS: dict[str, str] = {
    "claims": "name",  # a container's resources.claims
    "containers": "name",
    "env": "name",
    "ephemeralContainers": "name",
    "hostAliases": "ip",
    "imagePullSecrets": "name",
    "initContainers": "name",
    "ports": "containerPort",
    "resourceClaims": "name",
    "volumeDevices": "devicePath",
    "volumeMounts": "mountPath",
    "volumes": "name",
}


def written_path(rendered: Any, written: Any, path: Path) -> tuple[Path, bool]:
    """``path`` of ``rendered`` as a path of ``written``, items of keyed lists found by their key; and whether all of
    it is there (else the path stops at the last step ``written`` has: its nearest parent there)."""
    out: list[str | int] = []
    parent: str | int | None = None
    for step in path:
        mapped = step
        if isinstance(step, int) and isinstance(parent, str) and parent in MERGE_KEYS:
            key = MERGE_KEYS[parent]
            item = rendered[step] if isinstance(rendered, list) and 0 <= step < len(rendered) else None
            if isinstance(item, Mapping) and key in item and isinstance(written, list):
                found = [i for i, w in enumerate(written) if isinstance(w, Mapping) and w.get(key) == item[key]]
                if not found:
                    return tuple(out), False
                mapped = found[0]
        rendered = _step(rendered, step)
        written = _step(written, mapped)
        if written is None:
            return tuple(out), False
        out.append(mapped)
        parent = step
    return tuple(out), True


def _step(data: Any, step: str | int) -> Any:
    if isinstance(data, Mapping) and isinstance(step, str):
        return data.get(step)
    if isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
        return data[step]
    return None
