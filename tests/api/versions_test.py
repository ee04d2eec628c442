"""Releases, served versions and feature gates (dralint/api/versions.py)."""

from __future__ import annotations

import pytest

from dralint.api.versions import (
    DEFAULT_RELEASE,
    GATES,
    RELEASES,
    SERVED,
    make_target,
    normalise_release,
    parse_feature_gates,
)
from dralint.errors import UsageError


def test_releases_and_default() -> None:
    assert RELEASES == ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
    assert DEFAULT_RELEASE == "1.37"


@pytest.mark.parametrize(
    ("text", "release"), [("1.34", "1.34"), ("v1.34", "1.34"), ("1.34.2", "1.34"), (" 1.31 ", "1.31")]
)
def test_normalise_release_accepts_common_spellings(text: str, release: str) -> None:
    assert normalise_release(text) == release


@pytest.mark.parametrize("text", ["1.30", "1.38", "2.0", "latest", ""])
def test_normalise_release_rejects_unsupported_versions_listing_the_supported_ones(text: str) -> None:
    with pytest.raises(UsageError) as error:
        normalise_release(text)
    assert (
        str(error.value)
        == f"unsupported Kubernetes version {text!r}; supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37"
    )


@pytest.mark.parametrize(
    ("kind", "version", "releases"),
    [
        ("ResourceClaim", "v1alpha3", ("1.31", "1.32", "1.33")),
        ("ResourceClaim", "v1beta1", ("1.32", "1.33", "1.34", "1.35", "1.36", "1.37")),
        ("ResourceClaim", "v1beta2", ("1.33", "1.34", "1.35", "1.36", "1.37")),
        ("ResourceClaim", "v1", ("1.34", "1.35", "1.36", "1.37")),
        ("DeviceTaintRule", "v1alpha3", ("1.33", "1.34", "1.35", "1.36", "1.37")),
        ("DeviceTaintRule", "v1beta2", ("1.36", "1.37")),
        ("DeviceTaintRule", "v1", ("1.37",)),
        ("ResourcePoolStatusRequest", "v1alpha3", ("1.36", "1.37")),
        ("PodSchedulingContext", "v1alpha3", ("1.31",)),
    ],
)
def test_served_versions_follow_the_release_matrix(kind: str, version: str, releases: tuple[str, ...]) -> None:
    assert SERVED[(kind, version)] == releases


def test_parse_feature_gates_reads_go_booleans() -> None:
    assert parse_feature_gates("DRAAdminAccess=true, DRADeviceTaints=False,A=1,B=0,C=t,D=F") == {
        "DRAAdminAccess": True,
        "DRADeviceTaints": False,
        "A": True,
        "B": False,
        "C": True,
        "D": False,
    }
    assert parse_feature_gates("") == {}


@pytest.mark.parametrize("text", ["DRAAdminAccess", "DRAAdminAccess=yes", "=true"])
def test_parse_feature_gates_rejects_malformed_items(text: str) -> None:
    with pytest.raises(UsageError, match="expected Name=true or Name=false"):
        parse_feature_gates(text)


def test_make_target_uses_release_defaults() -> None:
    target = make_target("1.34")
    assert target.release == "1.34"
    assert target.enabled("DRAAdminAccess")  # beta, on by default in 1.34
    assert not target.enabled("DRAPartitionableDevices")  # alpha
    assert not target.enabled("DRADerivedAttributes")  # does not exist yet
    assert set(target.gates) == {name for name, per_release in GATES.items() if "1.34" in per_release}
    assert target.at_least("1.33") and not target.at_least("1.35")


def test_make_target_applies_all_alpha_then_explicit_gates() -> None:
    target = make_target("1.35", {"AllAlpha": True, "DRAConsumableCapacity": False})
    assert target.enabled("DRAPartitionableDevices")
    assert target.enabled("DRADeviceTaints")
    assert not target.enabled("DRAConsumableCapacity")
    assert target.overrides == {"AllAlpha": True, "DRAConsumableCapacity": False}


def test_make_target_all_beta_leaves_locked_gates_alone() -> None:
    target = make_target("1.36", {"AllBeta": False})
    assert not target.enabled("DRAConsumableCapacity")  # beta: switched off
    assert target.enabled("DRAAdminAccess")  # GA and locked in 1.36


def test_make_target_ignores_gates_it_does_not_model() -> None:
    target = make_target("1.37", {"InPlacePodVerticalScaling": True})
    assert "InPlacePodVerticalScaling" not in target.gates
    assert target.overrides == {"InPlacePodVerticalScaling": True}


def test_make_target_rejects_locked_gates() -> None:
    with pytest.raises(UsageError) as error:
        make_target("1.36", {"DRAAdminAccess": False})
    assert str(error.value) == "feature gate DRAAdminAccess is locked to true in Kubernetes 1.36"


def test_make_target_rejects_gates_of_other_releases() -> None:
    with pytest.raises(UsageError) as error:
        make_target("1.33", {"DRAConsumableCapacity": True})
    assert (
        str(error.value)
        == "feature gate DRAConsumableCapacity does not exist in Kubernetes 1.33; it exists in Kubernetes 1.34-1.37"
    )


def test_make_target_suggests_the_gate_meant() -> None:
    with pytest.raises(UsageError) as error:
        make_target("1.37", {"DRAConsumableCapacty": True})
    assert (
        str(error.value)
        == "unknown feature gate 'DRAConsumableCapacty' for Kubernetes 1.37; did you mean DRAConsumableCapacity?"
    )
