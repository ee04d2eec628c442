"""The table of kinds that make pods and claims: where a kind's pod template sits and how many pods it
makes, and which kinds create ResourceClaimTemplates or ResourceClaims (an operator's custom resource).

The built-in entries below have the shape users write under ``producers:`` in ``.dralint.yaml``
(see the README and the ``producers`` definitions of ``schemas/config.schema.json``); both are
read by :func:`table`, and user entries come first so that they can replace a built-in one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from dralint.apimachinery.fieldpath import Path, parse, value_at
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.api.objects import KubeObject

PER_NODE = "perNode"
ClaimKind = Literal["ResourceClaim", "ResourceClaimTemplate"]

_WORKLOAD_GROUPS = ["", "apps", "batch", "extensions"]
_REPLICAS = {"field": "spec.replicas"}
_LWS = "leaderworkerset.x-k8s.io"
_LWS_BASE = "spec.leaderWorkerTemplate"

# The built-in table, in the configuration's shape.
BUILTIN: dict[str, list[dict[str, Any]]] = {
    "pods": [
        {"apiGroups": [""], "kind": "Pod", "template": "", "replicas": 1},
        *(
            {"apiGroups": _WORKLOAD_GROUPS, "kind": kind, "template": "spec.template", "replicas": _REPLICAS}
            for kind in ("Deployment", "ReplicaSet", "StatefulSet", "ReplicationController")
        ),
        {"apiGroups": _WORKLOAD_GROUPS, "kind": "DaemonSet", "template": "spec.template", "replicas": PER_NODE},
        {
            "apiGroups": _WORKLOAD_GROUPS,
            "kind": "Job",
            "template": "spec.template",
            "replicas": {"field": "spec.parallelism", "atMost": "spec.completions"},
        },
        {
            "apiGroups": _WORKLOAD_GROUPS,
            "kind": "CronJob",
            "template": "spec.jobTemplate.spec.template",
            "replicas": {"field": "spec.jobTemplate.spec.parallelism", "atMost": "spec.jobTemplate.spec.completions"},
        },
        {"apiGroups": _WORKLOAD_GROUPS, "kind": "PodTemplate", "template": "template", "replicas": 0},
        # replicas groups of size pods; with a leaderTemplate one pod of each group is the leader
        {
            "apiGroups": [_LWS],
            "kind": "LeaderWorkerSet",
            "template": f"{_LWS_BASE}.leaderTemplate",
            "replicas": _REPLICAS,
        },
        {
            "apiGroups": [_LWS],
            "kind": "LeaderWorkerSet",
            "template": f"{_LWS_BASE}.workerTemplate",
            "when": f"{_LWS_BASE}.leaderTemplate",
            "replicas": [_REPLICAS, {"field": f"{_LWS_BASE}.size", "minus": 1}],
        },
        {
            "apiGroups": [_LWS],
            "kind": "LeaderWorkerSet",
            "template": f"{_LWS_BASE}.workerTemplate",
            "unless": f"{_LWS_BASE}.leaderTemplate",
            "replicas": [_REPLICAS, {"field": f"{_LWS_BASE}.size"}],
        },
        # KubeVirt: the virt-launcher pod of a VM gets its spec.resourceClaims, node selection and tolerations
        {"apiGroups": ["kubevirt.io"], "kind": "VirtualMachineInstance", "template": "", "replicas": 1},
        {"apiGroups": ["kubevirt.io"], "kind": "VirtualMachine", "template": "spec.template", "replicas": 1},
    ],
    "claims": [
        # NVIDIA's ComputeDomain controller creates the IMEX channel template the domain names
        {
            "apiGroups": ["resource.nvidia.com"],
            "kind": "ComputeDomain",
            "creates": "ResourceClaimTemplate",
            "name": "spec.channel.resourceClaimTemplate.name",
        },
    ],
}


@dataclass(frozen=True, slots=True)
class Factor:
    """One factor of a pod count: an integer field (``default`` when unset), at most ``at_most``, minus ``minus``."""

    field: Path
    default: int = 1
    minus: int = 0
    at_most: Path | None = None

    def of(self, raw: Any) -> int:
        value = _count(value_at(raw, self.field), self.default)
        if self.at_most is not None:
            cap = value_at(raw, self.at_most)
            if _is_count(cap) and cap < value:
                value = cap
        return max(value - self.minus, 0)


@dataclass(frozen=True, slots=True)
class PodProducer:
    """A kind whose objects make pods from a template (a mapping with ``metadata`` and a pod-shaped ``spec``)."""

    groups: frozenset[str]
    kind: str
    template: Path  # () for the object itself
    replicas: int | tuple[Factor, ...] | None  # None: one pod per node that admits it (DaemonSet)
    when: Path | None = None  # applies only when this path holds a mapping
    unless: Path | None = None  # applies only when it does not
    claims: Path | None = None  # where the pod's resourceClaims are written, when not at spec.resourceClaims

    def applies(self, raw: Any) -> bool:
        if self.when is not None and not isinstance(value_at(raw, self.when), Mapping):
            return False
        return self.unless is None or not isinstance(value_at(raw, self.unless), Mapping)

    def pods(self, raw: Any) -> int | None:
        if self.replicas is None or isinstance(self.replicas, int):
            return self.replicas
        total = 1
        for factor in self.replicas:
            total *= factor.of(raw)
        return total


@dataclass(frozen=True, slots=True)
class ClaimProducer:
    """A kind whose objects make a ResourceClaimTemplate or ResourceClaim, named by a field, in their namespace."""

    groups: frozenset[str]
    kind: str
    creates: ClaimKind
    name: Path


@dataclass(frozen=True, slots=True)
class Producers:
    pods: tuple[PodProducer, ...] = ()
    claims: tuple[ClaimProducer, ...] = ()

    def pod_producers(self, group: str, kind: str) -> list[PodProducer]:
        """The entries for ``kind`` of ``group``: those of the first source (user or built-in) that has any."""
        found = [p for p in self.pods if p.kind == kind and group in p.groups]
        return [p for p in found if p.groups == found[0].groups] if found else []

    def created(self, group: str, kind: str, raw: Any) -> list[tuple[ClaimKind, str, Path]]:
        """(kind, name, field path of the name) of every claim or template an object creates."""
        out = []
        for producer in self.claims:
            if producer.kind == kind and group in producer.groups:
                name = value_at(raw, producer.name)
                if isinstance(name, str) and name:
                    out.append((producer.creates, name, producer.name))
        return out


# (kind, namespace, name) of a claim or template -> the object that creates it and the field naming it
Created = dict[tuple[str, str, str], tuple["KubeObject", Path]]


def created(objects: Iterable[KubeObject], producers: Producers) -> Created:
    """What the claim producers among ``objects`` create (the first creator of a name is kept)."""
    out: Created = {}
    if not producers.claims:
        return out
    kinds = {p.kind for p in producers.claims}
    for obj in objects:
        if obj.kind not in kinds:
            continue
        for kind, name, path in producers.created(obj.group, obj.kind, obj.raw):
            out.setdefault((kind, obj.namespace or "default", name), (obj, path))
    return out


def _count(value: Any, default: int = 1) -> int:
    return value if _is_count(value) else default


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _path(text: Any) -> Path:
    return parse(text) if isinstance(text, str) and text else ()


def _opt_path(text: Any) -> Path | None:
    return _path(text) if isinstance(text, str) and text else None


def _factor(data: Mapping[str, Any]) -> Factor:
    return Factor(_path(data["field"]), data.get("default", 1), data.get("minus", 0), _opt_path(data.get("atMost")))


def _replicas(data: Any) -> int | tuple[Factor, ...] | None:
    if data == PER_NODE:
        return None
    if isinstance(data, int):
        return data
    items = data if isinstance(data, list) else [data]
    return tuple(_factor(item) for item in items)


def table(user: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> Producers:
    """The producers of the configuration (already validated against its schema), then the built-in ones."""
    sources: list[Mapping[str, Sequence[Mapping[str, Any]]]] = [user or {}, BUILTIN]
    pods = [_pod(entry) for source in sources for entry in source.get("pods", ())]
    claims = [
        ClaimProducer(frozenset(entry["apiGroups"]), entry["kind"], entry["creates"], _path(entry["name"]))
        for source in sources
        for entry in source.get("claims", ())
    ]
    return Producers(tuple(pods), tuple(claims))


def _pod(entry: Mapping[str, Any]) -> PodProducer:
    return PodProducer(
        groups=frozenset(entry["apiGroups"]),
        kind=entry["kind"],
        template=_path(entry.get("template", "")),
        replicas=_replicas(entry.get("replicas", 1)),
        when=_opt_path(entry.get("when")),
        unless=_opt_path(entry.get("unless")),
        claims=_opt_path(entry.get("resourceClaims")),
    )


DEFAULT = table()
