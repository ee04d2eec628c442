"""DRA501 and DRA520: pods that fit an empty cluster but get no devices because the pods placed before them
hold them, with the arithmetic of what the allocator did (the devices the request can use, what each placed
pod holds of them and what the unplaced ones still need), told apart by whether another order fits them.

DRA520 (a warning) when a replay of the dry-run in another order of the workloads places them without
leaving any other pod without its devices (:mod:`dralint.dryrun.orders`); DRA501 (an error) otherwise,
saying when the arithmetic proves that no order can (``Contention.in_any_order``).
"""

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
    from dralint.dryrun.contention import Contention

REMEDY = "add devices to the inventory, lower the replicas, or request fewer devices per pod"
MAX_NAMED = 5  # workloads an order names


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return
    analysis = ctx.analysis
    scaled = Scaling(ctx)
    for failure in analysis.failures:
        if failure.fits_empty:
            scaling = scaled.of([p.pod.display for p in failure.placements])
            yield from _oversubscribed(analysis, ctx.contention, failure, scaling)


def _oversubscribed(
    analysis: Analysis, contention: Contention, failure: Failure, scaling: str | None
) -> Iterator[Violation]:
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
        said: list[str] = []  # the workloads each arithmetic names
        for reason in group:
            text, found, named = _arithmetic(contention, use, reason)
            texts.append(text)
            said.append(named)
            details = details or found
        # No order fits the pod when the arithmetic rules out every alternative it has.
        specs = [spec for r in group if (spec := why.request_spec(use.claim, r.request)) is not None]
        found_proofs = [contention.in_any_order(spec) for spec in specs]
        proofs = (
            [p.in_any_order(named) for p, named in zip(found_proofs, said, strict=False) if p is not None]
            if all(found_proofs) and specs
            else []
        )
        order = None if proofs else contention.orders.counter_example(pod.template_index)
        obj, path = locate.claim_entry(pod, use)
        who = f"the pod of {pod.workload} gets" if total == 1 else f"{unplaced} of {total} pods of {pod.workload} get"
        if pod.template.owner.kind == "Pod":
            who = f"pod {pod.display} gets"
        # What the order means goes inside the parentheses, with the arithmetic: a finding's fingerprint
        # (baselines) leaves them out, so that it does not change with the numbers and names.
        if order is not None:
            first = _names(order.first)
            gives = (
                "gives every workload its devices"
                if order.everything
                else "gives them devices without leaving any pod placed in file order without its own"
            )
            texts.append(f"placing {first} first {gives}")
        elif proofs:
            texts.append("; or ".join(proofs))
        elif contention.orders.tried:
            texts.append(f"no other order dralint tried ({contention.orders.tried}) places them")
        where = " in file order" if order is not None else ""
        message = f"{who} no devices{where}: earlier pods hold them ({'; '.join(texts)})"
        if failure.first.filters:
            n = len(failure.first.candidates)
            passing = "only 1 node passes" if n == 1 else f"only {n} nodes pass"
            message += f"; {passing} its {' and '.join(failure.first.filters)} filters"
        message += skipped(analysis, failure, group[0].device_class)
        involves = contention.involved(group[0].device_class)
        details = (("unplacedPods", unplaced), ("pods", total), *details)
        if order is not None:
            hint = _reorder_hint(contention.steerable(specs[0]) if specs else ([], 0), _names(order.first))
            details = (*details, ("placedFirst", list(order.first)))
            yield Violation(
                RuleId.PLACEMENT_ORDER_DEPENDENT, message, obj, path, hint, details=details, involves=involves
            )
            continue
        yield Violation(
            RuleId.DEVICES_OVERSUBSCRIBED,
            message,
            obj,
            path,
            with_scaling(scaling, REMEDY),
            details=details,
            involves=involves,
        )


def _names(workloads: tuple[str, ...]) -> str:
    named = list(workloads[:MAX_NAMED])
    if len(workloads) > MAX_NAMED:
        named.append(f"{len(workloads) - MAX_NAMED} more workloads")
    return ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]


def _reorder_hint(steerable: tuple[list[str], int], first: str) -> str:
    """Create the workload first, or keep the others off its devices when they can use other ones."""
    hint = f"the scheduler places pods in the order they are created: create {first} before the others"
    holders, free = steerable
    if holders:
        who = _names(tuple(holders))
        hint += (
            f", or keep {who} off these devices with a selector or node affinity "
            f"({free} device{'s' if free != 1 else ''} {'they' if len(holders) > 1 else 'it'} can use "
            f"{'stay' if free != 1 else 'stays'} free)"
        )
    return hint


def _arithmetic(contention: Contention, use: ClaimUse, reason: why.RequestWhy) -> tuple[str, Details, str]:
    """The demand against the supply of the devices one (sub)request can use: text, details, and the
    workloads it names."""
    from dralint.diagnose import why

    spec = why.request_spec(use.claim, reason.request)
    if spec is None:
        return f"request {reason.request}", (), ""
    if reason.rejected.get("capacity") and spec.capacity is not None:
        names = sorted(spec.capacity.requests)
        return "; ".join(contention.capacity_demand(spec, name).text() for name in names), (), ""
    found = contention.class_demand(spec, reason.request)
    text = found.text
    if found.total <= found.supply:
        # Enough devices in all, too few together on any one node the pod may run on.
        text += f", at most {reason.most_on_one_node} of them free on one node the pod may run on"
    return text, found.details, found.named
