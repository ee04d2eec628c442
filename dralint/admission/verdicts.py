"""Per object: would the API server store it, and in which form? Decided from the validation results.

Nothing here checks a rule of its own: served versions come from :mod:`dralint.validate.skew`,
schema errors from ``ctx.schema_errors``, apiserver errors and the stored form from
``ctx.validated`` and ``ctx.pod_spec_errors``. A rejection names the finding the user sees
first for the object (the lowest line), so a reference leads straight to it.
"""

from __future__ import annotations

from dralint.admission.types import Inputs, Rejection, source_line
from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.checks.api_problems import RULE_OF_KIND, RULE_OF_OUTCOME, RULE_OF_PROBLEM, reported
from dralint.checks.rule_ids import RuleId
from dralint.validate.apiserver.errors import Kind


class Judge:
    def __init__(self, ctx: Inputs) -> None:
        self.ctx = ctx
        # Workloads are validated for the claims of their pod specs (the rest of a pod is not DRA's business).
        self.workloads = {template.owner for template in ctx.pod_templates}

    def rejection(self, obj: KubeObject) -> Rejection | None:
        """Why the API server rejects ``obj`` on create, or ``None`` when it stores it."""
        ctx = self.ctx
        if obj.is_dra and obj in ctx.normalised and obj not in ctx.validated:
            # the release does not serve it
            return _rejection(ctx, obj, [(RuleId.API_VERSION_NOT_SERVED, ("apiVersion",))])
        if not obj.is_dra and obj not in self.workloads:
            return None
        found: list[tuple[str, Path]] = [
            (RULE_OF_PROBLEM[e.problem], e.path) for e in ctx.schema_errors.get(obj, ()) if reported(obj, e)
        ]
        validated = ctx.validated.get(obj)
        if validated is not None:
            paths = ctx.normalised[obj].paths
            found += [
                (RULE_OF_KIND[e.kind], paths.to_source(e.location)) for e in validated.errors if e.kind != Kind.STATUS
            ]
            if any(e.kind != Kind.STATUS for e in validated.caused_by_drop):
                found += self._rejecting_drops(obj)
        found += [(RULE_OF_KIND[e.kind], e.location) for e in ctx.pod_spec_errors.get(obj, ())]
        return _rejection(ctx, obj, found) if found else None

    def stored(self, obj: KubeObject) -> Normalised | None:
        """The DRA object as the API server stores it (``None`` for other kinds)."""
        normalised = self.ctx.normalised.get(obj)
        validated = self.ctx.validated.get(obj)
        if normalised is None or validated is None:
            return normalised
        data = validated.stored
        if "status" in data and any(e.kind == Kind.STATUS for e in validated.errors):
            data = {key: value for key, value in data.items() if key != "status"}
        return normalised if data is normalised.data else Normalised(obj, data, normalised.paths)

    def _rejecting_drops(self, obj: KubeObject) -> list[tuple[str, Path]]:
        from dralint.validate.skew import dra_object_drops

        normalised = self.ctx.normalised[obj]
        drops = dra_object_drops(self.ctx.validator.target, obj.kind, normalised.data)
        rule: str = RULE_OF_OUTCOME["rejected"]
        found = [(rule, normalised.paths.to_source(d.path)) for d in drops if d.outcome == "rejected"]
        return found or [(rule, ())]


def _rejection(ctx: Inputs, obj: KubeObject, found: list[tuple[str, Path]]) -> Rejection:
    rule, path = min(found, key=lambda item: (source_line(obj, item[1]), item[0]))
    what = f"{obj.kind} {obj.namespace}/{obj.name}" if obj.namespaced else f"{obj.kind} {obj.name}"
    # the finding's own position (a rendered object's is in the file it was rendered from)
    at = ctx.written_at(obj, path)
    return Rejection(rule, at.file, at.line, what)
