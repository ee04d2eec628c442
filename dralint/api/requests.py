"""The requests of ResourceClaims and ResourceClaimTemplates as written: each request and
``firstAvailable`` entry of the typed claim spec, with its owner and its field path.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from dralint.api import model
from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass

__all__ = ["ClaimSpec", "WrittenRequest", "claim_specs", "written_requests"]


@dataclass(frozen=True, slots=True)
class WrittenRequest:
    """A request or ``firstAvailable`` entry as written in a claim or template."""

    obj: KubeObject
    path: Path  # canonical path of the exactly block or the entry
    label: str  # "gpu" or "gpu/small"
    spec: model.ExactDeviceRequest | model.DeviceSubRequest

    @property
    def owner(self) -> str:
        return f"{self.obj.kind} {self.obj.namespace}/{self.obj.name} request {self.label}"


ClaimSpec = tuple[model.ResourceClaimSpec, KubeObject, Path]  # spec, object, path of its requests


def claim_specs(normalised: Iterable[Normalised]) -> list[ClaimSpec]:
    """The claim spec of every ResourceClaim and ResourceClaimTemplate, with where its requests are."""
    out: list[ClaimSpec] = []
    for item in normalised:
        typed = item.typed
        if isinstance(typed, model.ResourceClaim):
            out.append((typed.spec, item.obj, ("spec", "devices", "requests")))
        elif isinstance(typed, model.ResourceClaimTemplate):
            out.append((typed.spec, item.obj, ("spec", "spec", "devices", "requests")))
    return out


def written_requests(items: Sequence[ClaimSpec]) -> Iterator[WrittenRequest]:
    """Every request with ``exactly`` and every ``firstAvailable`` entry, in the order written."""
    for spec, obj, base in items:
        for r, request in enumerate(spec.requests):
            for part in request.parts():
                yield WrittenRequest(obj, (*base, r, *part.path), part.label, part.spec)
