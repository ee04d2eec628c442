"""What the target release's validation code does differently (spec/api.md §3.10, Appendix B).

The rule tables are written for the newest code (1.37); a :class:`Behaviour` says, for one
target release and gate set, which limits, messages and paths that release uses instead.
"""

from __future__ import annotations

from dralint.api.versions import RELEASES, Target
from dralint.dataclass import dataclass

TAINT_EFFECTS_OLD = ("NoExecute", "NoSchedule")
TAINT_EFFECTS = ("NoExecute", "NoSchedule", "None")


def _at_least(release: str, first: str) -> bool:
    return RELEASES.index(release) >= RELEASES.index(first)


@dataclass(frozen=True, slots=True)
class Behaviour:
    """Release-dependent details of kube-apiserver's DRA validation."""

    target: Target
    # ≤1.32: requests are flat (deviceClassName required on the request, no firstAvailable).
    flat_requests: bool
    # ≤1.33: duplicate names are reported at ``…[i].name`` rather than ``…[i]``.
    duplicates_at_name: bool
    # ≥1.34: a list over its maximum reports only ``Too many`` and skips its items.
    short_circuit_lists: bool
    # ≤1.33: empty qualified-name parts are ``Required value`` errors with older wording.
    legacy_qualified_names: bool
    # ≥1.37: qualified names with more than one slash are rejected.
    reject_multi_slash: bool
    # ≥1.36: errors about a map key are reported at the map's path.
    key_errors_at_map: bool
    # ResourceSlice counter model: "none" (≤1.32), "old" (1.33–1.34), "new" (≥1.35).
    counter_model: str
    max_taints: int
    taint_effects: tuple[str, ...]
    reserved_for_max: int
    # Namespace label that admin access needs, or None when the release does not check.
    admin_label: str | None
    # Size limit of opaque parameters and status data (none in 1.31).
    raw_max_bytes: int | None
    # Whether ``perDeviceNodeSelection`` is one of the slice's node-selection fields.
    per_device_node_selection: bool
    # 1.31 printed ``Too long: must have at most N bytes``.
    legacy_too_long: bool
    # ≤1.36: validRange default-vs-min/max errors are reported at ``.min``/``.max``.
    range_default_errors_at_bound: bool
    # 1.37: validRange int64 and step guards.
    range_guards: bool
    # Devices per slice when any device has taints, counters (1.35+) or list attributes (1.36+).
    max_devices_advanced: int | None
    # 1.36+: at most 48 attribute values per device.
    max_attribute_values: int | None

    @property
    def release(self) -> str:
        return self.target.release

    def enabled(self, gate: str) -> bool:
        return self.target.enabled(gate)


def behaviour(target: Target) -> Behaviour:
    """The validation behaviour of ``target``."""
    release = target.release
    if _at_least(release, "1.34"):
        admin_label: str | None = "resource.kubernetes.io/admin-access"
    elif release == "1.33":
        admin_label = "resource.k8s.io/admin-access"
    else:
        admin_label = None
    if _at_least(release, "1.35"):
        counter_model = "new"
    elif _at_least(release, "1.33"):
        counter_model = "old"
    else:
        counter_model = "none"
    return Behaviour(
        target=target,
        flat_requests=not _at_least(release, "1.33"),
        duplicates_at_name=not _at_least(release, "1.34"),
        short_circuit_lists=_at_least(release, "1.34"),
        legacy_qualified_names=not _at_least(release, "1.34"),
        reject_multi_slash=_at_least(release, "1.37"),
        key_errors_at_map=_at_least(release, "1.36"),
        counter_model=counter_model,
        max_taints=16 if _at_least(release, "1.35") else 4,
        taint_effects=TAINT_EFFECTS if _at_least(release, "1.35") else TAINT_EFFECTS_OLD,
        reserved_for_max=256 if _at_least(release, "1.32") else 32,
        admin_label=admin_label,
        raw_max_bytes=10240 if _at_least(release, "1.32") else None,
        per_device_node_selection=_at_least(release, "1.33"),
        legacy_too_long=release == "1.31",
        range_default_errors_at_bound=not _at_least(release, "1.37"),
        range_guards=_at_least(release, "1.37"),
        max_devices_advanced=64 if _at_least(release, "1.35") else None,
        max_attribute_values=48 if _at_least(release, "1.36") else None,
    )
