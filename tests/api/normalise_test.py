"""Normalisation of DRA objects (dralint/api/normalise.py)."""

from __future__ import annotations

from dralint.api import model
from dralint.api.normalise import normalise
from dralint.api.objects import identify
from dralint.read.yamldoc import decode

TEXT = """\
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata: {name: classic}
---
apiVersion: v1
kind: Pod
metadata: {name: not-dra}
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourcePoolStatusRequest
metadata: {name: status}
spec: {driver: gpu.example.com}
---
apiVersion: resource.k8s.io/v1beta2
kind: DeviceClass
metadata: {name: gpu.example.com}
"""


def test_normalise_only_current_dra_versions_with_a_typed_model_where_one_exists() -> None:
    documents, _ = decode("n.yaml", TEXT)
    classic, pod, status, device_class = identify(documents).objects
    assert normalise(classic) is None
    assert normalise(pod) is None
    status_n = normalise(status)
    assert status_n is not None and status_n.typed is None
    assert status_n.data["spec"] == {"driver": "gpu.example.com", "limit": 100}
    class_n = normalise(device_class)
    assert class_n is not None
    assert class_n.obj is device_class
    assert class_n.typed == model.DeviceClass(meta=model.ObjectMeta(name="gpu.example.com"))
    assert class_n.paths.rules == ()
