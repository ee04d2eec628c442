"""Workloads become pods, and each pod's claims are resolved the way the control plane would.

Replicas come from :mod:`dralint.api.workloads`; a DaemonSet makes one pod per node that admits
it. Per pod: a ResourceClaimTemplate is instantiated into a fresh claim named
``<pod>-<entry>``; a named ResourceClaim is the *same* claim for every pod that references it
(allocated once, consumers counted); extended resources backed by a DeviceClass get the one
synthetic claim the scheduler creates (spec/allocator.md §10.4). Order is document order, then
replica order, so the dry-run is deterministic.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from dralint.api import model
from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.api.workloads import PodClaim, PodTemplate, Toleration
from dralint.apimachinery.fieldpath import Path
from dralint.apimachinery.quantity import QuantityError, parse_quantity
from dralint.cluster.inventory import ClassEntry, NodeEntry
from dralint.dryrun import eligibility

ClaimKind = Literal["template", "claim", "extended"]
IMPLICIT_EXTENDED_PREFIX = "deviceclass.resource.kubernetes.io/"
EXTENDED_CLAIM_ANNOTATION = "resource.kubernetes.io/extended-resource-claim"
MAX_PODS = 100_000  # replicas beyond this are not simulated (the pods list would be the problem)


@dataclass(frozen=True, slots=True)
class ClaimUse:
    """One claim a pod needs: which entry of the pod asks for it and what it resolved to."""

    entry: PodClaim
    entry_index: int  # in spec.resourceClaims; -1 for the extended-resource claim
    kind: ClaimKind
    claim: model.ResourceClaim | None  # None when the named object does not exist
    source: KubeObject | None  # the ResourceClaim / ResourceClaimTemplate written by the user
    missing: str | None = None  # "ResourceClaimTemplate ml/gpu-template" when absent
    # for the extended-resource claim: request name -> (container path in the pod spec, resource name)
    extended: tuple[tuple[str, Path, str], ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        """Identity of the claim in the cluster: (namespace, name)."""
        assert self.claim is not None
        return (self.claim.namespace, self.claim.name)

    @property
    def shared(self) -> bool:
        return self.kind == "claim"


@dataclass(frozen=True, slots=True)
class Pod:
    template: PodTemplate
    template_index: int  # position of the template among all templates (document order)
    ordinal: int  # replica number
    name: str
    namespace: str
    claims: tuple[ClaimUse, ...]
    tolerations: tuple[Toleration, ...]
    node_name: str | None  # a node the pod is bound to (spec.nodeName, or a DaemonSet's node)

    @property
    def workload(self) -> str:
        owner = self.template.owner
        return (
            f"{owner.kind} {self.namespace}/{owner.name}"
            if owner.kind != "Pod"
            else f"Pod {self.namespace}/{self.name}"
        )

    @property
    def subject(self) -> str:
        """``"pod ml/notebook"`` for a bare Pod, ``"pods of Deployment ml/trainer"`` otherwise."""
        return f"pod {self.display}" if self.template.owner.kind == "Pod" else f"pods of {self.workload}"

    @property
    def display(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True)
class ClaimIndex:
    """ResourceClaims and ResourceClaimTemplates by (namespace, name); the first definition wins."""

    claims: Mapping[tuple[str, str], tuple[model.ResourceClaim, KubeObject]]
    templates: Mapping[tuple[str, str], tuple[model.ResourceClaimTemplate, KubeObject]]


def claim_index(normalised: Iterable[Normalised]) -> ClaimIndex:
    claims: dict[tuple[str, str], tuple[model.ResourceClaim, KubeObject]] = {}
    templates: dict[tuple[str, str], tuple[model.ResourceClaimTemplate, KubeObject]] = {}
    for item in normalised:
        typed = item.typed
        namespace = item.obj.namespace or "default"
        if isinstance(typed, model.ResourceClaim):
            claims.setdefault((namespace, typed.name), (with_namespace(typed, namespace), item.obj))
        elif isinstance(typed, model.ResourceClaimTemplate):
            templates.setdefault((namespace, typed.name), (typed, item.obj))
    return ClaimIndex(claims, templates)


def with_namespace(claim: model.ResourceClaim, namespace: str) -> model.ResourceClaim:
    """The claim as the API server stores it: in ``namespace`` when its manifest names none."""
    if claim.meta.namespace:
        return claim
    return dataclasses.replace(claim, meta=dataclasses.replace(claim.meta, namespace=namespace))


def extended_resource_classes(classes: Mapping[str, ClassEntry]) -> dict[str, str]:
    """Extended resource name → DeviceClass name (explicit names first; clashes go to the lower class name).

    The scheduler prefers the newest class on a clash; manifests carry no creation time, so the
    tie-break rule (lower name) is used for all clashes.
    """
    out: dict[str, str] = {}
    for name in sorted(classes):
        explicit = classes[name].device_class.extended_resource_name
        if explicit:
            out.setdefault(explicit, name)
    for name in sorted(classes):
        out.setdefault(IMPLICIT_EXTENDED_PREFIX + name, name)
    return out


def expand(
    templates: Sequence[PodTemplate],
    index: ClaimIndex,
    nodes: Sequence[NodeEntry],
    extended: Mapping[str, str],
    *,
    max_pods: int = MAX_PODS,
) -> list[Pod]:
    """Every pod of every template, in document order then replica order.

    Pods without claims are made too: they take node resources and count for other pods'
    affinity and topology spread. At most ``max_pods`` pods are made, whatever the replica
    counts say.
    """
    pods: list[Pod] = []
    per_owner: dict[KubeObject, int] = {}
    for template in templates:
        per_owner[template.owner] = per_owner.get(template.owner, 0) + 1
    seen_in_owner: dict[KubeObject, int] = {}
    for t, template in enumerate(templates):
        k = seen_in_owner.get(template.owner, 0)
        seen_in_owner[template.owner] = k + 1
        base = template.name if per_owner[template.owner] == 1 else f"{template.name}-{k}"
        tolerations = template.spec.tolerations
        if template.per_node:
            tolerations = (*tolerations, *eligibility.DAEMONSET_TOLERATIONS)
        for ordinal, name, node_name in _names(template, base, nodes, tolerations, max_pods - len(pods)):
            claims = _claims(template, name, index, extended)
            pods.append(Pod(template, t, ordinal, name, template.namespace, claims, tolerations, node_name))
        if len(pods) >= max_pods:
            break
    return pods


def _names(
    template: PodTemplate, base: str, nodes: Sequence[NodeEntry], tolerations: Sequence[Toleration], limit: int
) -> Iterator[tuple[int, str, str | None]]:
    """(ordinal, pod name, node the pod is bound to) for each pod of ``template``, at most ``limit``."""
    if template.per_node:
        targets = [n.node.name for n in nodes if eligibility.exclusion(n.node, template.spec, tolerations) is None]
        for i, node in enumerate(targets[:limit]):
            yield i, f"{base}-{node}", node
    elif template.owner.kind == "Pod":
        if limit > 0:
            yield 0, base, template.spec.node_name
    else:
        for i in range(min(template.replicas or 0, limit)):
            yield i, f"{base}-{i}", template.spec.node_name


def _claims(
    template: PodTemplate, pod_name: str, index: ClaimIndex, extended: Mapping[str, str]
) -> tuple[ClaimUse, ...]:
    namespace = template.namespace
    uses: list[ClaimUse] = []
    for i, entry in enumerate(template.spec.resource_claims):
        if entry.resource_claim_name is not None:
            found = index.claims.get((namespace, entry.resource_claim_name))
            if found is None:
                missing = f"ResourceClaim {namespace}/{entry.resource_claim_name}"
                uses.append(ClaimUse(entry, i, "claim", None, None, missing))
            else:
                uses.append(ClaimUse(entry, i, "claim", found[0], found[1]))
        elif entry.resource_claim_template_name is not None:
            found_template = index.templates.get((namespace, entry.resource_claim_template_name))
            if found_template is None:
                missing = f"ResourceClaimTemplate {namespace}/{entry.resource_claim_template_name}"
                uses.append(ClaimUse(entry, i, "template", None, None, missing))
                continue
            source, obj = found_template
            meta = model.ObjectMeta(
                name=f"{pod_name}-{entry.name}",
                namespace=namespace,
                labels=source.claim_meta.labels,
                annotations=source.claim_meta.annotations,
            )
            uses.append(ClaimUse(entry, i, "template", model.ResourceClaim(meta, source.spec), obj))
    extended_use = _extended_claim(template, pod_name, extended)
    if extended_use is not None:
        uses.append(extended_use)
    return tuple(uses)


def _extended_claim(template: PodTemplate, pod_name: str, extended: Mapping[str, str]) -> ClaimUse | None:
    if not extended:
        return None
    requests: list[model.DeviceRequest] = []
    mapping: list[tuple[str, Path, str]] = []
    for i, container in enumerate(template.spec.containers):
        j = 0
        resources = {**container.limits, **container.requests}
        for resource in sorted(resources):
            class_name = extended.get(resource)
            if class_name is None:
                continue
            count = _count(resources[resource])
            if count <= 0:
                continue
            request_name = f"container-{i}-request-{j}"
            j += 1
            requests.append(
                model.DeviceRequest(
                    request_name, model.ExactDeviceRequest(class_name, allocation_mode="ExactCount", count=count)
                )
            )
            path = (*template.path, container.kind, container.index, "resources", "requests", resource)
            mapping.append((request_name, path, resource))
    if not requests:
        return None
    meta = model.ObjectMeta(
        name=f"{pod_name}-extended-resources",
        namespace=template.namespace,
        annotations={EXTENDED_CLAIM_ANNOTATION: "true"},
    )
    claim = model.ResourceClaim(meta, model.ResourceClaimSpec(tuple(requests)))
    entry = PodClaim(name="extended-resources")
    return ClaimUse(entry, -1, "extended", claim, template.owner, extended=tuple(mapping))


def _count(text: str) -> int:
    try:
        return parse_quantity(text).ceil_int()
    except QuantityError:
        return 0
