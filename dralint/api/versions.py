"""Kubernetes releases 1.31-1.37: which ``resource.k8s.io`` versions they serve, and their feature gates.

Pure data (from ``shared/spec/api.md`` §1), plus the few functions that read it. The target
release and the effective gate set travel through the pipeline as a :class:`Target`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Literal

from dralint.dataclass import dataclass
from dralint.errors import UsageError
from dralint.regex import compiled_on_first_use

RELEASES: tuple[str, ...] = ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
DEFAULT_RELEASE = "1.37"
GROUP = "resource.k8s.io"
LEGACY_VERSIONS: tuple[str, ...] = ("v1alpha1", "v1alpha2")  # classic DRA, removed in 1.31
# The structured-parameters versions dralint reads, converts between and checks, oldest first.
VERSIONS: tuple[str, ...] = ("v1alpha3", "v1beta1", "v1beta2", "v1")

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
        """Whether the target is ``release`` or newer (``release`` may lie outside 1.31-1.37)."""
        return release_key(self.release) >= release_key(release)


def release_key(release: str) -> tuple[int, ...]:
    """``"1.37"`` → ``(1, 37)``, for ordering releases numerically."""
    return tuple(int(part) for part in release.split("."))


# MAJOR.MINOR[.PATCH] with an optional v, in ASCII digits (str.isdigit and int also take "１" and "²").
_RELEASE = compiled_on_first_use(r"v?([0-9]{1,4})\.([0-9]{1,4})(?:\.[0-9]{1,9})?")


def normalise_release(text: str) -> str:
    """``"1.34"``, ``"v1.34"`` or ``"1.34.2"`` → ``"1.34"``; anything unsupported is a usage error."""
    candidate = text.strip()
    written = _RELEASE().fullmatch(candidate)
    if written is not None:
        candidate = f"{int(written[1])}.{int(written[2])}"
    if candidate not in RELEASES:
        raise UsageError(f"unsupported Kubernetes version {text!r}; supported: {', '.join(RELEASES)}")
    return candidate


# strconv.ParseBool, which kube-apiserver's --feature-gates parser uses.
_GO_BOOLS = {
    **dict.fromkeys(("1", "t", "T", "TRUE", "true", "True"), True),
    **dict.fromkeys(("0", "f", "F", "FALSE", "false", "False"), False),
}


def parse_feature_gates(text: str) -> dict[str, bool]:
    """``"A=true,B=false"`` (kube-apiserver's ``--feature-gates`` syntax) → ``{"A": True, "B": False}``."""
    out: dict[str, bool] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or value not in _GO_BOOLS:
            raise UsageError(f"invalid feature gate {item!r}: expected Name=true or Name=false")
        out[name] = _GO_BOOLS[value]
    return out


def make_target(release: str = DEFAULT_RELEASE, overrides: Mapping[str, bool] | None = None) -> Target:
    """The effective gate set of ``release`` with ``overrides`` applied (``AllAlpha``/``AllBeta`` too)."""
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
        state = GATES.get(name, {}).get(release)
        if state is None:
            _unknown_gate(name, release)
            continue
        if state.locked and value != state.default:
            raise UsageError(f"feature gate {name} is locked to {str(state.default).lower()} in Kubernetes {release}")
        gates[name] = value
    return Target(release, gates, overrides)


def _unknown_gate(name: str, release: str) -> None:
    """Reject a gate dralint should know (a DRA gate, or a misspelling of one); accept any other.

    Only gates that change DRA behaviour are modelled, so a cluster's full ``--feature-gates``
    value (with gates of other features) is accepted and those gates are ignored.
    """
    import difflib  # only for a gate dralint does not model: every command imports this module

    known = sorted(n for n, r in GATES.items() if release in r)
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
    if name in GATES:
        releases = list(GATES[name])
        raise UsageError(
            f"feature gate {name} does not exist in Kubernetes {release} (it exists in {', '.join(releases)})"
        )
    if close:
        raise UsageError(f"unknown feature gate {name!r} for Kubernetes {release}; did you mean {close[0]}?")
    if name.startswith("DRA") or name.startswith("DynamicResource"):
        raise UsageError(f"unknown feature gate {name!r} for Kubernetes {release}; known: {', '.join(known)}")
