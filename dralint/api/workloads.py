"""Pod templates inside workloads: where each pod spec sits, its namespace, and how many pods it makes.

Known kinds (Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob,
ReplicationController, PodTemplate, LeaderWorkerSet) are read from their documented fields.
Any other object is searched for embedded pod templates (a mapping whose ``spec`` has
``containers``), so JobSets, Kubeflow jobs, RayClusters and the like work without being
listed; their pod count is the product of the counts met on the way down: ``replicas``, and
for Job-shaped mappings the pods running at once (``parallelism``, capped by ``completions``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from dralint.api import meta, read
from dralint.api.objects import KubeObject
from dralint.api.scheduling import PodScheduling, pod_scheduling
from dralint.apimachinery.fieldpath import Path, value_at


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


def _leader_worker_set(raw: Any) -> list[tuple[Path, int]]:
    """LeaderWorkerSet: ``replicas`` groups of ``size`` pods, one of them the leader.

    Without a ``leaderTemplate`` every pod of a group (the leader too) uses ``workerTemplate``.
    """
    groups = _count(value_at(raw, ("spec", "replicas")))
    size = _count(value_at(raw, ("spec", "leaderWorkerTemplate", "size")))
    base: Path = ("spec", "leaderWorkerTemplate")
    if isinstance(value_at(raw, (*base, "leaderTemplate")), Mapping):
        return [((*base, "leaderTemplate"), groups), ((*base, "workerTemplate"), groups * max(size - 1, 0))]
    return [((*base, "workerTemplate"), groups * size)]


# kind -> (path of the pod template mapping, replica function of the object's raw data)
_KNOWN: dict[str, tuple[Path, Any]] = {
    "Deployment": (("spec", "template"), lambda raw: _count(value_at(raw, ("spec", "replicas")))),
    "ReplicaSet": (("spec", "template"), lambda raw: _count(value_at(raw, ("spec", "replicas")))),
    "StatefulSet": (("spec", "template"), lambda raw: _count(value_at(raw, ("spec", "replicas")))),
    "ReplicationController": (("spec", "template"), lambda raw: _count(value_at(raw, ("spec", "replicas")))),
    "DaemonSet": (("spec", "template"), lambda raw: None),
    "Job": (("spec", "template"), lambda raw: _job_pods(value_at(raw, ("spec",)))),
    "CronJob": (
        ("spec", "jobTemplate", "spec", "template"),
        lambda raw: _job_pods(value_at(raw, ("spec", "jobTemplate", "spec"))),
    ),
    "PodTemplate": (("template",), lambda raw: 0),
}
_CORE_WORKLOAD_GROUPS = {"", "apps", "batch", "extensions"}


def pod_templates(obj: KubeObject) -> list[PodTemplate]:
    """Every pod template of ``obj`` (a Pod is its own template)."""
    if obj.is_dra:
        return []
    raw = obj.raw
    namespace = obj.namespace or "default"
    name = obj.name or obj.kind.lower()
    if obj.kind == "Pod" and obj.group == "":
        return [_template(obj, ("spec",), raw, namespace, name, 1)]
    if obj.kind == "LeaderWorkerSet" and obj.group == "leaderworkerset.x-k8s.io":
        return [
            _template(obj, (*path, "spec"), template, namespace, name, replicas)
            for path, replicas in _leader_worker_set(raw)
            if isinstance(template := value_at(raw, path), Mapping)
        ]
    known = _KNOWN.get(obj.kind) if obj.group in _CORE_WORKLOAD_GROUPS else None
    if known is not None:
        template_path, replicas = known
        template = value_at(raw, template_path)
        if not isinstance(template, Mapping):
            return []
        return [_template(obj, (*template_path, "spec"), template, namespace, name, replicas(raw))]
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
    owner: KubeObject, spec_path: Path, template: Mapping[str, Any], namespace: str, name: str, replicas: int | None
) -> PodTemplate:
    metadata = meta.object_meta(template.get("metadata"))
    return PodTemplate(
        owner=owner,
        path=spec_path,
        namespace=namespace,
        name=name,
        replicas=replicas,
        spec=pod_spec(template.get("spec")),
        labels=metadata.labels,
        annotations=metadata.annotations,
    )


def pod_spec(data: Any) -> PodSpec:
    if not isinstance(data, Mapping):
        return PodSpec()
    claims = tuple(
        PodClaim(
            name=read.text(item, "name"),
            resource_claim_name=read.opt_text(item, "resourceClaimName"),
            resource_claim_template_name=read.opt_text(item, "resourceClaimTemplateName"),
        )
        for item in read.items(data, "resourceClaims")
    )
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
    )
