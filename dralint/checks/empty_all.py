"""All requests allocated with no device (DRA508): Kubernetes 1.31 and 1.32 satisfy an
``allocationMode: All`` request that matches no device with none, and the pod runs without it."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return
    from dralint.allocator.prepare import release_for

    if not release_for(ctx.target).all_may_match_nothing:
        return  # from 1.33 such a request is unsatisfiable: DRA500 says so
    from dralint.diagnose import locate

    reported: set[tuple[int, str]] = set()
    for placement in ctx.analysis.simulation.placements:
        if placement.outcome != "placed":
            continue
        pod = placement.pod
        for use, allocation in placement.allocations:
            if use.claim is None or use.claim.allocation is not None:
                continue  # allocated before the dry-run: not this scheduler's doing
            given = {result.request for result in allocation.results}
            for request in use.claim.spec.requests:
                for part in request.alternatives():
                    if part.spec.allocation_mode != "All" or part.label in given:
                        continue
                    key = (pod.template_index, f"{use.key[0]}/{use.key[1]}/{part.label}")
                    if key in reported:
                        continue
                    reported.add(key)
                    obj, path = locate.request(use, part.label)
                    yield Violation(
                        RuleId.ALL_REQUEST_GETS_NO_DEVICE,
                        f"request {part.label} of {locate.describe(use)} asks for all devices of class "
                        f"{part.spec.device_class_name} but none matches on node {placement.node}: Kubernetes "
                        f"{ctx.target.release} allocates the claim without a device and {pod.subject} runs without one",
                        obj or pod.template.owner,
                        path,
                        "check the selectors against the inventory; from Kubernetes 1.33 such a request is "
                        "unsatisfiable, and allocationMode: ExactCount always requires a device",
                    )
