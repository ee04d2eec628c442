"""Where the dry-run stopped at one of dralint's limits on the allocator's search or on the
evaluation of selectors on the inventory (DRA008).

The allocator searches every combination of devices before it calls a claim unsatisfiable;
some requests make that search exponential. dralint bounds it (``limits.maxSearchSteps`` per
pod and node, ``limits.maxDryRunSteps`` for the whole dry-run) and says where it gave up, so
the result is never a silent "no finding".
"""

from __future__ import annotations

from collections.abc import Iterator

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

RULE = RuleId.SEARCH_LIMIT_REACHED


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return
    from dralint.allocator.types import Cause  # (the dry-run's modules are loaded only with an inventory)

    limits = ctx.options.limits
    reported: set[int] = set()
    stopped = []
    for placement in ctx.analysis.simulation.placements:
        if placement.outcome != "error":
            continue
        pod = placement.pod
        cause = placement.failure.cause if placement.failure is not None else None
        if cause is Cause.SEARCH_BUDGET and pod.template_index not in reported:
            reported.add(pod.template_index)
            node = placement.candidates[0] if placement.candidates else "its node"
            whose = "its" if pod.template.owner.kind == "Pod" else "their"
            yield Violation(
                RULE,
                f"the dry-run gave up on {pod.subject}: allocating {whose} claims on node {node} takes more than "
                f"{limits.max_search_steps} search steps (limits.maxSearchSteps)",
                pod.template.owner,
                pod.template.path,
                "make the requests narrower (fewer devices per request, selectors or constraints that leave fewer "
                "choices), or raise limits.maxSearchSteps in the configuration",
            )
        elif cause is Cause.DRY_RUN_BUDGET:
            stopped.append(placement)
    selectors = ctx.selector_errors.stopped
    if selectors is not None:
        yield Violation(
            RULE,
            f"the check of CEL selectors on the inventory (DRA420) stopped after {limits.max_selector_evaluations} "
            f"evaluations (limits.maxSelectorEvaluations); {selectors.unchecked} selector list"
            f"{'s were' if selectors.unchecked != 1 else ' was'} not evaluated, the first of {selectors.owner}",
            selectors.obj,
            selectors.path,
            "raise limits.maxSelectorEvaluations in the configuration, or check fewer claims at once",
        )
    if stopped:
        first = stopped[0].pod
        count = len(stopped)
        yield Violation(
            RULE,
            f"the dry-run stopped after {limits.max_dry_run_steps} search steps (limits.maxDryRunSteps); "
            f"{count} pod{'s were' if count != 1 else ' was'} not placed, the first {first.display}",
            first.template.owner,
            first.template.path,
            "raise limits.maxDryRunSteps in the configuration, or check fewer workloads at once",
        )
