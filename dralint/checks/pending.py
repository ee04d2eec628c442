"""DRA521: pods the dry-run leaves unplaced that no other finding on their workload or claims explains.

A late check (:data:`~dralint.checks.registry.LATE_CHECKS`): it runs after every other check, with
their findings, so that nothing the dry-run learns is lost. A pod's failure is often reported where
its cause is written, which may be a file that is only context (a DeviceClass of the inventory whose
selector fails at run time, a template read from another file, a slice the API server rejects):
then the workload itself gets this finding, with the dry-run's reason and the object at fault.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from dralint.checks.rule_ids import RuleId
from dralint.findings import Finding, ObjectRef, Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:  # the dry-run's modules are imported only when there is an inventory (see check)
    from dralint.api.objects import KubeObject
    from dralint.apimachinery.fieldpath import Path
    from dralint.cluster.pods import Pod
    from dralint.dryrun.analysis import Analysis
    from dralint.dryrun.contention import Contention
    from dralint.dryrun.placement import Placement

# Findings that say why a pod of the workload they are on is not placed, whatever their severity: the
# dry-run's own rules, the search limits, and references to objects the inputs lack (DRA306 says that
# dralint assumes the cluster has them, which the dry-run cannot). Any error counts too.
EXPLAINING: frozenset[str] = frozenset(
    {
        RuleId.SEARCH_LIMIT_REACHED,
        RuleId.UNKNOWN_RESOURCE_CLAIM,
        RuleId.UNKNOWN_RESOURCE_CLAIM_TEMPLATE,
        RuleId.UNVERIFIED_REFERENCE,
        RuleId.SELECTOR_RUNTIME_ERROR,
        RuleId.CLAIM_UNSATISFIABLE,
        RuleId.DEVICES_OVERSUBSCRIBED,
        RuleId.PLACEMENT_ORDER_DEPENDENT,
        RuleId.CAPACITY_REQUEST_EXCEEDS_DEVICES,
        RuleId.CAPACITY_REQUEST_POLICY_VIOLATION,
        RuleId.CAPACITY_REQUEST_ROUNDED_UP,
        RuleId.ALLOCATION_ERROR,
        RuleId.POD_FITS_NO_NODE,
        RuleId.SHARED_CLAIM_MULTIPLE_REPLICAS,
        RuleId.SHARED_CLAIM_PODS_APART,
        RuleId.CLAIM_CONSUMERS_EXCEED_LIMIT,
        RuleId.CAPACITY_REQUEST_ON_EXCLUSIVE_DEVICE,
        RuleId.ALL_MODE_ON_SHAREABLE_DEVICES,
        RuleId.EXCLUSIVE_CLASS_SPLIT_ACROSS_CLAIMS,
    }
)


def check(ctx: CheckContext, reported: Sequence[Finding]) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return
    explained = {_identity(f.object) for f in reported if f.object is not None and explains(f)}
    analysis = ctx.analysis
    groups: dict[tuple[int, str], list[Placement]] = {}
    for placement in analysis.simulation.placements:
        if placement.outcome != "placed" and not _absent(analysis, placement) and not _about(placement.pod) & explained:
            # (the reason names each pod's own claim: the pods of a template that fail alike are one finding)
            groups.setdefault((placement.pod.template_index, placement.outcome), []).append(placement)
    for group in groups.values():
        yield _pending(ctx, analysis, group)


Identity = tuple[str, str, str | None]  # kind, namespace ("default" when not written), name


def _identity(ref: ObjectRef) -> Identity:
    return (ref.kind, ref.namespace or "default", ref.name)


def _about(pod: Pod) -> set[Identity]:
    """The workload and the claims and templates its pods name, found or not (a rejected one is not found)."""
    owner = pod.template.owner
    out = {(owner.kind, owner.namespace or "default", owner.name)}
    for use in pod.claims:
        if use.entry.resource_claim_name is not None:
            out.add(("ResourceClaim", pod.namespace, use.entry.resource_claim_name))
        if use.entry.resource_claim_template_name is not None:
            out.add(("ResourceClaimTemplate", pod.namespace, use.entry.resource_claim_template_name))
        if use.source is not None:
            out.add(_identity(use.source.ref()))
    return out


def _absent(analysis: Analysis, placement: Placement) -> bool:
    """Whether the pod names a claim, template or class that the inputs simply lack: the reference rules
    (DRA300-DRA306) report that, and dralint assumes the cluster has it (the dry-run cannot)."""
    from dralint.allocator.types import Cause

    if placement.outcome == "error":
        return placement.failure is not None and placement.failure.cause is Cause.MISSING_CLASS
    if placement.outcome != "missing-claim" or analysis.claim_index is None:
        return False
    rejected = analysis.claim_index.rejected
    pod = placement.pod
    for use in pod.claims:
        if not use.missing:
            continue
        entry = use.entry
        kind, name = (
            ("ResourceClaimTemplate", entry.resource_claim_template_name)
            if entry.resource_claim_template_name is not None
            else ("ResourceClaim", entry.resource_claim_name)
        )
        if (kind, pod.namespace, name) in rejected:
            return False
    return True


def explains(finding: Finding) -> bool:
    """Whether ``finding``, on a pod's workload or claims, tells the user that the pod does not start."""
    return finding.severity == "error" or finding.rule in EXPLAINING


def subject(placements: Sequence[Placement]) -> str:
    """``pod ml/notebook`` for a bare Pod, ``2 pods of Job ml/train`` otherwise."""
    pod = placements[0].pod
    if pod.template.owner.kind == "Pod":
        return f"pod {pod.display}"
    count = len(placements)
    return f"{count} pod{'s' if count != 1 else ''} of {pod.workload}"


def _pending(ctx: CheckContext, analysis: Analysis, group: list[Placement]) -> Violation:
    first = group[0]
    pod = first.pod
    stays = "stays" if len(group) == 1 else "stay"
    detail, hint = _detail(ctx, analysis, first)
    return Violation(
        RuleId.POD_LEFT_PENDING,
        f"{subject(group)} {stays} pending: {detail}",
        pod.template.owner,
        pod.template.path,
        hint,
        involves=_parties(ctx.contention, first),
    )


def _parties(contention: Contention, placement: Placement) -> tuple[KubeObject, ...]:
    """The claims and templates the pod uses, and the classes, slices and workloads their devices involve."""
    sources = tuple(dict.fromkeys(use.source for use in placement.pod.claims if use.source is not None))
    names = tuple(
        part.spec.device_class_name
        for use in placement.pod.claims
        for request in (use.claim.spec.requests if use.claim is not None else ())
        for part in request.parts()
        if part.spec is not None
    )
    around, members = contention.around(names)
    if any(source in members for source in sources):
        return tuple(dict.fromkeys((*sources, *around)))
    return (*sources, *around)  # (thousands of slices and workloads: not hashed again for every pod)


def _detail(ctx: CheckContext, analysis: Analysis, placement: Placement) -> tuple[str, str | None]:
    """The dry-run's reason, with what it learnt about the cause and where that is written; and a hint."""
    from dralint.allocator.types import Cause
    from dralint.diagnose import locate, why

    if placement.outcome == "error" and placement.failure is not None:
        if placement.failure.cause is Cause.CEL_RUNTIME:
            selectors = _failing_selectors(ctx, placement)
            if selectors:
                return (
                    f"the scheduler's allocator fails on {'; '.join(selectors)}",
                    "fix the selector where it is written (checking that file reports it as DRA420)",
                )
        return f"the scheduler's allocator fails: {placement.reason}", None
    if placement.outcome != "unsatisfiable":
        return placement.reason, None
    failure = analysis.failure_of(placement.pod.template_index)
    if failure is None:
        return placement.reason, None
    text = placement.reason
    reasons = analysis.reasons(failure)
    blocking = why.blocking(reasons) or reasons[:1]
    if failure.fits_empty:
        text += "; earlier pods hold the devices"
    uses = {f"{u.key[0]}/{u.key[1]}": u for u in failure.first.attempted if u.claim is not None}
    for reason in blocking:
        use = uses.get(reason.claim)
        found, path = locate.request(use, reason.request) if use is not None else (None, ())
        written = f"{locate.describe(use)} at {where(ctx, found, path)}, " if use is not None and found else ""
        text += f"; {written}{why.sentence(reason)}"
    text += "".join(f"; {constraint}" for constraint in ctx.contention.constraints(failure))
    skipped = [note for r in blocking for note in analysis.skipped(failure.first.candidates, r.device_class)]
    text += "".join(f"; {note}" for note in dict.fromkeys(skipped))
    hints = [h for reason in blocking for h in reason.hints]
    return text, "; ".join(dict.fromkeys(hints)) or None


def _failing_selectors(ctx: CheckContext, placement: Placement) -> list[str]:
    """The selectors of the pod's classes and claims that raise CEL runtime errors, with where they are written."""
    from dralint.cel.dra import NO_SUCH_KEY_HINT

    classes: set[str] = set()
    sources: set[int] = set()
    for use in placement.attempted:
        if use.source is not None:
            sources.add(id(use.source))
        if use.claim is None:
            continue
        for request in use.claim.spec.requests:
            classes.update(part.spec.device_class_name for part in request.parts() if part.spec is not None)
    at_fault = {id(ctx.inventory.classes[name].origin.obj) for name in classes if name in ctx.inventory.classes}
    return [
        f"selector #{error.index} of {error.owner} at {where(ctx, error.obj, error.path)}: CEL runtime error on "
        f"{error.failing} device{'s' if error.failing != 1 else ''}, first {error.device}: "
        + error.message.removesuffix(NO_SUCH_KEY_HINT)
        for error in ctx.selector_errors.errors
        if id(error.obj) in at_fault or id(error.obj) in sources
    ]


def where(ctx: CheckContext, obj: KubeObject, path: Path) -> str:
    """``cluster/classes.yaml:8`` for a canonical ``path`` of ``obj``, as the engine would resolve it."""
    normalised = ctx.normalised.get(obj)
    source = normalised.paths.to_source(path) if normalised is not None else path
    at = ctx.written_at(obj, source)
    return f"{at.file}:{at.line}"
