"""Which nodes a pod may run on before devices are considered: nodeName, nodeSelector, required
node affinity, and node taints against the pod's tolerations (kube-scheduler's filter plugins).

A pod that no node admits is reported with the first reason that excluded the most nodes, so
the user sees "node selector gpu=h100 matches no node" rather than a list of every node.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dralint.allocator.nodes import NodeSelectorError, node_matches
from dralint.api import model
from dralint.api.workloads import PodSpec, Toleration
from dralint.dataclass import dataclass

UNSCHEDULABLE_TAINT = model.NodeTaint("node.kubernetes.io/unschedulable", "", "NoSchedule")
# Tolerations the DaemonSet controller adds to every pod it creates (those that matter here).
DAEMONSET_TOLERATIONS = (
    Toleration("node.kubernetes.io/unschedulable", "Exists", "", "NoSchedule"),
    Toleration("node.kubernetes.io/not-ready", "Exists", "", "NoExecute"),
    Toleration("node.kubernetes.io/unreachable", "Exists", "", "NoExecute"),
)


def selector_matches(node: model.Node, selector: model.NodeSelector) -> bool:
    """Node-affinity semantics (the allocator's ``NodeMatches``); a selector that does not parse matches nothing."""
    try:
        return node_matches(node, None, None, selector)
    except NodeSelectorError:
        return False


def tolerates(toleration: Toleration, taint: model.NodeTaint) -> bool:
    """core/v1 ``Toleration.ToleratesTaint``."""
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    if toleration.operator == "Exists":
        return True
    if toleration.operator in ("", "Equal"):
        return toleration.value == taint.value
    return False


def blocking_taints(node: model.Node) -> tuple[model.NodeTaint, ...]:
    """Taints that keep pods off the node unless tolerated (PreferNoSchedule only scores)."""
    taints = tuple(t for t in node.taints if t.effect in ("NoSchedule", "NoExecute"))
    return (*taints, UNSCHEDULABLE_TAINT) if node.unschedulable else taints


def untolerated(node: model.Node, tolerations: Sequence[Toleration]) -> model.NodeTaint | None:
    """The first taint of ``node`` no toleration matches, or ``None``."""
    for taint in blocking_taints(node):
        if not any(tolerates(t, taint) for t in tolerations):
            return taint
    return None


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Why a node cannot take the pod (None from :func:`exclusion` when it can)."""

    reason: str  # "node name", "node selector", "node affinity", "taint", "resources", "pod affinity", ...
    detail: str  # after a count: "3 untolerated taint x:NoSchedule"; or about one node, see plural
    # set for a predicate of nodes: "1 node has ...", "3 nodes have ..."; for a named exclusion, what
    # the nodes beyond those named are counted with ("2 more nodes with insufficient cpu")
    plural: str | None = None
    node: str | None = None  # the node the detail's numbers are about: it is named, not counted

    def counted(self, n: int) -> str:
        if self.plural is None:
            return f"{n} {self.detail}"
        return f"1 node {self.detail}" if n == 1 else f"{n} nodes {self.plural}"


def exclusion(
    node: model.Node, spec: PodSpec, tolerations: Sequence[Toleration], *, labels_known: bool = True
) -> Exclusion | None:
    """Why ``node`` cannot take a pod with ``spec``, or ``None`` when it can.

    ``labels_known`` is false for nodes dralint made up because a slice names them: their
    labels and taints are unknown, so label selectors are given the benefit of the doubt.
    """
    if spec.node_name and spec.node_name != node.name:
        return Exclusion("node name", f"the pod names node {spec.node_name}")
    if not labels_known:
        return None
    excluded = affinity_exclusion(node, spec)
    if excluded is not None:
        return excluded
    taint = untolerated(node, tolerations)
    if taint is not None:
        text = f"{taint.key}={taint.value}:{taint.effect}" if taint.value else f"{taint.key}:{taint.effect}"
        return Exclusion("taint", f"untolerated taint {text}")
    return None


def affinity_exclusion(node: model.Node, spec: PodSpec) -> Exclusion | None:
    """NodeAffinity's ``Match``: why the pod's nodeSelector or required node affinity refuses ``node``."""
    for key, value in spec.node_selector.items():
        if node.labels.get(key) != value:
            return Exclusion("node selector", f"nodeSelector {key}={value}")
    if spec.required_affinity is not None and not selector_matches(node, spec.required_affinity):
        return Exclusion("node affinity", "required node affinity")
    return None


MAX_NAMED_NODES = 3  # nodes named with their own numbers in one summary; the others are counted


def summarise(exclusions: Iterable[tuple[str, Exclusion]]) -> str:
    """``"0 of 4 nodes are eligible: 3 untolerated taint nvidia.com/gpu:NoSchedule; node-a: insufficient cpu: …"``.

    Exclusions that hold a node's own numbers name the node (the first few, in node order; the
    others are counted per reason). Groups are separated by semicolons: a group's own text may
    hold commas ("16 requested, 14 of 30 allocatable free").
    """
    counts: dict[Exclusion, int] = {}
    named: list[Exclusion] = []
    total = 0
    for _, excluded in exclusions:
        total += 1
        if excluded.node is not None:
            named.append(excluded)
        else:
            counts[excluded] = counts.get(excluded, 0) + 1
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0].detail))
    parts = [excluded.counted(n) for excluded, n in ordered]
    parts += [f"{excluded.node}: {excluded.detail}" for excluded in named[:MAX_NAMED_NODES]]
    more: dict[str, int] = {}
    for excluded in named[MAX_NAMED_NODES:]:
        what = excluded.plural or excluded.reason
        more[what] = more.get(what, 0) + 1
    for what, n in sorted(more.items(), key=lambda item: (-item[1], item[0])):
        parts.append(f"{n} more node{'s' if n != 1 else ''} with {what}")
    return f"0 of {total} nodes are eligible: {'; '.join(parts)}" if total else "the inventory has no nodes"
