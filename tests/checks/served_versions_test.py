"""DRA200: resource.k8s.io versions the target release does not serve (dralint/checks/served_versions.py)."""

from __future__ import annotations

import pytest

from dralint.api.versions import make_target
from dralint.checks.served_versions import check
from dralint.context import CheckContext
from dralint.load import load
from tests.conftest import FIXTURES

VERSIONS = str(FIXTURES / "served" / "versions.yaml")

EXPECTED = {
    "1.31": [
        ("v1-claim", "Kubernetes 1.31 does not serve resource.k8s.io/v1 ResourceClaim (served in 1.34-1.37)", "use resource.k8s.io/v1alpha3"),
        ("v1beta1-class", "Kubernetes 1.31 does not serve resource.k8s.io/v1beta1 DeviceClass (served in 1.32-1.37)", "use resource.k8s.io/v1alpha3"),
        ("v1beta2-taint-rule", "Kubernetes 1.31 does not serve resource.k8s.io/v1beta2 DeviceTaintRule (served in 1.36-1.37)", "DeviceTaintRule needs Kubernetes 1.33 or newer"),
        ("classic", "resource.k8s.io/v1alpha2 ResourceClaimParameters is classic DRA, removed in Kubernetes 1.31; Kubernetes 1.31 does not serve it",
         "rewrite it for structured parameters (resource.k8s.io/v1 ResourceClaim and DeviceClass)"),
        ("never-released", "resource.k8s.io/v1alpha4 ResourceClaim is not an API any Kubernetes release serves", "use resource.k8s.io/v1alpha3"),
        ("made-up-kind", "resource.k8s.io/v1 ResourceSlicePatch is not an API any Kubernetes release serves", None),
    ],
    "1.37": [
        ("v1alpha3-slice", "Kubernetes 1.37 does not serve resource.k8s.io/v1alpha3 ResourceSlice (served in 1.31-1.33)", "use resource.k8s.io/v1"),
        ("classic", "resource.k8s.io/v1alpha2 ResourceClaimParameters is classic DRA, removed in Kubernetes 1.31; Kubernetes 1.37 does not serve it",
         "rewrite it for structured parameters (resource.k8s.io/v1 ResourceClaim and DeviceClass)"),
        ("never-released", "resource.k8s.io/v1alpha4 ResourceClaim is not an API any Kubernetes release serves", "use resource.k8s.io/v1"),
        ("made-up-kind", "resource.k8s.io/v1 ResourceSlicePatch is not an API any Kubernetes release serves", None),
    ],
}  # fmt: skip


@pytest.mark.parametrize("release", sorted(EXPECTED))
def test_served_versions_reports_versions_the_release_does_not_serve(release: str) -> None:
    ctx = CheckContext(load([VERSIONS]), make_target(release))
    violations = list(check(ctx))
    assert [(v.obj.name if v.obj else None, v.message, v.hint) for v in violations] == EXPECTED[release]
    assert {(v.rule, v.path) for v in violations} == {("DRA200", ("apiVersion",))}
