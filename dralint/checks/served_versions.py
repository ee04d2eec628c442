"""``resource.k8s.io`` versions the target release does not serve at all."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.api.versions import LEGACY_VERSIONS, RELEASES, SERVED
from dralint.context import CheckContext
from dralint.findings import Violation


def check(ctx: CheckContext) -> Iterator[Violation]:
    release = ctx.target.release
    for obj in ctx.objects:
        if not obj.is_dra:
            continue
        served_in = SERVED.get((obj.kind, obj.version), ())
        if release in served_in:
            continue
        if obj.version in LEGACY_VERSIONS:
            message = (
                f"{obj.api_version} {obj.kind} is classic DRA, removed in Kubernetes 1.31; "
                f"Kubernetes {release} does not serve it"
            )
            hint: str | None = "rewrite it for structured parameters (resource.k8s.io/v1 ResourceClaim and DeviceClass)"
        elif served_in:
            window = served_in[0] if len(served_in) == 1 else f"{served_in[0]}-{served_in[-1]}"
            message = f"Kubernetes {release} does not serve {obj.api_version} {obj.kind} (served in {window})"
            hint = _newest_served_hint(obj.kind, release)
        else:
            message = f"{obj.api_version} {obj.kind} is not an API any Kubernetes release serves"
            hint = _newest_served_hint(obj.kind, release)
        yield Violation("DRA200", message, obj, ("apiVersion",), hint)


def _newest_served_hint(kind: str, release: str) -> str | None:
    for version in ("v1", "v1beta2", "v1beta1", "v1alpha3"):
        if release in SERVED.get((kind, version), ()):
            return f"use resource.k8s.io/{version}"
    later = [r for (k, _), served in SERVED.items() if k == kind for r in served]
    if later:
        first = min(later, key=RELEASES.index)
        return f"{kind} needs Kubernetes {first} or newer"
    return None
