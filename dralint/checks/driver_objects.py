"""DRA918: objects of drivers' own APIs against the pods that use them: a ComputeDomain's numNodes.

In a ComputeDomain's IMEX mode without DNS names (every NVIDIA driver release before v25.8.0, and
later ones with the IMEXDaemonsWithDNSNames gate off), the domain's IMEX daemons wait until
``numNodes`` nodes have joined, and every pod using the domain's channel waits with them. The pods
that join are those whose claims come from the domain's channel template; they can bring at most
one node each, and the dry-run tells on how many nodes they land.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:
    from dralint.api.drivers import ComputeDomain


def check(ctx: CheckContext) -> Iterator[Violation]:
    from dralint.api.drivers import compute_domains

    domains = [d for d in compute_domains(ctx.objects) if d.num_nodes > 0 and d.template is not None]
    if not domains:
        return
    placed = _nodes_of_templates(ctx)
    for domain in domains:
        joining = [
            (index, template)
            for index, template in enumerate(ctx.pod_templates)
            if template.namespace == domain.namespace
            and any(e.resource_claim_template_name == domain.template for e in template.spec.resource_claims)
        ]
        # a DaemonSet brings a pod to every node it runs on: as many as the domain needs, as far as dralint knows
        pods = sum(template.replicas if template.replicas is not None else domain.num_nodes for _, template in joining)
        who = ", ".join(f"{t.owner.kind} {t.namespace}/{t.owner.name}" for _, t in joining)
        if pods < domain.num_nodes:
            yield _finding(domain, _too_few(pods, who, domain.template or ""))
            continue
        nodes = {node for index, _ in joining for node in placed.get(index, ())}
        if placed and all(index in placed for index, _ in joining) and len(nodes) < domain.num_nodes:
            listed = ", ".join(sorted(nodes))
            yield _finding(
                domain,
                f"the dry-run places its {pods} pods ({who}) on {len(nodes)} node{'' if len(nodes) == 1 else 's'} "
                f"({listed}): {len(nodes)} can join",
            )


def _finding(domain: ComputeDomain, why: str) -> Violation:
    return Violation(
        RuleId.COMPUTE_DOMAIN_SHORT_OF_NODES,
        f"ComputeDomain {domain.namespace}/{domain.name} expects numNodes: {domain.num_nodes}, but {why}; without "
        "DNS names for the IMEX daemons (NVIDIA driver releases before v25.8.0, or IMEXDaemonsWithDNSNames=false) "
        "the daemons wait for the missing nodes and the pods stay in ContainerCreating",
        domain.obj,
        ("spec", "numNodes"),
        "set numNodes to the number of nodes the workload runs on (0 lets the daemons start at once with DNS names)",
    )


def _too_few(pods: int, who: str, template: str) -> str:
    if pods == 0:
        return f"no pod uses its channel template {template}: no node can join"
    plural = "" if pods == 1 else "s"
    verb = "uses" if pods == 1 else "use"
    joined = f"at most {pods} node{plural} can join"
    return f"only {pods} pod{plural} ({who}) {verb} its channel template {template}: {joined}"


def _nodes_of_templates(ctx: CheckContext) -> dict[int, set[str]]:
    """The nodes the dry-run places the pods of each template on (only templates whose every pod is placed)."""
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return {}
    nodes: dict[int, set[str]] = {}
    unplaced: set[int] = set()
    for placement in ctx.analysis.simulation.placements:
        index = placement.pod.template_index
        if placement.outcome == "placed" and placement.node is not None:
            nodes.setdefault(index, set()).add(placement.node)
        else:
            unplaced.add(index)
    return {index: found for index, found in nodes.items() if index not in unplaced}
