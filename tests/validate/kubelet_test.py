"""A kubelet against the target's API server (``dralint/validate/kubelet.py``).

Expected values: the resource.k8s.io version kubernetes/kubernetes' pkg/kubelet/cm/dra/manager.go
reads claims through in each release (v1alpha3 in 1.31, v1beta1 in 1.32-1.33, v1 from 1.34), what
each release serves by default (spec/api.md §1.1: beta and alpha versions off), and the
version-skew policy (a kubelet up to three minor releases older than the API server, never newer).
"""

from __future__ import annotations

import pytest

from dralint.api.versions import make_target
from dralint.validate.kubelet import claims_api, kubelet_release, problem


@pytest.mark.parametrize(
    ("version", "release"),
    [("v1.33.4", "1.33"), ("1.34.0", "1.34"), ("v1.31.12-eks-2d98532", "1.31"), ("v1.35.0+k3s1", "1.35"), ("x", None)],
)
def test_kubelet_release_reads_the_minor_release(version: str, release: str | None) -> None:
    assert kubelet_release(version) == release


@pytest.mark.parametrize(
    ("release", "api"),
    [("1.30", None), ("1.31", "v1alpha3"), ("1.32", "v1beta1"), ("1.33", "v1beta1"), ("1.34", "v1"), ("1.37", "v1")],
)
def test_claims_api_is_the_version_the_kubelet_release_reads(release: str, api: str | None) -> None:
    assert claims_api(release) == api


@pytest.mark.parametrize(
    ("version", "target", "blocks", "skew"),
    [
        ("v1.34.2", "1.34", None, None),  # fine
        ("v1.33.4", "1.34", True, False),  # v1beta1 is off by default in 1.34
        ("v1.33.4", "1.33", None, None),  # a 1.33 cluster enables the version its kubelets read, or DRA is off
        ("v1.31.0", "1.34", True, False),  # 1.34 dropped v1alpha3 of the claim kinds
        ("v1.34.0", "1.37", None, None),  # three minors older: allowed, and v1 is served
        ("v1.36.1", "1.35", False, True),  # newer than the API server
        ("v1.30.5", "1.34", True, True),  # before structured DRA, and four minors older
    ],
)
def test_problem_tells_blocked_claims_and_skew(
    version: str, target: str, blocks: bool | None, skew: bool | None
) -> None:
    found = problem(version, make_target(target))
    if blocks is None:
        assert found is None
        return
    assert found is not None and found.blocks_claims is blocks
    assert ("version-skew policy" in found.message) is skew
