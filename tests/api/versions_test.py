"""The release matrix against spec/api.md §1, and the ``--feature-gates`` parser."""

from __future__ import annotations

import re

import pytest

from dralint.api.versions import (
    DEFAULT_RELEASE,
    GATES,
    LIFECYCLE,
    RELEASES,
    SERVED,
    GateState,
    make_target,
    normalise_release,
    parse_feature_gates,
)
from dralint.errors import UsageError
from tests.conftest import SHARED, require_shared

_STAGES = {"A": "alpha", "B": "beta", "GA": "ga"}
_CELL = re.compile(r"(A|B|GA)/(on|off)( 🔒)?")


def _spec_gate_table() -> dict[str, dict[str, GateState]]:
    """§1.2 of spec/api.md, parsed: gate → release → state ("—", "removed" and "— (...)" are absent)."""
    text = (require_shared(SHARED / "spec" / "api.md")).read_text(encoding="utf-8")
    section = text.split("### 1.2 Feature gates", 1)[1].split("\n## ", 1)[0]
    table: dict[str, dict[str, GateState]] = {}
    for line in section.splitlines():
        match = re.match(r"\| `(\w+)`[^|]*\|(.*)", line)
        if not match:
            continue
        cells = [cell.strip() for cell in match.group(2).split("|")][: len(RELEASES)]
        states = {}
        for release, cell in zip(RELEASES, cells, strict=True):
            found = _CELL.match(cell)
            if found:
                stage, default, lock = found.groups()
                states[release] = GateState(_STAGES[stage], default == "on", lock is not None)  # type: ignore[arg-type]
        table[match.group(1)] = states
    return table


def test_gate_table_matches_spec_section_1_2() -> None:
    assert _spec_gate_table() == GATES


def test_lifecycle_matches_spec_section_1_1() -> None:
    text = (require_shared(SHARED / "spec" / "api.md")).read_text(encoding="utf-8")
    section = text.split("Prerelease lifecycle", 1)[1].split("\n\n", 2)[1]
    names = {"DC": "DeviceClass", "RC": "ResourceClaim", "RCT": "ResourceClaimTemplate", "RS": "ResourceSlice"}
    expected = {}
    for line in section.splitlines()[2:]:
        version, kinds, introduced, deprecated, removed = (c.strip() for c in line.strip("|").split("|"))
        removed_release = removed.split()[0]
        for kind in kinds.split(", "):
            expected[(names.get(kind, kind), version)] = (
                introduced,
                None if deprecated == "—" else deprecated.split()[0],
                None if removed_release == "—" else removed_release,
            )
    actual = {key: (lc.introduced, lc.deprecated, lc.removed) for key, lc in LIFECYCLE.items()}
    assert actual == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("DRAConsumableCapacity=true", {"DRAConsumableCapacity": True}),
        (" A=1, B=F ,C=True,D=0,", {"A": True, "B": False, "C": True, "D": False}),
        ("AllAlpha=false", {"AllAlpha": False}),
        ("", {}),
    ],
)
def test_parse_feature_gates_accepts_go_booleans(text: str, expected: dict[str, bool]) -> None:
    assert parse_feature_gates(text) == expected


@pytest.mark.parametrize("text", ["DRAConsumableCapacity", "DRAConsumableCapacity=yes", "=true", "A=tRuE"])
def test_parse_feature_gates_rejects_malformed_items(text: str) -> None:
    with pytest.raises(UsageError, match="invalid feature gate"):
        parse_feature_gates(text)


def test_make_target_applies_all_alpha_but_explicit_gates_win() -> None:
    target = make_target("1.37", {"AllAlpha": True, "DRADerivedAttributes": False})
    assert target.enabled("DRAListTypeAttributes")
    assert not target.enabled("DRADerivedAttributes")
    assert not target.enabled("DRAWorkloadResourceClaims")  # beta, not alpha


def test_make_target_all_beta_off_spares_locked_and_ga_gates() -> None:
    target = make_target("1.36", {"AllBeta": False})
    assert not target.enabled("DRAConsumableCapacity")
    assert target.enabled("DRAAdminAccess")  # GA and locked in 1.36
    assert target.enabled("DRAPrioritizedList")  # GA in 1.36


@pytest.mark.parametrize(
    ("release", "gates", "message"),
    [
        ("1.36", {"DRAAdminAccess": False}, "feature gate DRAAdminAccess is locked to true in Kubernetes 1.36"),
        (
            "1.37",
            {"DRAControlPlaneController": True},
            "feature gate DRAControlPlaneController does not exist in Kubernetes 1.37",
        ),
        (
            "1.37",
            {"DRAConsumableCapcity": True},
            "unknown feature gate 'DRAConsumableCapcity' for Kubernetes 1.37; did you mean DRAConsumableCapacity?",
        ),
        ("1.37", {"DRAMagic": True}, "unknown feature gate 'DRAMagic' for Kubernetes 1.37; known: "),
    ],
)
def test_make_target_rejects_gates_it_cannot_honour(release: str, gates: dict[str, bool], message: str) -> None:
    with pytest.raises(UsageError) as raised:
        make_target(release, gates)
    assert str(raised.value).startswith(message)


def test_make_target_ignores_gates_of_other_features() -> None:
    target = make_target("1.35", {"InPlacePodVerticalScaling": True})
    assert "InPlacePodVerticalScaling" not in target.gates
    assert target.overrides == {"InPlacePodVerticalScaling": True}


def test_target_at_least_compares_releases_outside_the_supported_range() -> None:
    target = make_target("1.37")
    assert target.at_least("1.9") and target.at_least("1.37") and not target.at_least("1.38")


def test_releases_and_default() -> None:
    assert RELEASES == ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
    assert DEFAULT_RELEASE == "1.37"


@pytest.mark.parametrize(
    ("text", "release"), [("1.34", "1.34"), ("v1.34", "1.34"), ("1.34.2", "1.34"), (" 1.31 ", "1.31")]
)
def test_normalise_release_accepts_common_spellings(text: str, release: str) -> None:
    assert normalise_release(text) == release


@pytest.mark.parametrize(
    "text", ["1.30", "1.38", "2.0", "latest", "", "\uff11.\uff13\uff14", "1.3\u2074", "vv1.34", "1.34.1234567890"]
)
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


def test_make_target_uses_release_defaults() -> None:
    target = make_target("1.34")
    assert target.release == "1.34"
    assert target.enabled("DRAAdminAccess")  # beta, on by default in 1.34
    assert not target.enabled("DRAPartitionableDevices")  # alpha
    assert not target.enabled("DRADerivedAttributes")  # does not exist yet
    assert set(target.gates) == {name for name, per_release in GATES.items() if "1.34" in per_release}
    assert target.at_least("1.33") and not target.at_least("1.35")
