"""Kubernetes objects found in documents: what they are (group, version, kind) and where they are.

``identify`` turns decoded documents into :class:`KubeObject` values, expanding ``List`` and
``*List`` wrappers (``kubectl get -o yaml``) into their items. A document that is not a
Kubernetes object (a Helm ``Chart.yaml``, a values file) is counted, not reported; one that is
half an object (``kind`` without ``apiVersion``, or ``apiVersion`` and ``metadata`` without
``kind``) is reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from typing import Any

from dralint.api.ref import ObjectRef
from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.read.yamldoc import Document

# Kinds of resource.k8s.io (current and legacy) and whether they are namespaced.
DRA_KINDS: dict[str, bool] = {
    "DeviceClass": False,
    "ResourceClaim": True,
    "ResourceClaimTemplate": True,
    "ResourceSlice": False,
    "DeviceTaintRule": False,
    "ResourcePoolStatusRequest": False,
    "PodSchedulingContext": True,
    # classic DRA (v1alpha1/v1alpha2), removed in 1.31
    "ResourceClass": False,
    "ResourceClaimParameters": True,
    "ResourceClassParameters": True,
    "PodScheduling": True,
}

# Cluster-scoped kinds outside resource.k8s.io (built-in kinds, and dralint's own Inventory);
# every other kind is taken to be namespaced.
CLUSTER_SCOPED_KINDS = frozenset({
    "APIService", "CSIDriver", "CSINode", "CertificateSigningRequest", "ClusterRole",
    "ClusterRoleBinding", "ComponentStatus", "CustomResourceDefinition", "FlowSchema",
    "IngressClass", "Inventory", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration", "Namespace", "Node", "PersistentVolume",
    "PriorityClass", "PriorityLevelConfiguration", "RuntimeClass", "StorageClass",
    "StorageVersionMigration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration", "VolumeAttachment", "VolumeAttributesClass",
})  # fmt: skip


@dataclass(frozen=True, slots=True, eq=False)
class KubeObject:
    """One Kubernetes object: its type, its raw content, and where it sits in which document.

    Compared and hashed by identity: two identical documents are still two objects.
    """

    document: Document
    prefix: Path  # the object's path inside the document: () or ("items", 3)
    api_version: str
    kind: str
    raw: Mapping[str, Any] = field(repr=False)

    @property
    def group(self) -> str:
        return self.api_version.rpartition("/")[0] if "/" in self.api_version else ""

    @property
    def version(self) -> str:
        return self.api_version.rpartition("/")[2]

    @property
    def metadata(self) -> Mapping[str, Any]:
        meta = self.raw.get("metadata")
        return meta if meta.__class__ is dict or isinstance(meta, Mapping) else {}

    @property
    def name(self) -> str | None:
        name = self.metadata.get("name")
        if isinstance(name, str):
            return name
        generate = self.metadata.get("generateName")
        return generate if isinstance(generate, str) else None

    @property
    def namespaced(self) -> bool:
        if self.group == "resource.k8s.io":
            return DRA_KINDS.get(self.kind, True)
        return self.kind not in CLUSTER_SCOPED_KINDS

    @property
    def namespace(self) -> str | None:
        """The namespace as written, ``"default"`` when a namespaced object names none."""
        if not self.namespaced:
            return None
        namespace = self.metadata.get("namespace")
        return namespace if isinstance(namespace, str) and namespace else "default"

    @property
    def is_dra(self) -> bool:
        return self.group == "resource.k8s.io"

    @property
    def file(self) -> str:
        return self.document.file

    def ref(self) -> ObjectRef:
        return ObjectRef(self.api_version, self.kind, self.namespace, self.name)

    def position(self, path: Path) -> tuple[int, int]:
        """1-based (line, column) of ``path`` (relative to the object) in the source file."""
        return self.document.position(self.prefix + path)

    def plain_scalar(self, path: Path) -> str | None:
        """The plain scalar at ``path`` (relative to the object) as the file spells it."""
        return self.document.plain_scalar(self.prefix + path)


@dataclass(frozen=True, slots=True)
class Unidentified:
    """A document (or list item) that looks like a Kubernetes object but lacks apiVersion or kind."""

    document: Document
    prefix: Path
    # "apiVersion" or "kind"; "object" for a List item (or ``items``) that is not a mapping at all
    missing: str
    value: Any = None  # what the field holds when it is there but not a non-empty string


@dataclass(slots=True)
class Identified:
    objects: list[KubeObject] = field(default_factory=list)
    broken: list[Unidentified] = field(default_factory=list)
    other_documents: int = 0  # documents that are not Kubernetes objects at all
    # Documents that are a bare YAML list of objects: kubectl rejects them, dralint still checks the items.
    list_documents: list[Document] = field(default_factory=list)


def identify(documents: Iterable[Document]) -> Identified:
    """Every Kubernetes object in ``documents``, in document order, with ``List`` items expanded.

    A document that is a bare YAML list of objects is remembered (kubectl rejects it) and its
    items are identified like a ``List``'s, so they are still checked.
    """
    result = Identified()
    for document in documents:
        data = document.data
        items: list[tuple[Path, Any]]
        if isinstance(data, list) and any(_looks_like_object(item) for item in data):
            result.list_documents.append(document)
            items = [((index,), item) for index, item in enumerate(data) if _looks_like_object(item)]
        elif _looks_like_object(data):
            items = [((), data)]
        else:
            result.other_documents += 1
            continue
        for prefix, item_data in items:
            for found in _expand(document, prefix, item_data, None):
                if isinstance(found, KubeObject):
                    result.objects.append(found)
                else:
                    result.broken.append(found)
    return result


def _looks_like_object(data: Any) -> bool:
    """A mapping with ``kind``, or with ``apiVersion`` and ``metadata``/``spec`` (``Chart.yaml`` has neither)."""
    if not isinstance(data, dict):
        return False
    return "kind" in data or ("apiVersion" in data and ("metadata" in data or "spec" in data))


def _expand(
    document: Document, prefix: Path, data: dict[str, Any], list_kind: tuple[str, str] | None
) -> Iterator[KubeObject | Unidentified]:
    api_version = data.get("apiVersion")
    kind = data.get("kind")
    if list_kind is not None:
        # kubectl prints typed lists with complete items, but hand-made lists may omit them.
        api_version = api_version if "apiVersion" in data else list_kind[0] or None
        kind = kind if "kind" in data else list_kind[1] or None
    if not isinstance(api_version, str) or not api_version:
        yield Unidentified(document, prefix, "apiVersion", api_version)
        return
    if not isinstance(kind, str) or not kind:
        yield Unidentified(document, prefix, "kind", kind)
        return
    if kind.endswith("List") and "items" in data:
        items = data["items"]
        item_kind = kind[: -len("List")]
        inner = (api_version, item_kind) if item_kind else ("", "")
        if items is not None and not isinstance(items, list):
            # kubectl cannot decode the List at all; a silent skip would hide every object in it.
            yield Unidentified(document, (*prefix, "items"), "object", items)
            return
        for index, item in enumerate(items or ()):
            if isinstance(item, dict):
                yield from _expand(document, (*prefix, "items", index), item, inner)
            else:
                yield Unidentified(document, (*prefix, "items", index), "object", item)
        return
    yield KubeObject(document, prefix, api_version, kind, data)
