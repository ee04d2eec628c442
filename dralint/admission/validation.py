"""Each DRA object's validation on create, kept for both the findings and the admission verdict.

kube-apiserver validates an object after ``PrepareForCreate`` has cleared the fields whose
feature gates are off, so the object it validates is the object it stores. :func:`validate`
makes that stored copy (only when a gated field is present: most objects are kept uncopied)
and runs the apiserver rules on it and on the object as written. The apiserver check reports
the errors both have (errors only the stored copy has are caused by a drop, which the skew
check reports as DRA212); admission rejects an object on any error of the stored copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from dralint.api.convert import json_copy
from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.api.versions import Target
from dralint.api.workloads import PodTemplate
from dralint.apimachinery.fieldpath import Path, value_at
from dralint.dataclass import dataclass
from dralint.validate import apiserver, skew
from dralint.validate.apiserver.errors import FieldError
from dralint.validate.apiserver.metadata import owner_references


@dataclass(frozen=True, slots=True)
class Validated:
    """One DRA object as the API server stores it, and its validation errors."""

    stored: dict[str, Any]  # v1-shaped, defaulted, gated fields removed (``normalised.data`` when none)
    dropped: tuple[Path, ...]  # paths of the removed fields (canonical)
    errors: list[FieldError]  # errors of the stored object that the written object has too (reported)
    caused_by_drop: list[FieldError]  # errors only the stored object has (the drop makes it invalid)


class Validator:
    """Validates objects for one target (the behaviour and the gated-field names are computed once)."""

    def __init__(self, target: Target) -> None:
        self.target = validation_target(target)
        self.behaviour = apiserver.behaviour(self.target)
        self.gated = gated_field_names(self.target)

    def validate(self, normalised: Normalised) -> Validated:
        kind, data, raw = normalised.obj.kind, normalised.data, normalised.obj.raw
        errors = apiserver.dra_object(kind, data, self.behaviour, raw=raw)
        if not _has_key(data, self.gated):
            return Validated(data, (), errors, [])
        kept = json_copy(data)
        dropped = skew.strip(self.target, kind, kept)
        if not dropped:
            return Validated(data, (), errors, [])
        stripped = apiserver.dra_object(kind, kept, self.behaviour, raw=raw)
        written = {(e.path, e.body()) for e in errors}
        common = [e for e in stripped if (e.path, e.body()) in written]
        caused = [e for e in stripped if (e.path, e.body()) not in written]
        return Validated(kept, tuple(dropped), common, caused)

    def pod_errors(self, templates: Iterable[PodTemplate]) -> dict[KubeObject, list[FieldError]]:
        """Per workload (only those with errors): the errors of its pod specs' claims and of its owner references."""
        out: dict[KubeObject, list[FieldError]] = {}
        owners: set[KubeObject] = set()
        for template in templates:
            errors = []
            if template.owner not in owners:  # the workload's own metadata, once
                owners.add(template.owner)
                meta = template.owner.metadata
                errors += owner_references(meta.get("ownerReferences"), ("metadata", "ownerReferences"))
            spec = value_at(template.owner.raw, template.path)
            if isinstance(spec, Mapping):
                claims_at = None
                if template.claims_at is not None:  # the producer gives its pods the claims written there
                    claims_at = (value_at(template.owner.raw, template.claims_at), template.claims_at)
                errors += apiserver.pod_spec(spec, template.path, self.behaviour, claims_at=claims_at)
            if errors:
                out.setdefault(template.owner, []).extend(errors)
        return out


def validation_target(target: Target) -> Target:
    """The target with the DRA base gate on (validation is only meaningful where DRA is served)."""
    return replace(target, gates={**target.gates, "DynamicResourceAllocation": True})


def gated_field_names(target: Target) -> frozenset[str]:
    """Names of the fields the target drops (a quick test of whether stripping can change an object)."""
    tables = (skew.CLAIM_SPEC, skew.CLAIM_STATUS, skew.DEVICE_CLASS, skew.RESOURCE_SLICE)
    return frozenset(
        entry.pattern[-1]
        for table in tables
        for entry in table
        if not all(target.enabled(gate) for gate in entry.gates)
    )


def _has_key(data: Any, names: frozenset[str]) -> bool:
    if isinstance(data, dict):
        return not names.isdisjoint(data) or any(_has_key(v, names) for v in data.values())
    if isinstance(data, list):
        return any(_has_key(v, names) for v in data)
    return False
