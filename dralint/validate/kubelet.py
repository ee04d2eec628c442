"""A node's kubelet against the target cluster: the version-skew policy, and the API the kubelet reads claims through.

Before it starts a pod, the kubelet reads each of the pod's ResourceClaims from the API server,
through one ``resource.k8s.io`` version compiled into it (kubernetes/kubernetes,
pkg/kubelet/cm/dra/manager.go, ``prepareResources``): v1alpha3 in 1.31, v1beta1 in 1.32 and 1.33,
v1 from 1.34. When the API server does not serve that version (a 1.34+ server serves only v1 unless
``--runtime-config`` enables a beta one; 1.34 dropped v1alpha3 of the claim kinds), the read fails
and the pod never starts. Independently, the version-skew policy allows a kubelet at most three
minor releases older than the API server and never newer.
"""

from __future__ import annotations

from dralint.api.versions import GROUP, Target, release_key
from dralint.dataclass import dataclass
from dralint.regex import compiled_on_first_use
from dralint.validate.skew import availability

__all__ = ["KubeletProblem", "claims_api", "kubelet_release", "problem"]

# The first kubelet release that reads ResourceClaims through each version (newest last).
_CLAIMS_API: tuple[tuple[str, str], ...] = (("1.31", "v1alpha3"), ("1.32", "v1beta1"), ("1.34", "v1"))
OLDEST_ALLOWED = 3  # minor releases a kubelet may lag behind the API server (version-skew policy, 1.28 and later)

_VERSION = compiled_on_first_use(r"v?([0-9]{1,4})\.([0-9]{1,4})(?:[.+-].*)?")


@dataclass(frozen=True, slots=True)
class KubeletProblem:
    """Why pods with claims cannot start on a node, or why the node is outside what Kubernetes supports."""

    release: str  # the kubelet's minor release, "1.33"
    version: str  # as the node reports it, "v1.33.4"
    claims_api: str | None  # the resource.k8s.io version it reads claims through (None: before structured DRA)
    blocks_claims: bool  # pods with claims never start there
    message: str
    hint: str


def kubelet_release(version: str) -> str | None:
    """``"v1.33.2-eks-1"`` → ``"1.33"`` (None: not a Kubernetes version)."""
    found = _VERSION().fullmatch(version.strip())
    return f"{int(found[1])}.{int(found[2])}" if found else None


def claims_api(release: str) -> str | None:
    """The resource.k8s.io version a kubelet of ``release`` reads ResourceClaims through (None: none dralint knows)."""
    found = None
    for first, version in _CLAIMS_API:
        if release_key(release) >= release_key(first):
            found = version
    return found


def problem(version: str, target: Target) -> KubeletProblem | None:
    """What is wrong with a kubelet of ``version`` under the target's API server, if anything."""
    release = kubelet_release(version)
    if release is None:
        return None
    api = claims_api(release)
    lag = release_key(target.release)[1] - release_key(release)[1] if release_key(release)[0] == 1 else 0
    skew = ""
    if lag < 0:
        skew = f"newer than the API server ({target.release}), which the version-skew policy does not allow"
    elif lag > OLDEST_ALLOWED:
        skew = (
            f"{lag} minor releases older than the API server ({target.release}); the version-skew policy allows "
            f"{OLDEST_ALLOWED}"
        )
    if api is None:
        return KubeletProblem(
            release,
            version,
            None,
            True,
            f"kubelet {version} predates structured DRA (resource.k8s.io/v1alpha3, Kubernetes 1.31): it cannot "
            "prepare the claims of the pods placed there" + (f"; it is {skew}" if skew else ""),
            "upgrade the node's kubelet",
        )
    info = availability(target, "ResourceClaim", api)
    if not info.served or (info.needs and target.at_least("1.34")):
        served = "does not serve" if not info.served else "serves only when enabled"
        enable = f"; or enable it with --runtime-config={GROUP}/{api}=true" if info.served else ""
        return KubeletProblem(
            release,
            version,
            api,
            True,
            f"kubelet {version} reads ResourceClaims through {GROUP}/{api}, which Kubernetes {target.release} "
            f"{served}: pods with claims placed there never start" + (f"; it is {skew}" if skew else ""),
            "upgrade the node's kubelet to the API server's release, or keep pods with claims off the node" + enable,
        )
    if skew:
        remedy = (
            "upgrade the control plane first: no kubelet may be newer than the API server"
            if lag < 0
            else "upgrade the node's kubelet"
        )
        return KubeletProblem(release, version, api, False, f"kubelet {version} is {skew}", remedy)
    return None
