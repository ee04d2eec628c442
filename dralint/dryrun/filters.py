"""The scheduler filters that depend on the pods placed before: NodeResourcesFit, InterPodAffinity and
PodTopologySpread (``DoNotSchedule``), as kube-scheduler's plugins of those names apply them.

:class:`PlacedPods` remembers every placed pod (node, namespace, labels, requests, required
anti-affinity). For each pod, :meth:`PlacedPods.prepare` does what the plugins' PreFilter does
(count matching pods per topology domain) and returns a check of one node at a time, or
``None`` when no such filter can exclude any node for the pod: then placement costs nothing more
than before these filters existed.

Nodes that dralint made up because a slice names them carry only their hostname label; a
topology key they lack is given the benefit of the doubt instead of excluding them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from dralint.api.scheduling import AffinityTerm, LabelMap, LabelSelector, SpreadConstraint, with_label_keys
from dralint.cluster.inventory import NodeEntry
from dralint.cluster.pods import Pod
from dralint.dataclass import dataclass
from dralint.dryrun import eligibility, resources
from dralint.dryrun.eligibility import Exclusion
from dralint.dryrun.nodealloc import DeviceLookup

NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"
Check = Callable[[int], Exclusion | None]  # node index -> why the pod cannot go there, or None


@dataclass(slots=True)
class _Group:
    """The placed pods of one pod template: they share namespace, labels and anti-affinity terms."""

    namespace: str
    labels: LabelMap
    workload: str
    anti_affinity: list[_Term]  # required terms, completed with the group's labels once
    nodes: dict[int, int]  # node index -> pods of the group on it, in order of first placement


@dataclass(slots=True)
class _Term:
    """A required term of the incoming pod with its selector completed (matchLabelKeys) and namespaces."""

    term: AffinityTerm
    selector: LabelSelector | None


class PlacedPods:
    """The pods placed so far, per node, as the inter-pod and resource filters read them."""

    # (the first workload found in a domain is the one an exclusion names: groups are in the
    # order of their first placement)

    def __init__(
        self,
        nodes: Sequence[NodeEntry],
        *,
        namespaces: Mapping[str, LabelMap] | None = None,
        dra_backed: Collection[str] = (),
        inter_pod: bool = True,
        node_allocatable: DeviceLookup | None = None,
        zero_is_listed: bool = False,
    ) -> None:
        """``inter_pod`` false says that no pod to be placed has pod (anti-)affinity or spread
        constraints: then, without allocatable on any node, nothing needs to be remembered.
        ``node_allocatable`` finds the devices whose allocation takes node resources (KEP-5517,
        :mod:`dralint.dryrun.nodealloc`), when DRANodeAllocatableResources is on. ``zero_is_listed``: an
        extended resource a node lists at 0 is still the device plugin's (Kubernetes 1.34)."""
        self.nodes = nodes
        self.zero_is_listed = zero_is_listed
        self.node_allocatable = node_allocatable
        self.namespaces = namespaces or {}
        self.dra_backed = frozenset(dra_backed)
        self.allocatable = [
            resources.amounts(e.node.allocatable) if e.node.allocatable is not None else None for e in nodes
        ]
        self.constrained = any(a is not None for a in self.allocatable)
        self.active = self.constrained or inter_pod
        # Extended resources some Node advertises (see missing()).
        self.advertised = frozenset(name for a in self.allocatable if a is not None for name, v in a.items() if v > 0)
        self._missing: dict[int, tuple[str, ...]] = {}  # per pod template: see missing()
        self.used: list[resources.Amounts] = [{} for _ in nodes]
        self.pod_count = [0] * len(nodes)
        # Placed pods per pod template: a selector is matched once per template, not once per pod.
        self.groups: dict[int, _Group] = {}
        self.repelling: list[_Group] = []  # groups with required anti-affinity
        self._requests: dict[int, resources.Amounts] = {}  # per pod template
        self._spread_nodes: dict[tuple[int, int], list[int]] = {}  # (template, constraint) -> counted nodes

    def requests(self, pod: Pod) -> resources.Amounts:
        cached = self._requests.get(pod.template_index)
        if cached is None:
            cached = self._requests[pod.template_index] = resources.pod_requests(pod.template.spec)
        return cached

    def extended(self, pod: Pod) -> bool:
        """Whether the pod requests an extended resource (a device plugin's or a DeviceClass's)."""
        return any(resources.extended(name) for name in self.requests(pod))

    def missing(self, pod: Pod) -> tuple[str, ...]:
        """The extended resources the pod requests that no Node advertises and no DeviceClass backs: on no
        node, not even on those whose allocatable is unknown (no device plugin anywhere serves them)."""
        cached = self._missing.get(pod.template_index)
        if cached is None:
            requests = self.requests(pod)
            cached = tuple(
                name
                for name in sorted(requests)
                if resources.extended(name) and name not in self.advertised and name not in self.dra_backed
            )
            self._missing[pod.template_index] = cached
        return cached

    def add(self, pod: Pod, node: int, devices: resources.Amounts | None = None) -> None:
        """Place ``pod`` on ``node``; ``devices``: what its claims' devices take from the node besides."""
        if not self.active:
            return
        self.pod_count[node] += 1
        if self.constrained:
            resources.add(self.used[node], self.requests(pod))
            if devices:
                resources.add(self.used[node], devices)
        group = self.groups.get(pod.template_index)
        if group is None:
            anti = self._completed(pod.template.spec.scheduling.anti_affinity, pod.template.labels)
            group = _Group(pod.namespace, pod.template.labels, pod.workload, anti, {})
            self.groups[pod.template_index] = group
            if anti:
                self.repelling.append(group)
        group.nodes[node] = group.nodes.get(node, 0) + 1

    def remove(self, pod: Pod, node: int, devices: resources.Amounts | None = None) -> None:
        """Take back :meth:`add` (a pod of a gang that could not be placed whole)."""
        if not self.active:
            return
        self.pod_count[node] -= 1
        if self.constrained:
            used = self.used[node]
            for name, value in [*self.requests(pod).items(), *(devices or {}).items()]:
                used[name] -= value
        group = self.groups[pod.template_index]
        group.nodes[node] -= 1
        if not group.nodes[node]:
            del group.nodes[node]

    def prepare(self, pod: Pod) -> Check | None:
        """The filters for ``pod`` against the pods placed so far; ``None`` when none can exclude a node."""
        if not self.active:
            return None
        checks: list[Check] = []  # in kube-scheduler's order; the first that excludes a node names why
        if self.constrained:
            checks.append(self._fit(pod))
        scheduling = pod.template.spec.scheduling
        if scheduling.spread:
            checks.append(self._spread(pod))
        if scheduling.affinity or scheduling.anti_affinity or self.repelling:
            checks.append(self._affinity(pod))
        if not checks:
            return None
        if len(checks) == 1:
            return checks[0]

        def check_all(node: int) -> Exclusion | None:
            for check in checks:
                why = check(node)
                if why is not None:
                    return why
            return None

        return check_all

    # --- NodeResourcesFit ---------------------------------------------------------------------

    def _fit(self, pod: Pod) -> Check:
        requests = self.requests(pod)

        def fit(node: int) -> Exclusion | None:
            allocatable = self.allocatable[node]
            if allocatable is None:
                return None
            short = resources.shortages(
                requests, allocatable, self.used[node], self.pod_count[node], self.dra_backed, self.zero_is_listed
            )
            if not short:
                return None
            text = " and ".join(s.text() for s in short)
            reasons = " and ".join(s.reason for s in short)
            return Exclusion("resources", text, reasons, node=self.nodes[node].node.name)

        return fit

    def devices_fit(self, pod: Pod, node: int, devices: resources.Amounts) -> Exclusion | None:
        """The DynamicResources plugin's ``nodeFitsResources``: the pod's requests plus what its devices
        take from the node (``devices``) against the node's free allocatable."""
        allocatable = self.allocatable[node]
        if allocatable is None or not devices:
            return None
        total = dict(self.requests(pod))
        resources.add(total, devices)
        short = [s for s in resources.shortages(total, allocatable, self.used[node], 0) if s.resource in devices]
        if not short:
            return None
        text = " and ".join(s.text() for s in short)
        reasons = " and ".join(s.reason for s in short)
        return Exclusion("resources", f"{text} (with what its devices take)", reasons, node=self.nodes[node].node.name)

    # --- InterPodAffinity ---------------------------------------------------------------------

    def _namespace_labels(self, namespace: str) -> LabelMap:
        return {**self.namespaces.get(namespace, {}), NAMESPACE_NAME_LABEL: namespace}

    def _term_matches(self, term: _Term, owner_namespace: str, namespace: str, labels: LabelMap) -> bool:
        """Whether a pod in ``namespace`` with ``labels`` is selected by ``term`` of a pod in ``owner_namespace``."""
        if term.selector is None:
            return False
        t = term.term
        if t.namespace_selector is None and not t.namespaces:
            in_scope = namespace == owner_namespace
        else:
            in_scope = namespace in t.namespaces or (
                t.namespace_selector is not None and t.namespace_selector.matches(self._namespace_labels(namespace))
            )
        return in_scope and term.selector.matches(labels)

    @staticmethod
    def _completed(terms: Sequence[AffinityTerm], labels: LabelMap) -> list[_Term]:
        return [_Term(t, with_label_keys(t.selector, labels, t.match_label_keys, t.mismatch_label_keys)) for t in terms]

    def _affinity(self, pod: Pod) -> Check:
        labels = pod.template.labels
        scheduling = pod.template.spec.scheduling
        affinity = self._completed(scheduling.affinity, labels)
        anti = self._completed(scheduling.anti_affinity, labels)
        node_labels = [e.node.labels for e in self.nodes]
        # existing pods whose anti-affinity selects this pod: (key, value) -> the first such workload
        repelled: dict[tuple[str, str], str] = {}
        for other in self.repelling:
            for term in other.anti_affinity:
                if not self._term_matches(term, other.namespace, pod.namespace, labels):
                    continue
                for node in other.nodes:
                    value = node_labels[node].get(term.term.topology_key)
                    if value is not None:
                        repelled.setdefault((term.term.topology_key, value), other.workload)
        # per anti-affinity term: topology value -> the first workload with a selected pod there
        avoided: list[dict[str, str]] = [{} for _ in anti]
        attracted: dict[tuple[str, str], int] = {}
        for other in self.groups.values():
            for i, term in enumerate(anti):
                if self._term_matches(term, pod.namespace, other.namespace, other.labels):
                    for node in other.nodes:
                        value = node_labels[node].get(term.term.topology_key)
                        if value is not None:
                            avoided[i].setdefault(value, other.workload)
            if affinity and all(self._term_matches(t, pod.namespace, other.namespace, other.labels) for t in affinity):
                for node, count in other.nodes.items():
                    for term in affinity:
                        value = node_labels[node].get(term.term.topology_key)
                        if value is not None:
                            key = (term.term.topology_key, value)
                            attracted[key] = attracted.get(key, 0) + count
        # the first pod of a group that selects itself may go anywhere its terms' topologies exist
        first_of_group = not attracted and all(
            self._term_matches(t, pod.namespace, pod.namespace, labels) for t in affinity
        )
        known = [e.origin is not None for e in self.nodes]

        def check(node: int) -> Exclusion | None:
            # (kube-scheduler checks the placed pods' anti-affinity first; the pod's own terms come
            # first here so that a workload repelling its own replicas is named "with" itself)
            on = node_labels[node]
            for i, term in enumerate(anti):
                found = on.get(term.term.topology_key)
                holder = avoided[i].get(found) if found is not None else None
                if holder is not None:
                    text = f"excluded by pod anti-affinity with {holder}"
                    return Exclusion("pod anti-affinity", text, text)
            for label in on.items() if repelled else ():
                workload = repelled.get(label)
                if workload is not None:
                    text = f"excluded by the pod anti-affinity of {workload}"
                    return Exclusion("pod anti-affinity", text, text)
            if not affinity:
                return None
            missing = [t.term.topology_key for t in affinity if t.term.topology_key not in on]
            if missing and known[node]:
                text = f"without label {missing[0]} (pod affinity topology key)"
                return Exclusion("pod affinity", text, text)
            if missing or first_of_group:
                return None
            if all(attracted.get((t.term.topology_key, on[t.term.topology_key]), 0) > 0 for t in affinity):
                return None
            text = "excluded by pod affinity: no pod it must run with in the node's topology domain"
            return Exclusion("pod affinity", text, text)

        return check

    # --- PodTopologySpread --------------------------------------------------------------------

    def _counted_nodes(self, pod: Pod, index: int, constraint: SpreadConstraint) -> list[int]:
        """Nodes whose pods count for the constraint: they carry every constraint's key and pass the
        pod's node affinity (``nodeAffinityPolicy: Honor``) and taints (``nodeTaintsPolicy: Honor``)."""
        key = (pod.template_index, index)
        cached = self._spread_nodes.get(key)
        if cached is not None:
            return cached
        spec = pod.template.spec
        keys = [c.topology_key for c in spec.scheduling.spread]
        out = []
        for i, entry in enumerate(self.nodes):
            node = entry.node
            if not all(k in node.labels for k in keys):
                continue
            if constraint.node_affinity_policy == "Honor" and eligibility.affinity_exclusion(node, spec) is not None:
                continue
            if constraint.node_taints_policy == "Honor" and eligibility.untolerated(node, pod.tolerations):
                continue
            out.append(i)
        self._spread_nodes[key] = out
        return out

    def _spread(self, pod: Pod) -> Check:
        labels = pod.template.labels
        prepared: list[tuple[SpreadConstraint, LabelSelector | None, dict[str, int], int, int]] = []
        for index, constraint in enumerate(pod.template.spec.scheduling.spread):
            selector = with_label_keys(constraint.selector, labels, constraint.match_label_keys)
            counted = self._counted_nodes(pod, index, constraint)
            key = constraint.topology_key
            counts: dict[str, int] = {self.nodes[i].node.labels[key]: 0 for i in counted}
            counted_set = set(counted)
            if selector is not None:
                for other in self.groups.values():
                    if other.namespace != pod.namespace or not selector.matches(other.labels):
                        continue
                    for node, count in other.nodes.items():
                        if node in counted_set:
                            counts[self.nodes[node].node.labels[key]] += count
            minimum = min(counts.values(), default=0)
            if constraint.min_domains is not None and len(counts) < constraint.min_domains:
                minimum = 0
            own = 1 if selector is not None and selector.matches(labels) else 0
            prepared.append((constraint, selector, counts, minimum, own))

        def check(node: int) -> Exclusion | None:
            entry = self.nodes[node]
            for constraint, _, counts, minimum, own in prepared:
                value = entry.node.labels.get(constraint.topology_key)
                if value is None:
                    if entry.origin is None:
                        continue
                    text = f"without label {constraint.topology_key} (topology spread constraint)"
                    return Exclusion("topology spread", text, text)
                skew = counts.get(value, 0) + own - minimum
                if skew > constraint.max_skew:
                    text = (
                        f"excluded by topology spread on {constraint.topology_key} "
                        f"(maxSkew {constraint.max_skew} exceeded)"
                    )
                    return Exclusion("topology spread", text, text)
            return None

        return check
