"""The whole plan for one dry-run: scale-up until the pods fit, then scale-down, with utilisation before and after."""

from __future__ import annotations

from dralint.cluster.pods import Pod
from dralint.dataclass import dataclass
from dralint.diagnose import why
from dralint.dryrun.analysis import Analysis
from dralint.dryrun.placement import Placement
from dralint.dryrun.utilisation import PoolUtilisation
from dralint.plan import scaledown, scaleup
from dralint.plan.world import World

DEFAULT_THRESHOLD = 0.5


@dataclass(frozen=True, slots=True)
class Unplaceable:
    pod: str
    workload: str
    reason: str  # the dry-run's why, then what node pools do about it
    pools: str = ""  # what node pools do about it: "no new node of node pool a100 places it either"


@dataclass(frozen=True, slots=True)
class Plan:
    scale_up: tuple[scaleup.Decision, ...]
    unplaceable: tuple[Unplaceable, ...]
    scale_down: tuple[scaledown.Removal, ...]
    kept: tuple[scaledown.Kept, ...]  # scale-down candidates that stay, with why
    before: tuple[PoolUtilisation, ...]
    after: tuple[PoolUtilisation, ...]
    expander: scaleup.Expander
    threshold: float

    def added_for(self, pod: str) -> scaleup.Decision | None:
        """The scale-up decision that places ``pod`` (None when it was placed without one, or never)."""
        for decision in self.scale_up:
            if pod in decision.pods:
                return decision
        return None


def plan(
    analysis: Analysis,
    *,
    expander: scaleup.Expander = "least-waste",
    threshold: float = DEFAULT_THRESHOLD,
    scale_down: bool = True,
) -> Plan:
    """What the autoscaler would add and then remove for the dry-run ``analysis``."""
    world = World.start(analysis)
    before = tuple(scaledown.pool_utilisation(world))
    decisions, waiting = scaleup.scale_up(world, expander)
    unplaceable = _unplaceable(analysis, waiting)
    removed: list[scaledown.Removal] = []
    kept: list[scaledown.Kept] = []
    if scale_down:
        removed, kept = scaledown.scale_down(world, threshold)
    after = tuple(scaledown.pool_utilisation(world))
    return Plan(tuple(decisions), tuple(unplaceable), tuple(removed), tuple(kept), before, after, expander, threshold)


def _unplaceable(analysis: Analysis, waiting: list[Pod]) -> list[Unplaceable]:
    """The pods no scale-up places, in dry-run order, each with the dry-run's why."""
    still = {pod.display for pod in waiting}
    details = _details(analysis)
    # the pools the scale-up could try: those below maxCount before it
    room = [pool.name for pool in analysis.inventory.pools if pool.size < pool.max_count]
    if room:
        pools = f"no new node of node pool {', '.join(room)} places it either"
    elif analysis.inventory.pools:
        pools = "every node pool is at its maxCount"
    else:
        pools = ""
    out = []
    simulation = analysis.simulation
    for placement in [*simulation.placements, *simulation.others]:
        if placement.outcome == "placed":
            continue
        pod = placement.pod
        if pod.display not in still and placement.outcome in scaleup.HELPABLE:
            continue
        reason = _reason(placement, details)
        if placement.outcome in scaleup.HELPABLE and pools:
            out.append(Unplaceable(pod.display, pod.workload, f"{reason}; {pools}", pools))
        else:
            out.append(Unplaceable(pod.display, pod.workload, reason))
    return out


def _details(analysis: Analysis) -> dict[int, str]:
    out: dict[int, str] = {}
    for failure in analysis.failures:
        lines = [why.sentence(reason) for reason in analysis.reasons(failure)]
        out[failure.first.pod.template_index] = "; ".join(lines)
    return out


def _reason(placement: Placement, details: dict[int, str]) -> str:
    detail = details.get(placement.pod.template_index) if placement.outcome == "unsatisfiable" else None
    return f"{placement.reason}: {detail}" if detail else placement.reason
