"""Recognising Kubernetes objects in documents (dralint/api/objects.py)."""

from __future__ import annotations

from dralint.api.objects import Identified, KubeObject, identify
from dralint.findings import ObjectRef
from dralint.read.yamldoc import decode
from tests.conftest import FIXTURES

OBJECTS = FIXTURES / "objects"


def identify_fixture(name: str) -> Identified:
    documents, issues = decode(name, (OBJECTS / name).read_text(encoding="utf-8"))
    assert issues == []
    return identify(documents)


def summary(obj: KubeObject) -> tuple[str, str, str | None, tuple[object, ...], tuple[int, int]]:
    return (obj.api_version, obj.kind, obj.name, obj.prefix, obj.position(()))


def test_identify_expands_kubectl_lists_with_item_positions() -> None:
    found = identify_fixture("kubectl-list.yaml")
    assert [summary(o) for o in found.objects] == [
        ("resource.k8s.io/v1", "ResourceSlice", "node-a-gpu.example.com-x7k2p", ("items", 0), (3, 3)),
        ("v1", "Node", "node-a", ("items", 1), (15, 3)),
    ]
    slice_ = found.objects[0]
    assert slice_.position(("spec", "devices", 0, "name")) == (14, 7)
    assert slice_.raw["spec"]["driver"] == "gpu.example.com"
    assert found.broken == []
    assert found.other_documents == 0


def test_identify_fills_item_kind_from_typed_lists_and_recurses() -> None:
    found = identify_fixture("typed-list.yaml")
    assert [summary(o) for o in found.objects] == [
        ("resource.k8s.io/v1", "DeviceClass", "gpu.example.com", ("items", 0), (5, 3)),
        ("resource.k8s.io/v1", "DeviceClass", "nic.example.com", ("items", 1), (8, 3)),
        ("v1", "Namespace", "nested", ("items", 3, "items", 0), (15, 5)),
    ]
    # an item that is not an object is reported, and an item of a plain List must name its own
    # apiVersion and kind
    assert [(b.document.index, b.prefix, b.missing, b.value) for b in found.broken] == [
        (0, ("items", 2), "object", "not an object"),
        (2, ("items", 0), "apiVersion", None),
    ]


def test_identify_counts_documents_that_are_not_kubernetes_objects() -> None:
    found = identify_fixture("not-kubernetes.yaml")
    assert found.objects == []
    assert found.broken == []
    assert found.other_documents == 4


def test_identify_reports_half_objects() -> None:
    found = identify_fixture("incomplete.yaml")
    assert found.objects == []
    assert [(b.document.index, b.missing, b.value) for b in found.broken] == [
        (0, "apiVersion", None),
        (1, "kind", None),
        (2, "apiVersion", 1),
        (3, "kind", ""),
    ]


def test_objects_know_their_scope_and_namespace() -> None:
    found = identify_fixture("scopes.yaml")
    assert [o.ref() for o in found.objects] == [
        ObjectRef("resource.k8s.io/v1", "ResourceClaim", "default", "no-namespace"),
        ObjectRef("resource.k8s.io/v1", "ResourceClaimTemplate", "ml", "in-ml"),
        ObjectRef("resource.k8s.io/v1", "DeviceClass", None, "gpu.example.com"),
        ObjectRef("v1", "Node", None, "node-a"),
        ObjectRef("nvidia.com/v1beta1", "ComputeDomain", "default", "domain-"),
    ]
    claim = found.objects[0]
    assert (claim.group, claim.version, claim.is_dra, claim.file) == ("resource.k8s.io", "v1", True, "scopes.yaml")
    node = found.objects[3]
    assert (node.group, node.version, node.is_dra, node.namespaced) == ("", "v1", False, False)


def test_objects_compare_by_identity() -> None:
    documents, _ = decode("twice.yaml", "apiVersion: v1\nkind: Namespace\n---\napiVersion: v1\nkind: Namespace\n")
    first, second = identify(documents).objects
    assert first != second
    assert len({first, second}) == 2
    assert first.raw == second.raw


def test_identify_checks_items_of_a_bare_list_document() -> None:
    found = identify_fixture("bare-list.yaml")
    assert [summary(o) for o in found.objects] == [
        ("resource.k8s.io/v1", "DeviceClass", "gpu.example.com", (0,), (1, 3)),
        ("resource.k8s.io/v1", "DeviceClass", "nic.example.com", (1,), (5, 3)),
    ]
    assert [d.index for d in found.list_documents] == [0]
    assert [(b.document.index, b.missing) for b in found.broken] == [(1, "apiVersion")]
