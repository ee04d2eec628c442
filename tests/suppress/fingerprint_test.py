"""The subject of a finding: what of its message identifies it, without counts and details."""

from __future__ import annotations

import pytest

from dralint.suppress.fingerprint import identity, subject


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "all 3 replicas of Deployment serving/embeddings share ResourceClaim serving/embeddings-gpu: they get the same devices",
            "all N replicas of Deployment serving/embeddings share ResourceClaim serving/embeddings-gpu: they get the same devices",
        ),
        (
            "1 of 5 pods of Deployment ml/trainer get no devices: earlier pods hold them (demand for class gpu.example.com: "
            "Deployment ml/trainer 5 pods × 1 = 5, Deployment ml/server 1 pod × 1 = 1 (total 6); matching devices = 4)",
            "N of N pods of Deployment ml/trainer get no devices: earlier pods hold them",
        ),
        # Numbers that are part of a name stay: they tell two findings on one field apart.
        (
            "device device-2 consumes counter counter3 which counter set counter-set does not declare",
            "device device-N consumes counter counter3 which counter set counter-set does not declare",
        ),
        ("model A100-SXM4-80GB has 80Gi", "model A100-SXM4-80GB has 80Gi"),
        ("duplicate key at line 12 (first at line 3)", "duplicate key at line N"),
        ("unbalanced ) stays (dropped", "unbalanced ) stays"),
    ],
)
def test_subject_drops_counts_and_details(message: str, expected: str) -> None:
    assert subject(message) == expected


def test_identity_ignores_the_counts_but_not_the_object_or_path() -> None:
    one = identity("DRA600", "apps.yaml", "Deployment/ml/a", "spec.replicas", "all 2 replicas of Deployment ml/a share")
    assert one == identity(
        "DRA600", "apps.yaml", "Deployment/ml/a", "spec.replicas", "all 3 replicas of Deployment ml/a share"
    )
    windows = identity(
        "DRA600", "apps\\a.yaml", "Deployment/ml/a", "spec.replicas", "all 2 replicas of Deployment ml/a share"
    )
    assert windows == identity(
        "DRA600", "apps/a.yaml", "Deployment/ml/a", "spec.replicas", "all 2 replicas of Deployment ml/a share"
    )
    assert one != identity(
        "DRA600", "apps.yaml", "Deployment/ml/b", "spec.replicas", "all 2 replicas of Deployment ml/a share"
    )
    assert one != identity(
        "DRA600", "apps.yaml", "Deployment/ml/a", "spec.template", "all 2 replicas of Deployment ml/a share"
    )
    assert one != identity(
        "DRA601", "apps.yaml", "Deployment/ml/a", "spec.replicas", "all 2 replicas of Deployment ml/a share"
    )
