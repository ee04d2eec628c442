"""ResourceQuota objects (core/v1) as the quota admission reads them: namespace, hard limits, usage so far.

A quantity that does not parse is left out (schema validation reports it); so is a quota's
``status.used`` when it is absent, which says that nothing is known of the namespace's usage.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from dralint.api import read
from dralint.api.objects import KubeObject
from dralint.apimachinery.quantity import Quantity, QuantityError, parse_quantity
from dralint.dataclass import dataclass


@dataclass(frozen=True, slots=True)
class ResourceQuota:
    obj: KubeObject
    namespace: str
    name: str
    hard: Mapping[str, Quantity]
    used: Mapping[str, Quantity] | None  # status.used, when the quota comes from a cluster
    scoped: bool  # spec.scopes or spec.scopeSelector: it applies to some pods only, and to no claim


def _quantities(values: Mapping[str, str]) -> dict[str, Quantity]:
    out: dict[str, Quantity] = {}
    for name, text in values.items():
        try:
            out[name] = parse_quantity(text)
        except QuantityError:
            continue
    return out


def resource_quotas(objects: Iterable[KubeObject]) -> list[ResourceQuota]:
    """The v1 ResourceQuotas among ``objects``, in input order."""
    out = []
    for obj in objects:
        if obj.kind != "ResourceQuota" or obj.api_version != "v1":
            continue
        spec = read.mapping_or_empty(obj.raw, "spec")
        status = read.mapping(obj.raw, "status")
        used = read.mapping(status, "used") if status is not None else None
        out.append(
            ResourceQuota(
                obj,
                obj.namespace or "default",
                obj.name or "",
                _quantities(read.scalars(spec, "hard")),
                _quantities(read.scalars(status, "used")) if used is not None else None,
                bool(read.items(spec, "scopes")) or read.mapping(spec, "scopeSelector") is not None,
            )
        )
    return out
