"""The dry-run's scheduler verdicts besides devices (DRA510-DRA519): pods left pending by what they bypass
or wait for, reported once per pod template on the workload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:  # the dry-run's modules are imported only when there is an inventory (see check)
    from dralint.dryrun.placement import Placement


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return
    reported: set[int] = set()
    for placement in ctx.analysis.simulation.placements:
        template = placement.pod.template_index
        if template in reported:
            continue
        if placement.outcome == "bypassed":
            reported.add(template)
            yield _bypassed(placement)


def _bypassed(placement: Placement) -> Violation:
    pod = placement.pod
    return Violation(
        RuleId.BOUND_POD_CLAIM_NEVER_ALLOCATED,
        f"{pod.subject} never start{'s' if pod.template.owner.kind == 'Pod' else ''}: {placement.reason}",
        pod.template.owner,
        (*pod.template.path, "nodeName"),
        "select the node with a nodeSelector on kubernetes.io/hostname instead of spec.nodeName, so that "
        "kube-scheduler places the pod and allocates its claims",
    )
