"""The reference to a Kubernetes object that findings and reports carry (kind, namespace, name).

Apart from :mod:`dralint.api.objects` so that the finding model can name it without importing
the loaded objects, which themselves name it.
"""

from __future__ import annotations

from dralint.dataclass import dataclass

__all__ = ["ObjectRef"]


@dataclass(frozen=True, slots=True, order=True)
class ObjectRef:
    """The Kubernetes object a finding is about."""

    api_version: str
    kind: str
    namespace: str | None
    name: str | None

    def display(self) -> str:
        """``Kind/namespace/name`` or ``Kind/name`` for cluster-scoped objects."""
        parts = [self.kind or "?"]
        if self.namespace:
            parts.append(self.namespace)
        parts.append(self.name or "?")
        return "/".join(parts)
