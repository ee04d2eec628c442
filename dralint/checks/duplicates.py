"""The same object (kind, namespace, name) defined more than once in the inputs (DRA308).

``kubectl apply -f dir/`` applies the definitions in turn, so the cluster keeps the last one it
accepts; admission (:mod:`dralint.admission`) stores that one for the dry-run. Each later
definition gets a finding naming the earlier one and the definition the dry-run uses. Identical
copies are reported for ``resource.k8s.io`` objects only (two copies of a slice are not twice
the devices); an identical Namespace or Pod applied twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from dralint.admission import identity
from dralint.api.objects import KubeObject
from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

_REPORTED = ("metadata", "name")  # where the finding of a later definition is


def check(ctx: CheckContext) -> Iterator[Violation]:
    seen: dict[tuple[str, str, str, str], KubeObject] = {}
    later: list[tuple[KubeObject, KubeObject]] = []
    for obj in ctx.objects:
        key = identity(obj)
        if key is None:
            continue
        first = seen.get(key)
        if first is None:
            seen[key] = obj
        else:
            later.append((obj, first))
    if not later:
        return
    admission = ctx.admission
    for obj, first in later:
        here = ctx.written_at(obj, _REPORTED).file  # where this finding is reported
        identical = _content(obj) == _content(first)
        if identical and not obj.is_dra:
            continue  # applying the same Namespace or Pod twice changes nothing
        what = f"{obj.kind} {obj.namespace}/{obj.name}" if obj.namespaced else f"{obj.kind} {obj.name}"
        same = "identical" if identical else "they differ"
        message = f"{what} is defined more than once ({same}): first at {_at(ctx, first, here)}"
        rejection = admission.rejected.get(obj)
        used = admission.replaced.get(obj, obj)
        if rejection is not None:
            message += f"; this definition is rejected by the API server ({rejection.reference(here)})"
            stored = _stored(admission.replaced, first, admission.objects)
            if stored is not None:
                message += f", so the cluster keeps the one at {_at(ctx, stored, here)} and the dry-run uses it"
        elif used is obj:
            message += "; kubectl apply -f keeps this later definition, and the dry-run uses it"
        else:
            message += f"; the dry-run uses the one at {_at(ctx, used, here)}"
        yield Violation(
            RuleId.DUPLICATE_OBJECT,
            message,
            obj,
            _REPORTED,
            "keep one definition (kubectl apply -f applies them in turn: the last one wins)",
        )


def _stored(replaced: dict[KubeObject, KubeObject], obj: KubeObject, objects: list[KubeObject]) -> KubeObject | None:
    stored = replaced.get(obj, obj)
    return stored if stored in objects else None


def _at(ctx: CheckContext, obj: KubeObject, here: str) -> str:
    """``line 6`` in the file ``here`` of the finding, ``other.yaml:6`` elsewhere (a rendered object: where it was
    written)."""
    at = ctx.written_at(obj, ())
    return f"line {at.line}" if at.file == here else f"{at.file}:{at.line}"


def _content(obj: KubeObject) -> object:
    """What the definition says, without where it came from (the same text in two places is identical)."""
    return {key: value for key, value in obj.raw.items() if key != "status"}
