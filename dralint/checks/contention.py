"""DRA501: pods that fit an empty cluster but get no devices because the pods placed before them hold them,
with the arithmetic of what the allocator did: the devices the request can use, what each placed pod holds
of them and what the unplaced ones still need."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dralint.checks.allocation import Scaling, skipped, with_scaling
from dralint.checks.rule_ids import RuleId
from dralint.findings import Details, Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:  # the dry-run's modules are imported only when there is an inventory (see check)
    from dralint.cluster.pods import ClaimUse
    from dralint.diagnose import why
    from dralint.dryrun.analysis import Analysis, Failure

REMEDY = "add devices to the inventory, lower the replicas, or request fewer devices per pod"


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_devices:
        return
    analysis = ctx.analysis
    scaled = Scaling(ctx)
    for failure in analysis.failures:
        if failure.fits_empty:
            yield from _oversubscribed(analysis, failure, scaled.of([p.pod.display for p in failure.placements]))


def _oversubscribed(analysis: Analysis, failure: Failure, scaling: str | None) -> Iterator[Violation]:
    from dralint.diagnose import locate, why

    pod = failure.first.pod
    reasons = analysis.reasons(failure)
    exhausted = why.blocking(reasons) or reasons[:1]
    use_by_ref = {f"{u.key[0]}/{u.key[1]}": u for u in failure.first.attempted if u.claim is not None}
    # The alternatives of one firstAvailable request are one finding: the pod needs any of them.
    groups: dict[tuple[str, str], list[why.RequestWhy]] = {}
    for reason in exhausted:
        if reason.claim in use_by_ref:
            groups.setdefault((reason.claim, reason.request.partition("/")[0]), []).append(reason)
    total = analysis.template_pods[pod.template_index]
    unplaced = len(failure.placements)
    for (claim, _), group in groups.items():
        use = use_by_ref[claim]
        texts: list[str] = []
        details: Details = ()
        for reason in group:
            text, found = _arithmetic(analysis, use, reason)
            texts.append(text)
            details = details or found
        obj, path = locate.claim_entry(pod, use)
        who = f"the pod of {pod.workload} gets" if total == 1 else f"{unplaced} of {total} pods of {pod.workload} get"
        if pod.template.owner.kind == "Pod":
            who = f"pod {pod.display} gets"
        message = f"{who} no devices: earlier pods hold them ({'; '.join(texts)})"
        if failure.first.filters:
            n = len(failure.first.candidates)
            passing = "only 1 node passes" if n == 1 else f"only {n} nodes pass"
            message += f"; {passing} its {' and '.join(failure.first.filters)} filters"
        message += skipped(analysis, failure, group[0].device_class)
        workloads, inventory = analysis.contention.parties(group[0].device_class)
        yield Violation(
            RuleId.DEVICES_OVERSUBSCRIBED,
            message,
            obj,
            path,
            with_scaling(scaling, REMEDY),
            details=(("unplacedPods", unplaced), ("pods", total), *details),
            involves=(*workloads, *inventory),
        )


def _arithmetic(analysis: Analysis, use: ClaimUse, reason: why.RequestWhy) -> tuple[str, Details]:
    """The demand against the supply of the devices one (sub)request can use, as text and details."""
    from dralint.diagnose import why

    spec = why.request_spec(use.claim, reason.request)
    if spec is None:
        return f"request {reason.request}", ()
    contention = analysis.contention
    if reason.rejected.get("capacity") and spec.capacity is not None:
        names = sorted(spec.capacity.requests)
        return "; ".join(contention.capacity_demand(spec, name).text() for name in names), ()
    found = contention.class_demand(spec, reason.request)
    text = found.text()
    if found.total <= found.supply:
        # Enough devices in all, too few together on any one node the pod may run on.
        text += f", at most {reason.most_on_one_node} of them free on one node the pod may run on"
    return text, found.details()
