"""Kubernetes releases 1.31-1.37: which ``resource.k8s.io`` versions they serve, and their feature gates.

Pure data (from ``shared/spec/api.md`` §1), plus the few functions that read it. The target
release and the effective gate set travel through the pipeline as a :class:`Target`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from dralint.errors import UsageError

RELEASES: tuple[str, ...] = ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
DEFAULT_RELEASE = "1.37"
GROUP = "resource.k8s.io"
DRA_VERSIONS: tuple[str, ...] = ("v1alpha3", "v1beta1", "v1beta2", "v1")
LEGACY_VERSIONS: tuple[str, ...] = ("v1alpha1", "v1alpha2")  # classic DRA, removed in 1.31

CORE_KINDS = ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")


def _release_range(first: str, last: str = "1.37") -> tuple[str, ...]:
    return RELEASES[RELEASES.index(first) : RELEASES.index(last) + 1]


# (kind, version) -> releases in which the API server has the version compiled in.
SERVED: dict[tuple[str, str], tuple[str, ...]] = {
    **{(kind, "v1alpha3"): _release_range("1.31", "1.33") for kind in CORE_KINDS},
    ("PodSchedulingContext", "v1alpha3"): ("1.31",),
    ("DeviceTaintRule", "v1alpha3"): _release_range("1.33"),
    ("ResourcePoolStatusRequest", "v1alpha3"): _release_range("1.36"),
    **{(kind, "v1beta1"): _release_range("1.32") for kind in CORE_KINDS},
    **{(kind, "v1beta2"): _release_range("1.33") for kind in CORE_KINDS},
    ("DeviceTaintRule", "v1beta2"): _release_range("1.36"),
    **{(kind, "v1"): _release_range("1.34") for kind in CORE_KINDS},
    ("DeviceTaintRule", "v1"): _release_range("1.37"),
}


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """Prerelease lifecycle of an API version (zz_generated.prerelease-lifecycle.go)."""

    introduced: str
    deprecated: str | None
    removed: str | None
    replacement: str | None = None  # "resource.k8s.io/v1beta1" style, when the API declares one


LIFECYCLE: dict[tuple[str, str], Lifecycle] = {
    **{(kind, "v1alpha3"): Lifecycle("1.31", "1.34", "1.37", f"{GROUP}/v1beta1") for kind in CORE_KINDS},
    ("DeviceTaintRule", "v1alpha3"): Lifecycle("1.33", "1.36", "1.39"),
    ("ResourcePoolStatusRequest", "v1alpha3"): Lifecycle("1.36", "1.39", "1.42"),
    **{(kind, "v1beta1"): Lifecycle("1.32", "1.35", "1.38") for kind in CORE_KINDS},
    **{(kind, "v1beta2"): Lifecycle("1.33", "1.36", "1.39") for kind in CORE_KINDS},
    ("DeviceTaintRule", "v1beta2"): Lifecycle("1.36", "1.39", "1.42"),
    **{(kind, "v1"): Lifecycle("1.34", None, None) for kind in CORE_KINDS},
    ("DeviceTaintRule", "v1"): Lifecycle("1.37", None, None),
}

Stage = Literal["alpha", "beta", "ga", "deprecated"]


@dataclass(frozen=True, slots=True)
class GateState:
    stage: Stage
    default: bool
    locked: bool = False


def _gate(*cells: str | None) -> dict[str, GateState]:
    """One row of the gate table: a cell per release 1.31..1.37 like ``"A"``, ``"B+"``, ``"GA+!"``.

    ``A`` alpha, ``B`` beta, ``GA`` stable; ``+`` on by default (beta/GA), ``-`` off; ``!`` locked.
    ``None``: the gate does not exist in that release.
    """
    out: dict[str, GateState] = {}
    for release, cell in zip(RELEASES, cells, strict=True):
        if cell is None:
            continue
        locked = cell.endswith("!")
        cell = cell.rstrip("!")
        default = cell.endswith("+")
        stage_code = cell.rstrip("+-")
        stage: Stage = {"A": "alpha", "B": "beta", "GA": "ga"}[stage_code]  # type: ignore[assignment]
        out[release] = GateState(stage, default, locked)
    return out


# spec/api.md §1.2; columns are 1.31 .. 1.37.
GATES: dict[str, dict[str, GateState]] = {
    "DynamicResourceAllocation": _gate("A-", "B-", "B-", "GA+", "GA+!", "GA+!", "GA+!"),
    "DRAControlPlaneController": _gate("A-", None, None, None, None, None, None),
    "DRAAdminAccess": _gate(None, "A-", "A-", "B+", "B+", "GA+!", "GA+!"),
    "DRAResourceClaimDeviceStatus": _gate(None, "A-", "B+", "B+", "B+", "B+", "GA+!"),
    "DRAPrioritizedList": _gate(None, None, "A-", "B+", "B+", "GA+", "GA+!"),
    "DRAPartitionableDevices": _gate(None, None, "A-", "A-", "A-", "B+", "B+"),
    "DRADeviceTaints": _gate(None, None, "A-", "A-", "A-", "B+", "GA+"),
    "DRADeviceTaintRules": _gate(None, None, None, None, "A-", "B-", "GA+"),
    "DRAConsumableCapacity": _gate(None, None, None, "A-", "A-", "B+", "B+"),
    "DRADeviceBindingConditions": _gate(None, None, None, "A-", "A-", "B+", "B+"),
    "DRAExtendedResource": _gate(None, None, None, "A-", "A-", "B+", "GA+!"),
    "DRASchedulerFilterTimeout": _gate(None, None, None, "B+", "B+", "B+", "B+"),
    "DRAListTypeAttributes": _gate(None, None, None, None, None, "A-", "A-"),
    "DRANodeAllocatableResources": _gate(None, None, None, None, None, "A-", "A-"),
    "DRAResourcePoolStatus": _gate(None, None, None, None, None, "A-", "A-"),
    "DRAResourceClaimGranularStatusAuthorization": _gate(None, None, None, None, None, "B+", "B+"),
    "DRAWorkloadResourceClaims": _gate(None, None, None, None, None, "A-", "B-"),
    "DRADerivedAttributes": _gate(None, None, None, None, None, None, "A-"),
    "DRADeviceCompatibilityGroups": _gate(None, None, None, None, None, None, "A-"),
    "DRAOptionalNodeOperations": _gate(None, None, None, None, None, None, "A-"),
    "DRAPartitionableDevicesType": _gate(None, None, None, None, None, None, "A-"),
    "DRAFractionalCapacityRange": _gate(None, None, None, None, None, None, "B+"),
    "GenericWorkload": _gate(None, None, None, None, "A-", "A-", "B-"),
    "PodLevelResources": _gate(None, "A-", "A-", "B+", "B+", "B+", "B+"),
    "DeclarativeValidation": _gate(None, None, "B+", "B+", "B+", "GA+", "GA+"),
}


@dataclass(frozen=True, slots=True)
class Target:
    """The cluster dralint checks against: a release and its effective feature gates."""

    release: str = DEFAULT_RELEASE
    gates: Mapping[str, bool] = field(default_factory=dict)  # effective value of every known gate
    overrides: Mapping[str, bool] = field(default_factory=dict)  # what the user set explicitly

    def enabled(self, gate: str) -> bool:
        return self.gates.get(gate, False)

    def at_least(self, release: str) -> bool:
        return RELEASES.index(self.release) >= RELEASES.index(release)


def normalise_release(text: str) -> str:
    """``"1.34"``, ``"v1.34"`` or ``"1.34.2"`` → ``"1.34"``; anything unsupported is a usage error."""
    candidate = text.strip().lstrip("v")
    parts = candidate.split(".")
    if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
        candidate = f"{int(parts[0])}.{int(parts[1])}"
    if candidate not in RELEASES:
        raise UsageError(f"unsupported Kubernetes version {text!r}; supported: {', '.join(RELEASES)}")
    return candidate


_BOOLS = {
    **dict.fromkeys(("1", "t", "T", "true", "TRUE", "True"), True),
    **dict.fromkeys(("0", "f", "F", "false", "FALSE", "False"), False),
}


def parse_feature_gates(text: str) -> dict[str, bool]:
    """``"A=true,B=false"`` (kube-apiserver's ``--feature-gates`` syntax) → ``{"A": True, "B": False}``.

    Values are read like Go's ``strconv.ParseBool`` (``true``, ``1``, ``t``, ...), as the API
    server reads them.
    """
    out: dict[str, bool] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or value not in _BOOLS:
            raise UsageError(f"invalid feature gate {item!r}: expected Name=true or Name=false")
        out[name] = _BOOLS[value]
    return out


def _is_dra_gate(name: str) -> bool:
    return name.startswith(("DRA", "DynamicResource"))


def make_target(release: str = DEFAULT_RELEASE, overrides: Mapping[str, bool] | None = None) -> Target:
    """The effective gate set of ``release`` with ``overrides`` applied (``AllAlpha``/``AllBeta`` too).

    Gates dralint does not model and that are not DRA gates (a cluster's full gate list often
    has many) are accepted and ignored; an unknown DRA gate or one the release does not have
    is a usage error, as it would be for kube-apiserver.
    """
    release = normalise_release(release)
    overrides = dict(overrides or {})
    gates: dict[str, bool] = {}
    for name, per_release in GATES.items():
        state = per_release.get(release)
        if state is not None:
            gates[name] = state.default
    for group, stage in (("AllAlpha", "alpha"), ("AllBeta", "beta")):
        if group in overrides:
            for name, per_release in GATES.items():
                state = per_release.get(release)
                if state is not None and state.stage == stage and not state.locked:
                    gates[name] = overrides[group]
    for name, value in overrides.items():
        if name in ("AllAlpha", "AllBeta"):
            continue
        if name not in GATES and not _is_dra_gate(name):
            continue
        state = GATES.get(name, {}).get(release)
        if state is None:
            raise UsageError(_unknown_gate(name, release))
        if state.locked and value != state.default:
            raise UsageError(f"feature gate {name} is locked to {str(state.default).lower()} in Kubernetes {release}")
        gates[name] = value
    return Target(release, gates, overrides)


def _unknown_gate(name: str, release: str) -> str:
    if name in GATES:
        first = min(GATES[name], key=RELEASES.index)
        last = max(GATES[name], key=RELEASES.index)
        exists = f"it exists in Kubernetes {first}" + (f"-{last}" if last != first else "")
        return f"feature gate {name} does not exist in Kubernetes {release}; {exists}"
    import difflib

    known = sorted(n for n, per_release in GATES.items() if release in per_release)
    close = difflib.get_close_matches(name, known, n=1)
    suggestion = f"; did you mean {close[0]}?" if close else f"; known: {', '.join(known)}"
    return f"unknown feature gate {name!r} for Kubernetes {release}{suggestion}"
