"""What scaling would do for some unplaced pods, in one sentence for a finding's hint."""

from __future__ import annotations

from collections.abc import Sequence

from dralint.plan.planner import Plan


def scaling(plan: Plan, pods: Sequence[str]) -> str:
    """``fits after adding 2 nodes of pool a100`` or ``no node pool can ever satisfy it: ...`` for ``pods``
    (namespace/name), from the scale-up decisions that place them and the pods that stay unplaceable."""
    added: dict[str, set[str]] = {}
    fitted = 0
    for pod in pods:
        decision = plan.added_for(pod)
        if decision is not None:
            fitted += 1
            added.setdefault(decision.pool.name, set()).update(decision.nodes)
    never = {u.pod: u for u in plan.unplaceable}
    stuck = [never[pod] for pod in pods if pod in never]
    parts = []
    if added:
        nodes = " and ".join(
            f"{len(names)} node{'s' if len(names) != 1 else ''} of pool {pool}" for pool, names in added.items()
        )
        who = "" if fitted == len(pods) else f"{fitted} of {len(pods)} pods "
        parts.append(f"{who}fit{'s' if not who and len(pods) == 1 else ''} after adding {nodes}")
    if stuck:
        subject = "it" if len(pods) == 1 else "them" if len(stuck) == len(pods) else f"the other {len(stuck)}"
        reason = stuck[0].pools or "more nodes do not change why"
        parts.append(f"no node pool can ever satisfy {subject}: {reason}")
    return "; ".join(parts)
