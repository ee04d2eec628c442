"""DRA220-DRA221: nodes whose kubelet cannot start pods with claims under the target's API server, and the
pods the dry-run places there.

The facts are :mod:`dralint.validate.kubelet`'s: the ``resource.k8s.io`` version each kubelet
release reads claims through, against what the target serves by default, and the version-skew
policy. A Node without ``status.nodeInfo.kubeletVersion`` is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:
    from dralint.cluster.pods import Pod
    from dralint.validate.kubelet import KubeletProblem


def check(ctx: CheckContext) -> Iterator[Violation]:
    from dralint.validate.kubelet import problem

    blocking: dict[str, KubeletProblem] = {}
    for entry in ctx.inventory.nodes:
        node = entry.node
        if entry.origin is None or node.kubelet_version is None:
            continue
        found = problem(node.kubelet_version, ctx.target)
        if found is None:
            continue
        if found.blocks_claims:
            blocking[node.name] = found
        yield Violation(
            RuleId.NODE_KUBELET_INCOMPATIBLE,
            f"node {node.name}: {found.message}",
            entry.origin.obj,
            ("status", "nodeInfo", "kubeletVersion"),
            found.hint,
        )
    if blocking and ctx.options.simulate and ctx.inventory.has_inventory:
        yield from _placed_there(ctx, blocking)


def _placed_there(ctx: CheckContext, blocking: Mapping[str, KubeletProblem]) -> Iterator[Violation]:
    """One finding per workload the dry-run places pods of on such nodes, at its first claim."""
    from dralint.diagnose import locate

    nodes: dict[int, list[str]] = {}
    first: dict[int, Pod] = {}
    for placement in ctx.analysis.simulation.placements:
        pod, node = placement.pod, placement.node
        if placement.outcome != "placed" or node is None or node not in blocking or not pod.claims:
            continue
        found = nodes.setdefault(pod.template_index, [])
        if node not in found:
            found.append(node)
        first.setdefault(pod.template_index, pod)
    for index, names in nodes.items():
        pod = first[index]
        trouble = blocking[names[0]]
        obj, path = locate.claim_entry(pod, pod.claims[0])
        api = f"resource.k8s.io/{trouble.claims_api}" if trouble.claims_api else "no structured-DRA API"
        yield Violation(
            RuleId.POD_PLACED_WHERE_CLAIMS_CANNOT_START,
            f"the dry-run places {pod.subject} on {', '.join(names)}, whose kubelet {trouble.version} reads "
            f"ResourceClaims through {api}, which Kubernetes {ctx.target.release} does not serve by default: "
            "the pods never start there",
            obj,
            path,
            "upgrade those nodes' kubelets, or keep the pods off them (a nodeSelector or node affinity)",
        )
