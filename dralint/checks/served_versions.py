"""``resource.k8s.io`` versions the target release does not serve, serves only when enabled, or deprecates."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.api.convert import FLAT_VERSIONS
from dralint.api.objects import KubeObject
from dralint.api.versions import LEGACY_VERSIONS, RELEASES, SERVED, VERSIONS, Target
from dralint.checks.rule_ids import RuleId
from dralint.findings import Replacement, Violation
from dralint.pipeline.context import CheckContext
from dralint.read.sources import is_rendered
from dralint.validate.skew import availability, preferred_version


def check(ctx: CheckContext) -> Iterator[Violation]:
    target = ctx.target
    for obj in ctx.objects:
        if not obj.is_dra:
            continue
        info = availability(target, obj.kind, obj.version)
        if not info.served:
            yield _not_served(obj, target.release)
            continue
        if info.needs:
            configured = any(
                need.removeprefix("feature gate ").split("=")[0] in target.overrides for need in info.needs
            )
            how = "with the configured feature gates" if configured else "by default"
            yield Violation(
                RuleId.API_VERSION_DISABLED_BY_DEFAULT,
                f"{obj.api_version} {obj.kind} is not enabled {how} in Kubernetes {target.release}",
                obj,
                ("apiVersion",),
                f"the cluster needs {' and '.join(info.needs)}" + _instead(target, obj),
            )
        if info.deprecated is not None:
            # The text of the API server's Warning header for deprecated versions.
            message = (
                f"{obj.api_version} {obj.kind} is deprecated in v{info.deprecated}+, unavailable in v{info.removed}+"
            )
            if info.replacement is not None:
                message += f"; use {info.replacement} {obj.kind}"
            preferred = preferred_version(target, obj.kind)
            hint = _use(obj, preferred) if preferred is not None else None
            yield Violation(
                RuleId.API_VERSION_DEPRECATED, message, obj, ("apiVersion",), hint, replacement=_renamed(obj, preferred)
            )


def _instead(target: Target, obj: KubeObject) -> str:
    preferred = preferred_version(target, obj.kind)
    if preferred is None or preferred == obj.version or availability(target, obj.kind, preferred).needs:
        return ""
    return f", or use resource.k8s.io/{preferred}"


def _not_served(obj: KubeObject, release: str) -> Violation:
    served_in = SERVED.get((obj.kind, obj.version), ())
    if obj.version in LEGACY_VERSIONS:
        message = (
            f"{obj.api_version} {obj.kind} is classic DRA, removed in Kubernetes 1.31; "
            f"Kubernetes {release} does not serve it"
        )
        hint: str | None = "rewrite it for structured parameters (resource.k8s.io/v1 ResourceClaim and DeviceClass)"
    elif served_in:
        window = served_in[0] if len(served_in) == 1 else f"{served_in[0]}-{served_in[-1]}"
        message = f"Kubernetes {release} does not serve {obj.api_version} {obj.kind} (served in {window})"
        hint = _newest_served_hint(obj, release)
    else:
        message = f"{obj.api_version} {obj.kind} is not an API any Kubernetes release serves"
        hint = _newest_served_hint(obj, release)
    replacement = _renamed(obj, _newest_served(obj.kind, release)) if obj.version not in LEGACY_VERSIONS else None
    return Violation(RuleId.API_VERSION_NOT_SERVED, message, obj, ("apiVersion",), hint, replacement=replacement)


def _newest_served(kind: str, release: str) -> str | None:
    return next((v for v in reversed(VERSIONS) if release in SERVED.get((kind, v), ())), None)


def _renamed(obj: KubeObject, version: str | None) -> Replacement | None:
    """The apiVersion to write instead, when nothing else in the object has to change (else ``convert`` does it)."""
    if version is None or version == obj.version or shape_changes(obj.kind, obj.version, version):
        return None
    return Replacement(obj.api_version, f"resource.k8s.io/{version}")


def _newest_served_hint(obj: KubeObject, release: str) -> str | None:
    kind = obj.kind
    version = _newest_served(kind, release)
    if version is not None:
        return _use(obj, version)
    served_in = sorted({r for (k, _), served in SERVED.items() if k == kind for r in served}, key=RELEASES.index)
    if not served_in:
        return None
    if RELEASES.index(served_in[0]) > RELEASES.index(release):
        return f"{kind} needs Kubernetes {served_in[0]} or newer"
    return f"{kind} was removed after Kubernetes {served_in[-1]}"


def _use(obj: KubeObject, version: str) -> str:
    """Use ``version`` instead: what else changes in the object's shape, and the command that rewrites it."""
    hint = f"use resource.k8s.io/{version}"
    changes = shape_changes(obj.kind, obj.version, version)
    if changes:
        hint += f" ({changes})"
    if obj.version in VERSIONS and version in VERSIONS and not is_rendered(obj.file):
        import shlex  # only for a finding: the check runs on every input

        hint += f"; `dralint convert --to {version} {shlex.quote(obj.file)}` rewrites it"
    return hint


def shape_changes(kind: str, source: str, target: str) -> str:
    """What besides apiVersion differs between two versions of ``kind`` (spec/api.md §2.3), or ``""``."""
    flat_before, flat_after = source in FLAT_VERSIONS, target in FLAT_VERSIONS
    changes = []
    if kind in ("ResourceClaim", "ResourceClaimTemplate") and flat_before != flat_after:
        if flat_after:
            changes.append(f"{target} requests are flat: the fields of `exactly` go directly on the request")
        else:
            changes.append(
                f"{target} requests put deviceClassName, selectors, allocationMode and count under `exactly`"
            )
    if kind == "ResourceSlice":
        if flat_before != flat_after:
            changes.append(
                f"{target} devices wrap their fields in `basic`" if flat_after else f"{target} devices have no `basic`"
            )
        if (source == "v1alpha3") != (target == "v1alpha3"):
            changes.append(
                "capacities are bare quantities" if target == "v1alpha3" else "capacities become `{value: ...}`"
            )
    return "; ".join(changes)
