"""The pod fields kube-scheduler's inter-pod filters read: label selectors, pod (anti-)affinity terms and
topology spread constraints, typed from a pod spec.

Only what filtering reads is kept: the required (``requiredDuringScheduling...``) terms and the
``DoNotSchedule`` spread constraints; preferred terms and ``ScheduleAnyway`` only score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from dralint.api import read
from dralint.dataclass import dataclass

LabelMap = Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Requirement:
    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist
    values: tuple[str, ...] = ()

    def matches(self, labels: LabelMap) -> bool:
        if self.operator == "In":
            return self.key in labels and labels[self.key] in self.values
        if self.operator == "NotIn":
            return self.key not in labels or labels[self.key] not in self.values
        if self.operator == "Exists":
            return self.key in labels
        if self.operator == "DoesNotExist":
            return self.key not in labels
        return False  # an unknown operator is rejected by the API server; it selects nothing here


@dataclass(frozen=True, slots=True)
class LabelSelector:
    """A metav1.LabelSelector; ``None`` where one is used means "nothing", an empty one "everything"."""

    requirements: tuple[Requirement, ...] = ()

    def matches(self, labels: LabelMap) -> bool:
        return all(r.matches(labels) for r in self.requirements)


def label_selector(data: Any) -> LabelSelector | None:
    if not isinstance(data, Mapping):
        return None
    requirements = [Requirement(k, "In", (v,)) for k, v in sorted(read.scalars(data, "matchLabels").items())]
    requirements.extend(
        Requirement(read.text(r, "key"), read.text(r, "operator"), read.strings(r, "values"))
        for r in read.items(data, "matchExpressions")
    )
    return LabelSelector(tuple(requirements))


def with_label_keys(
    selector: LabelSelector | None, labels: LabelMap, match: tuple[str, ...], mismatch: tuple[str, ...] = ()
) -> LabelSelector | None:
    """``matchLabelKeys`` / ``mismatchLabelKeys``: the pod's own values of those keys join the selector
    (keys the pod does not carry are ignored, as the API server does when it merges them)."""
    if selector is None or not (match or mismatch):
        return selector
    extra = [Requirement(k, "In", (labels[k],)) for k in match if k in labels]
    extra.extend(Requirement(k, "NotIn", (labels[k],)) for k in mismatch if k in labels)
    return LabelSelector((*selector.requirements, *extra))


@dataclass(frozen=True, slots=True)
class AffinityTerm:
    """A required PodAffinityTerm."""

    selector: LabelSelector | None  # None selects no pod
    topology_key: str
    namespaces: tuple[str, ...] = ()
    namespace_selector: LabelSelector | None = None  # None: only ``namespaces`` (or the pod's own)
    match_label_keys: tuple[str, ...] = ()
    mismatch_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SpreadConstraint:
    """A topologySpreadConstraint with ``whenUnsatisfiable: DoNotSchedule``."""

    max_skew: int
    topology_key: str
    selector: LabelSelector | None
    min_domains: int | None = None
    node_affinity_policy: str = "Honor"  # Honor, Ignore
    node_taints_policy: str = "Ignore"
    match_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PodScheduling:
    """The inter-pod scheduling fields of one pod spec."""

    affinity: tuple[AffinityTerm, ...] = ()
    anti_affinity: tuple[AffinityTerm, ...] = ()
    spread: tuple[SpreadConstraint, ...] = ()
    overhead: Mapping[str, str] = field(default_factory=dict)

    @property
    def inter_pod(self) -> bool:
        """Whether any inter-pod filter applies to the pod."""
        return bool(self.affinity or self.anti_affinity or self.spread)


def _terms(affinity: Any, kind: str) -> tuple[AffinityTerm, ...]:
    block = read.mapping(affinity, kind)
    return tuple(
        AffinityTerm(
            selector=label_selector(read.mapping(term, "labelSelector")),
            topology_key=read.text(term, "topologyKey"),
            namespaces=read.strings(term, "namespaces"),
            namespace_selector=label_selector(read.mapping(term, "namespaceSelector")),
            match_label_keys=read.strings(term, "matchLabelKeys"),
            mismatch_label_keys=read.strings(term, "mismatchLabelKeys"),
        )
        for term in read.items(block, "requiredDuringSchedulingIgnoredDuringExecution")
    )


def pod_scheduling(spec: Any) -> PodScheduling:
    affinity = read.mapping(spec, "affinity")
    spread = []
    for item in read.items(spec, "topologySpreadConstraints"):
        if read.text(item, "whenUnsatisfiable") != "DoNotSchedule":
            continue  # ScheduleAnyway only scores
        spread.append(
            SpreadConstraint(
                max_skew=read.integer(item, "maxSkew") or 1,
                topology_key=read.text(item, "topologyKey"),
                selector=label_selector(read.mapping(item, "labelSelector")),
                min_domains=read.opt_integer(item, "minDomains"),
                node_affinity_policy=read.text(item, "nodeAffinityPolicy") or "Honor",
                node_taints_policy=read.text(item, "nodeTaintsPolicy") or "Ignore",
                match_label_keys=read.strings(item, "matchLabelKeys"),
            )
        )
    return PodScheduling(
        affinity=_terms(affinity, "podAffinity"),
        anti_affinity=_terms(affinity, "podAntiAffinity"),
        spread=tuple(spread),
        overhead=read.scalars(spec, "overhead"),
    )
