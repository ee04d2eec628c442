"""Pod templates inside workloads: where each pod spec sits, its namespace, and how many pods it makes.

Kinds of the producer table (:mod:`dralint.api.producers`: the workload kinds, LeaderWorkerSet,
KubeVirt VMs, and the user's own entries) are read from the fields the table names. Any other
object is searched for embedded pod templates (a mapping whose ``spec`` has ``containers``), so
JobSets, Kubeflow jobs, RayClusters and the like work without being listed; their pod count is
the product of the counts met on the way down: ``replicas``, and for Job-shaped mappings the
pods running at once (``parallelism``, capped by ``completions``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import field
from typing import Any

from dralint.api import meta, read
from dralint.api.objects import KubeObject
from dralint.api.producers import DEFAULT, Producers
from dralint.api.scheduling import PodScheduling, pod_scheduling
from dralint.apimachinery.fieldpath import Path, value_at
from dralint.dataclass import dataclass


@dataclass(frozen=True, slots=True)
class PodClaim:
    """An entry of ``spec.resourceClaims``."""

    name: str
    resource_claim_name: str | None = None
    resource_claim_template_name: str | None = None


@dataclass(frozen=True, slots=True)
class ContainerClaim:
    """An entry of a container's ``resources.claims``."""

    name: str
    request: str | None = None


@dataclass(frozen=True, slots=True)
class Container:
    name: str
    kind: str  # "containers", "initContainers" or "ephemeralContainers"
    index: int
    claims: tuple[ContainerClaim, ...] = ()
    requests: Mapping[str, str] = field(default_factory=dict)  # resources.requests, raw strings
    limits: Mapping[str, str] = field(default_factory=dict)
    restart_policy: str = ""  # "Always" makes an init container a sidecar


@dataclass(frozen=True, slots=True)
class Toleration:
    key: str = ""
    operator: str = "Equal"
    value: str = ""
    effect: str = ""


@dataclass(frozen=True, slots=True)
class PodSpec:
    resource_claims: tuple[PodClaim, ...] = ()
    containers: tuple[Container, ...] = ()
    node_name: str | None = None
    node_selector: Mapping[str, str] = field(default_factory=dict)
    required_affinity: meta.NodeSelector | None = None
    tolerations: tuple[Toleration, ...] = ()
    scheduling: PodScheduling = field(default_factory=PodScheduling)
    scheduling_group: str | None = None  # spec.schedulingGroup.podGroupName (1.36+)
    workload_ref: tuple[str, str, str] | None = None  # spec.workloadRef: name, podGroup, podGroupReplicaKey (1.35)


@dataclass(frozen=True, slots=True)
class PodTemplate:
    """A pod spec inside an object, and the pods it stands for."""

    owner: KubeObject
    path: Path  # path of the pod spec inside the owner, e.g. ("spec", "template", "spec")
    namespace: str
    name: str  # base name for the pods
    replicas: int | None  # pods made from it; None for DaemonSets (one per eligible node)
    spec: PodSpec
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    claims_at: Path | None = None  # where the pod's resourceClaims are written, when not in the spec

    def claim_path(self, index: int) -> Path:
        """The path of entry ``index`` of the pod's ``resourceClaims`` in the owner."""
        return (*(self.claims_at or (*self.path, "resourceClaims")), index)

    @property
    def metadata_path(self) -> Path:
        """Path of the template's metadata (the pod's own metadata for a Pod)."""
        return ("metadata",) if self.path == ("spec",) else (*self.path[:-1], "metadata")

    @property
    def per_node(self) -> bool:
        return self.replicas is None


def _count(value: Any, default: int = 1) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default


def _job_pods(job_spec: Any) -> int:
    """Pods of a Job running at once: ``parallelism`` (default 1), at most ``completions``."""
    parallelism = _count(value_at(job_spec, ("parallelism",)))
    completions = value_at(job_spec, ("completions",))
    if isinstance(completions, int) and not isinstance(completions, bool) and 0 <= completions < parallelism:
        return completions
    return parallelism


def pod_templates(obj: KubeObject, producers: Producers = DEFAULT) -> list[PodTemplate]:
    """Every pod template of ``obj`` (a Pod is its own template), as the producer table locates them."""
    if obj.is_dra:
        return []
    raw = obj.raw
    namespace = obj.namespace or "default"
    name = obj.name or obj.kind.lower()
    entries = producers.pod_producers(obj.group, obj.kind)
    if entries:
        out = []
        for entry in entries:
            template = value_at(raw, entry.template) if entry.template else raw
            if entry.applies(raw) and isinstance(template, Mapping):
                spec_path = (*entry.template, "spec")
                out.append(_template(obj, spec_path, template, namespace, name, entry.pods(raw), entry.claims))
        return out
    return [
        _template(obj, (*path, "spec"), template, namespace, name, replicas)
        for path, template, replicas in _find_templates(raw, (), 1)
    ]


def _find_templates(data: Any, path: Path, replicas: int) -> Iterator[tuple[Path, Mapping[str, Any], int]]:
    if isinstance(data, Mapping):
        if path and isinstance(value_at(data, ("spec", "containers")), list):
            yield path, data, replicas
            return
        own = replicas * _count(data.get("replicas"))
        if "parallelism" in data or "completions" in data:
            own *= _job_pods(data)
        for key, value in data.items():
            yield from _find_templates(value, (*path, key), own)
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from _find_templates(item, (*path, index), replicas)


def _template(
    owner: KubeObject,
    spec_path: Path,
    template: Mapping[str, Any],
    namespace: str,
    name: str,
    replicas: int | None,
    claims_at: Path | None = None,
) -> PodTemplate:
    metadata = meta.object_meta(template.get("metadata"))
    spec = pod_spec(template.get("spec"))
    if claims_at is not None:  # a producer that writes the pod's claims elsewhere in the object
        spec = dataclasses.replace(spec, resource_claims=pod_claims(value_at(owner.raw, claims_at)))
    return PodTemplate(
        owner=owner,
        path=spec_path,
        namespace=namespace,
        name=name,
        replicas=replicas,
        spec=spec,
        labels=metadata.labels,
        annotations=metadata.annotations,
        claims_at=claims_at,
    )


def pod_claims(items: Any) -> tuple[PodClaim, ...]:
    """The entries of a ``resourceClaims`` list."""
    return tuple(
        PodClaim(
            name=read.text(item, "name"),
            resource_claim_name=read.opt_text(item, "resourceClaimName"),
            resource_claim_template_name=read.opt_text(item, "resourceClaimTemplateName"),
        )
        for item in (items if isinstance(items, list) else ())
    )


def pod_spec(data: Any) -> PodSpec:
    if not isinstance(data, Mapping):
        return PodSpec()
    claims = pod_claims(data.get("resourceClaims"))
    containers = []
    for kind in ("initContainers", "containers", "ephemeralContainers"):
        for index, item in enumerate(read.items(data, kind)):
            resources = value_at(item, ("resources",))
            containers.append(
                Container(
                    name=read.text(item, "name"),
                    kind=kind,
                    index=index,
                    claims=tuple(
                        ContainerClaim(read.text(c, "name"), read.opt_text(c, "request"))
                        for c in read.items(resources, "claims")
                    ),
                    requests=read.scalars(resources, "requests"),
                    limits=read.scalars(resources, "limits"),
                    restart_policy=read.text(item, "restartPolicy"),
                )
            )
    affinity = value_at(data, ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"))
    return PodSpec(
        resource_claims=claims,
        containers=tuple(containers),
        node_name=read.opt_text(data, "nodeName"),
        node_selector=read.scalars(data, "nodeSelector"),
        required_affinity=meta.node_selector(affinity),
        tolerations=tuple(
            Toleration(
                read.text(t, "key"), read.text(t, "operator") or "Equal", read.text(t, "value"), read.text(t, "effect")
            )
            for t in read.items(data, "tolerations")
        ),
        scheduling=pod_scheduling(data),
        scheduling_group=read.opt_text(read.mapping(data, "schedulingGroup"), "podGroupName"),
        workload_ref=_workload_ref(read.mapping(data, "workloadRef")),
    )


def _workload_ref(ref: Mapping[str, Any] | None) -> tuple[str, str, str] | None:
    if ref is None:
        return None
    return (read.text(ref, "name"), read.text(ref, "podGroup"), read.text(ref, "podGroupReplicaKey"))
