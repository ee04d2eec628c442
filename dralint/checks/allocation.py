"""The dry-run's verdicts (DRA500, DRA505, DRA506, DRA507): pods whose claims never fit, make the allocator fail,
or fit no node at all, and claims no pod uses that could never be allocated."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:  # the dry-run's modules are imported only when there is an inventory (see check)
    from dralint.allocator.types import AllocatorError
    from dralint.api.objects import KubeObject
    from dralint.apimachinery.fieldpath import Path
    from dralint.diagnose import locate, why
    from dralint.dryrun.analysis import Analysis, Failure
    from dralint.dryrun.contention import Contention
    from dralint.dryrun.placement import Placement


MAX_SKIPPED_NOTES = 2  # skipped pools named in one finding; the rejected slices have findings of their own


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return  # (the same as analysis.active, without running the pods through an empty cluster)
    analysis = ctx.analysis
    scaled = Scaling(ctx)
    for failure in analysis.failures:
        if not failure.fits_empty:  # (pods that fit an emptier cluster: checks/contention.py)
            yield from _unsatisfiable(
                analysis, ctx.contention, failure, scaled.of([p.pod.display for p in failure.placements])
            )
    yield from _never_allocatable(ctx, analysis)
    reported: set[int] = set()
    for placement in analysis.simulation.placements:
        template = placement.pod.template_index
        if template in reported:
            continue
        if placement.failure is not None and _claims_fault(placement.failure):
            reported.add(template)
            yield _error(placement)
        elif placement.outcome == "no-node":
            reported.add(template)
            same = [p.pod.display for p in analysis.simulation.placements if p.pod.template_index == template]
            yield _no_node(placement, scaled.of(same))


class Scaling:
    """With node pools that declare minCount or maxCount, what scaling up would do for unplaced pods
    (the plan runs once, and only then)."""

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx

    def of(self, pods: list[str]) -> str | None:
        if not self.ctx.inventory.autoscaled:
            return None
        from dralint.plan.verdict import scaling

        return scaling(self.ctx.plan, pods) or None


def with_scaling(scaling: str | None, hint: str | None) -> str | None:
    """The hint with what scaling would do first: pods that fit after a scale-up need nothing else."""
    if scaling is None:
        return hint
    if "no node pool can ever" not in scaling:
        return scaling
    return f"{scaling}; {hint}" if hint else scaling


def _never_allocatable(ctx: CheckContext, analysis: Analysis) -> Iterator[Violation]:
    """Claims and templates of the checked paths that no pod uses, tried alone on the empty cluster."""
    from dralint.allocator.types import AllocatorError
    from dralint.api import model
    from dralint.api.workloads import PodClaim
    from dralint.cluster.pods import ClaimUse
    from dralint.diagnose import locate, why

    used = {use.source for pod in analysis.pods for use in pod.claims}
    checked = ctx.workspace.checked_files
    for obj, normalised in ctx.admission.stored.items():
        if obj in used or (checked and obj.file not in checked):
            continue
        typed = normalised.typed
        namespace = obj.namespace or "default"
        if isinstance(typed, model.ResourceClaim) and typed.allocation is None:
            use = ClaimUse(PodClaim(typed.name), 0, "claim", typed, obj)
        elif isinstance(typed, model.ResourceClaimTemplate):
            meta = model.ObjectMeta(name=f"{typed.name}-unused", namespace=namespace)
            use = ClaimUse(PodClaim(typed.name), 0, "template", model.ResourceClaim(meta, typed.spec), obj)
        else:
            continue
        assert use.claim is not None
        if not use.claim.spec.requests:
            continue
        verdict = analysis.never_allocatable(use.claim)
        if verdict is None or (isinstance(verdict, AllocatorError) and not _claims_fault(verdict)):
            continue  # it fits, or the fault is reported where it lies (CEL runtime errors, unknown classes)
        what = f"{obj.kind} {namespace}/{obj.name} can never be allocated on this inventory, even on an empty cluster"
        hint = "no pod uses it yet: fix it before one does, or delete it"
        if isinstance(verdict, AllocatorError):
            # "claim ml/x-unused, request gpus: ..." names the stand-in claim: say the request, at the request
            text = verdict.message
            found: KubeObject | None = obj
            path: Path = ()
            if verdict.request is not None and verdict.claim is not None:
                text = text.removeprefix(f"claim {verdict.claim}, ")
                found, path = locate.request(use, verdict.request)
            if "constraint would not be satisfied" in text:
                hint = (
                    "the devices the request takes do not all have the same value of the constraint's attribute; "
                    "narrow the request's selectors or drop the constraint"
                )
            yield Violation(RuleId.UNUSED_CLAIM_NEVER_ALLOCATABLE, f"{what}: {text}", found or obj, path, hint)
            continue
        for reason in why.blocking(verdict) or verdict[:1]:
            sentence = why.sentence(reason)
            if "CEL runtime error" in sentence:
                continue  # DRA420 reports the selector where it is written
            found, path = locate.request(use, reason.request)
            yield Violation(
                RuleId.UNUSED_CLAIM_NEVER_ALLOCATABLE,
                f"{what}: {sentence}",
                found or obj,
                path,
                "; ".join(reason.hints) if reason.hints else hint,
            )


def _pods_text(failure: Failure) -> str:
    pod = failure.first.pod
    count = len(failure.placements)
    if pod.template.owner.kind == "Pod":
        return f"pod {pod.display}"
    return f"{count} pod{'s' if count != 1 else ''} of {pod.workload}"


def _unsatisfiable(
    analysis: Analysis, contention: Contention, failure: Failure, scaling: str | None
) -> Iterator[Violation]:
    from dralint.diagnose import locate, why

    pod = failure.first.pod
    reasons = analysis.reasons(failure)
    blocked = why.blocking(reasons)
    blocking = blocked or reasons[:1]
    uses = {f"{u.key[0]}/{u.key[1]}": u for u in failure.first.attempted if u.claim is not None}
    for reason in blocking:
        use = uses.get(reason.claim)
        if use is None:
            continue
        obj, path = locate.request(use, reason.request)
        offset = None
        if obj is None:
            obj, path = locate.claim_entry(pod, use)
        elif reason.selector_index is not None and use.kind != "extended":
            path = (*path, *(() if "/" in reason.request else ("exactly",)), "selectors", reason.selector_index)
            path = (*path, "cel", "expression")
            if reason.clauses:
                offset = _offset(use, reason, reason.clauses[0].clause)
        named = [] if blocked else contention.constraints(failure)
        if blocked or named:
            detail = why.sentence(reason) if blocked else "; ".join(named)
            message = f"{locate.describe(use)} cannot be allocated for {_pods_text(failure)} on any node: {detail}"
        else:
            detail = why.together(reasons, failure.explanations)
            message = (
                f"{locate.describe(use)} cannot be allocated for {_pods_text(failure)} on any node together with "
                f"the pod's other requests: {detail}"
            )
        notes = skipped(analysis, failure, reason.device_class)
        hint = with_scaling(scaling, "; ".join(reason.hints) if reason.hints else _hint(reason, bool(notes)))
        message += notes
        # A change to the class or to the slices can make the claim unsatisfiable (a change to the workload
        # alone is reported on the workload by DRA521).
        involves = contention.parties(reason.device_class)[1]
        yield Violation(RuleId.CLAIM_UNSATISFIABLE, message, obj, path, hint, offset=offset, involves=involves)


def skipped(analysis: Analysis, failure: Failure, device_class: str) -> str:
    """``; pool x is skipped: ...`` for the pools the API server's rejection of a slice keeps off the nodes."""
    notes = analysis.skipped(failure.first.candidates, device_class)
    text = "".join(f"; {note}" for note in notes[:MAX_SKIPPED_NOTES])
    if len(notes) > MAX_SKIPPED_NOTES:
        text += f" (and {len(notes) - MAX_SKIPPED_NOTES} more pools with rejected slices)"
    return text


def _offset(use: locate.ClaimUse, reason: why.RequestWhy, clause: str) -> int | None:
    from dralint.diagnose import why

    spec = why.request_spec(use.claim, reason.request)
    if spec is None or reason.selector_index is None:
        return None
    cel = spec.selectors[reason.selector_index].cel
    found = cel.expression.find(clause) if cel is not None else -1
    return found if found >= 0 else None


def _hint(reason: why.RequestWhy, pools_skipped: bool) -> str | None:
    rejected = reason.rejected
    if reason.seen == 0 and pools_skipped:
        return "fix the pools named in the inventory: the scheduler takes no device of them"
    if reason.seen == 0:
        return "no ResourceSlice of the inventory publishes devices on the nodes the pod may run on"
    if rejected.get("class-selector") == reason.seen:
        return f"check the selectors of DeviceClass {reason.device_class} against the published devices"
    if rejected.get("taint"):
        return "add tolerations for the device taints to the request, or remove the taints"
    if rejected.get("in-use"):
        return "the devices are held by claims already allocated in the inventory"
    return None


def _claims_fault(error: AllocatorError) -> bool:
    """Errors the claims cause; CEL runtime errors (DRA420), unknown classes (reference checks) and
    slices whose node selection cannot be parsed (API validation) are reported where they are."""
    from dralint.allocator.types import Cause

    return error.claim is not None and error.cause not in (Cause.CEL_RUNTIME, Cause.MISSING_CLASS)


def _error(placement: Placement) -> Violation:
    from dralint.diagnose import locate

    pod = placement.pod
    obj, path = pod.template.owner, pod.template.path
    failure = placement.failure
    for use in placement.attempted:
        if failure is None or failure.request is None or use.claim is None:
            continue
        if f"{use.key[0]}/{use.key[1]}" == failure.claim:
            found, found_path = locate.request(use, failure.request)
            if found is not None:
                obj, path = found, found_path
    return Violation(
        RuleId.ALLOCATION_ERROR,
        f"the scheduler's allocator fails for {pod.subject}: {placement.reason}",
        obj,
        path,
        "the scheduler stops trying to place the pod on any node until this is fixed",
    )


# The filters that depend on the pods placed before (dryrun/filters.py), with the remedy for each.
_LATER_FILTERS = {
    "resources": "lower the pod's requests, or add nodes or allocatable resources to the inventory",
    "pod anti-affinity": "relax the required pod anti-affinity, or add nodes in other topology domains",
    "pod affinity": "check the required pod affinity: the pods it must run with, their namespaces and nodes",
    "topology spread": "raise maxSkew, lower minDomains, or add nodes in other topology domains",
}


def _no_node(placement: Placement, scaling: str | None) -> Violation:
    pod = placement.pod
    later = [f for f in placement.filters if f in _LATER_FILTERS]
    if later:
        subject = f"pod {pod.display}" if pod.template.owner.kind == "Pod" else f"pod {pod.display} of {pod.workload}"
        message = f"no node of the inventory admits {subject} next to the pods placed before it: {placement.reason}"
        hint = "; ".join(_LATER_FILTERS[f] for f in later)
    else:
        message = f"no node of the inventory admits {pod.subject}: {placement.reason}"
        hint = "check nodeSelector, node affinity and tolerations against the nodes' labels and taints"
    return Violation(
        RuleId.POD_FITS_NO_NODE, message, pod.template.owner, pod.template.path, with_scaling(scaling, hint)
    )
