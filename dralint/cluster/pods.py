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
from typing import Literal

from dralint.api import model
from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.api.podgroups import PodGroup
from dralint.api.producers import Created
from dralint.api.workloads import PodClaim, PodTemplate, Toleration
from dralint.apimachinery.fieldpath import Path
from dralint.apimachinery.quantity import QuantityError, parse_quantity
from dralint.cluster.groups import Gang, Grouping
from dralint.cluster.inventory import ClassEntry, NodeEntry
from dralint.dataclass import dataclass
from dralint.dryrun import eligibility

# "group": the claim of a PodGroup, shared by its pods (KEP-5729): named, or made once from a template
ClaimKind = Literal["template", "claim", "group", "extended", "produced"]
IMPLICIT_EXTENDED_PREFIX = "deviceclass.resource.kubernetes.io/"
EXTENDED_CLAIM_ANNOTATION = "resource.kubernetes.io/extended-resource-claim"
POD_CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/pod-claim-name"
MAX_PODS = 100_000  # replicas beyond this are not simulated (the pods list would be the problem)


@dataclass(frozen=True, slots=True)
class ClaimUse:
    """One claim a pod needs: which entry of the pod asks for it and what it resolved to."""

    entry: PodClaim
    entry_index: int  # in spec.resourceClaims; -1 for the extended-resource claim
    kind: ClaimKind
    claim: model.ResourceClaim | None  # None when the named object does not exist, or is "produced"
    # the ResourceClaim / ResourceClaimTemplate written by the user; for "produced", the object whose
    # controller creates it (its content is unknown, so the dry-run does not allocate it)
    source: KubeObject | None
    missing: str | None = None  # "ResourceClaimTemplate ml/gpu-template does not exist" when absent
    # for the extended-resource claim: request name -> (container path in the pod spec, resource name)
    extended: tuple[tuple[str, Path, str], ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        """Identity of the claim in the cluster: (namespace, name)."""
        assert self.claim is not None
        return (self.claim.namespace, self.claim.name)

    @property
    def shared(self) -> bool:
        return self.kind in ("claim", "group")

    @property
    def allocatable(self) -> bool:
        """Whether the dry-run allocates the claim (not when a controller creates it from unknown content)."""
        return self.kind != "produced"


@dataclass(frozen=True, slots=True)
class QuotaRefusal:
    """ResourceQuota admission refuses the pod, or a claim it needs: the pod is not created, or waits."""

    reason: str  # "pod ml/x-3 is not created: exceeded quota: ..."
    entry: int | None = None  # the pod's resourceClaims entry whose claim is refused (-1: extended resources)


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
    rejected: str | None = None  # why the API server refuses the pod's workload (it is never created)
    quota: QuotaRefusal | None = None  # why quota admission leaves it pending
    gang: Gang | None = None  # the gang it is placed with, all or nothing

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
    """ResourceClaims and ResourceClaimTemplates by (namespace, name); the first definition wins.

    ``rejected`` says, by (kind, namespace, name), why an object the inputs define is not in the
    cluster (the API server rejects it), so a pod naming it is explained by reference.
    """

    claims: Mapping[tuple[str, str], tuple[model.ResourceClaim, KubeObject]]
    templates: Mapping[tuple[str, str], tuple[model.ResourceClaimTemplate, KubeObject]]
    rejected: Mapping[tuple[str, str, str], str] = dataclasses.field(default_factory=dict)
    # (namespace, pod name) -> the claims the control plane made for that pod from its templates (or that
    # record it in status.reservedFor), each with the pod's resourceClaims entry it is for (None: unknown)
    owned: Mapping[tuple[str, str], tuple[tuple[str | None, model.ResourceClaim, KubeObject], ...]] = dataclasses.field(
        default_factory=dict
    )
    produced: Created = dataclasses.field(default_factory=dict)  # created by other objects' controllers

    def absent(self, kind: str, namespace: str, name: str) -> str:
        """Why the pod cannot have the claim or template: it is not defined, or it is rejected."""
        return self.rejected.get((kind, namespace, name)) or f"{kind} {namespace}/{name} does not exist"


def claim_index(
    normalised: Iterable[Normalised],
    rejected: Mapping[tuple[str, str, str], str] | None = None,
    produced: Created | None = None,
) -> ClaimIndex:
    claims: dict[tuple[str, str], tuple[model.ResourceClaim, KubeObject]] = {}
    templates: dict[tuple[str, str], tuple[model.ResourceClaimTemplate, KubeObject]] = {}
    owned: dict[tuple[str, str], list[tuple[str | None, model.ResourceClaim, KubeObject]]] = {}
    for item in normalised:
        typed = item.typed
        namespace = item.obj.namespace or "default"
        if isinstance(typed, model.ResourceClaim):
            claim = with_namespace(typed, namespace)
            claims.setdefault((namespace, typed.name), (claim, item.obj))
            for pod, entry in _pods_owning(item.data, claim.allocation is not None):
                owned.setdefault((namespace, pod), []).append((entry, claim, item.obj))
        elif isinstance(typed, model.ResourceClaimTemplate):
            templates.setdefault((namespace, typed.name), (typed, item.obj))
    owned_claims = {key: tuple(value) for key, value in owned.items()}
    return ClaimIndex(claims, templates, rejected or {}, owned_claims, produced or {})


def _pods_owning(data: Mapping[str, object], allocated: bool) -> list[tuple[str, str | None]]:
    """(pod name, resourceClaims entry) for the pods a ResourceClaim belongs to.

    The resource claim controller names the entry in the ``pod-claim-name`` annotation and the pod
    in a controller owner reference; an allocated claim also names its consumers in
    ``status.reservedFor``.
    """
    metadata = data.get("metadata")
    meta = metadata if isinstance(metadata, Mapping) else {}
    annotations = meta.get("annotations")
    entry = annotations.get(POD_CLAIM_NAME_ANNOTATION) if isinstance(annotations, Mapping) else None
    entry = entry if isinstance(entry, str) and entry else None
    pods: list[str] = []
    references = meta.get("ownerReferences")
    for ref in references if isinstance(references, list) else ():
        if isinstance(ref, Mapping) and ref.get("kind") == "Pod" and ref.get("apiVersion") == "v1":
            name = ref.get("name")
            if isinstance(name, str) and name and entry is not None:
                pods.append(name)
    status = data.get("status")
    reserved = status.get("reservedFor") if allocated and isinstance(status, Mapping) else None
    for consumer in reserved if isinstance(reserved, list) else ():
        if isinstance(consumer, Mapping) and consumer.get("resource") == "pods" and consumer.get("apiGroup", "") == "":
            name = consumer.get("name")
            if isinstance(name, str) and name and name not in pods:
                pods.append(name)
    return [(pod, entry) for pod in pods]


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
    rejected: Mapping[KubeObject, str] | None = None,
    grouping: Grouping | None = None,
) -> list[Pod]:
    """Every pod of every template, in document order then replica order.

    Pods without claims are made too: they take node resources and count for other pods'
    affinity and topology spread. At most ``max_pods`` pods are made, whatever the replica
    counts say. ``grouping`` says which pods form gangs and share their PodGroup's claims.
    """
    pods: list[Pod] = []
    for t, template, base in _bases(templates):
        tolerations = template.spec.tolerations
        if template.per_node:
            tolerations = (*tolerations, *eligibility.DAEMONSET_TOLERATIONS)
        real = _real_pods(template, index)
        refused = rejected.get(template.owner) if rejected else None
        group = grouping.group_of(template) if grouping is not None and grouping.claims else None
        gang = grouping.gang_of(template) if grouping is not None else None
        for ordinal, name, node_name in _names(template, base, nodes, tolerations, max_pods - len(pods)):
            claims = _claims(template, name, index, extended, real.get(ordinal), group)
            pod = Pod(template, t, ordinal, name, template.namespace, claims, tolerations, node_name, refused)
            pods.append(dataclasses.replace(pod, gang=gang) if gang is not None else pod)
        if len(pods) >= max_pods:
            break
    return pods


def daemon_pods(
    templates: Sequence[PodTemplate], index: ClaimIndex, nodes: Sequence[NodeEntry], extended: Mapping[str, str]
) -> list[Pod]:
    """The DaemonSet pods (of per-node templates) that ``nodes`` admit: those a new node starts with."""
    pods: list[Pod] = []
    for t, template, base in _bases(templates):
        if not template.per_node:
            continue
        tolerations = (*template.spec.tolerations, *eligibility.DAEMONSET_TOLERATIONS)
        for ordinal, name, node_name in _names(template, base, nodes, tolerations, MAX_PODS):
            claims = _claims(template, name, index, extended)
            pods.append(Pod(template, t, ordinal, name, template.namespace, claims, tolerations, node_name))
    return pods


def _bases(templates: Sequence[PodTemplate]) -> Iterator[tuple[int, PodTemplate, str]]:
    """(template index, template, base of its pods' names): the template's name, numbered when its
    owner has several templates."""
    per_owner: dict[KubeObject, int] = {}
    for template in templates:
        per_owner[template.owner] = per_owner.get(template.owner, 0) + 1
    seen_in_owner: dict[KubeObject, int] = {}
    for t, template in enumerate(templates):
        k = seen_in_owner.get(template.owner, 0)
        seen_in_owner[template.owner] = k + 1
        yield t, template, template.name if per_owner[template.owner] == 1 else f"{template.name}-{k}"


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


def _real_pods(template: PodTemplate, index: ClaimIndex) -> dict[int, str]:
    """Replica ordinal -> the name of a pod of this workload that claims in the inputs were made for.

    A bare Pod is itself; a StatefulSet's pods are ``<name>-<ordinal>``; the pods of other
    workloads carry generated suffixes, so they are matched by the ``<name>-`` prefix and taken
    in name order. DaemonSet pods are bound to nodes the names do not tell, and are not matched.
    """
    if not index.owned or template.per_node:
        return {}
    owner = template.owner
    names = sorted(pod for namespace, pod in index.owned if namespace == template.namespace)
    if owner.kind == "Pod":
        return {0: template.name} if template.name in names else {}
    prefix = f"{owner.name}-"
    ours = [name for name in names if name.startswith(prefix)]
    if owner.kind == "StatefulSet":
        return {int(name[len(prefix) :]): name for name in ours if name[len(prefix) :].isdigit()}
    return dict(enumerate(ours))


def _owned(
    index: ClaimIndex, namespace: str, pod: str | None, entry: str
) -> tuple[model.ResourceClaim, KubeObject] | None:
    """The claim the control plane made for (or reserved for) ``pod``'s entry ``entry``, if the inputs have it."""
    if pod is None:
        return None
    for name, claim, obj in index.owned.get((namespace, pod), ()):
        if name == entry or (name is None and claim.name.startswith(f"{pod}-{entry}")):
            return claim, obj
    return None


def _claims(
    template: PodTemplate,
    pod_name: str,
    index: ClaimIndex,
    extended: Mapping[str, str],
    real_pod: str | None = None,
    group: PodGroup | None = None,
) -> tuple[ClaimUse, ...]:
    """The pod's claims; an entry equal to one of its PodGroup's claims is the group's (KEP-5729)."""
    namespace = template.namespace
    uses: list[ClaimUse] = []
    for i, entry in enumerate(template.spec.resource_claims):
        shared = group is not None and entry in group.claims
        if entry.resource_claim_name is not None:
            found = index.claims.get((namespace, entry.resource_claim_name))
            creator = index.produced.get(("ResourceClaim", namespace, entry.resource_claim_name))
            if found is None and creator is not None:
                uses.append(ClaimUse(entry, i, "produced", None, creator[0]))
            elif found is None:
                missing = index.absent("ResourceClaim", namespace, entry.resource_claim_name)
                uses.append(ClaimUse(entry, i, "claim", None, None, missing))
            else:
                uses.append(ClaimUse(entry, i, "group" if shared else "claim", found[0], found[1]))
        elif entry.resource_claim_template_name is not None:
            # the group's claim is made once, for the PodGroup; the pod's own, per pod
            owner = group.name if shared and group is not None else pod_name
            generated = None if shared else _owned(index, namespace, real_pod, entry.name)
            if generated is not None:  # the pod's own claim, made from the template earlier
                uses.append(ClaimUse(entry, i, "template", generated[0], generated[1]))
                continue
            found_template = index.templates.get((namespace, entry.resource_claim_template_name))
            creator = index.produced.get(("ResourceClaimTemplate", namespace, entry.resource_claim_template_name))
            if found_template is None and creator is not None:
                uses.append(ClaimUse(entry, i, "produced", None, creator[0]))
                continue
            if found_template is None:
                missing = index.absent("ResourceClaimTemplate", namespace, entry.resource_claim_template_name)
                uses.append(ClaimUse(entry, i, "template", None, None, missing))
                continue
            source, obj = found_template
            meta = model.ObjectMeta(
                name=f"{owner}-{entry.name}",
                namespace=namespace,
                labels=source.claim_meta.labels,
                annotations=source.claim_meta.annotations,
            )
            kind: ClaimKind = "group" if shared else "template"
            uses.append(ClaimUse(entry, i, kind, model.ResourceClaim(meta, source.spec), obj))
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
            where = "requests" if resource in container.requests else "limits"  # (a limit alone is the request)
            path = (*template.path, container.kind, container.index, "resources", where, resource)
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
