"""Who uses each claim, and how its drivers and devices let it be shared: the facts behind DRA600 and DRA607.

A claim is used by every container that lists its pod's ``resourceClaims`` entry, in every pod
made from every template that names it: separate Pods, the replicas of a workload, a DaemonSet's
pod on each node. A driver's profile may allow fewer consumers than Kubernetes does (one pod,
one container, see ``sharing`` in the profile schema); the devices the claim can get tell whether
pods sharing it can run on different nodes (a pool without ``nodeName`` reaches several).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from dralint.api import model
from dralint.api.workloads import Container, PodTemplate
from dralint.dataclass import dataclass
from dralint.diagnose.profile_selectors import Readings
from dralint.profiles.model import CONSUMERS, DriverProfile, Sharing
from dralint.profiles.releases import Releases

__all__ = [
    "NOWHERE",
    "Consumer",
    "Limit",
    "Reach",
    "Reachable",
    "consumers",
    "limits",
    "network_attached",
    "selectors_of",
    "shareable",
    "strictest",
]


@dataclass(frozen=True, slots=True)
class Consumer:
    """A pod template's use of one claim: through which entry, by how many pods and which containers."""

    template: PodTemplate
    entry: int  # index of the entry in the pod's resourceClaims
    pods: int | None  # None: one pod per node (a DaemonSet)
    containers: tuple[Container, ...]  # the containers (init and ephemeral ones too) that list the entry


@dataclass(frozen=True, slots=True)
class Limit:
    """The strictest sharing a driver enforces on the devices a claim can get, for every release it may run."""

    driver: str
    sharing: Sharing
    origin: str  # the profile that declares it


def consumers(templates: Iterable[PodTemplate]) -> list[Consumer]:
    """Every entry of every pod template, with the containers that list it, in input order.

    A workload defined twice (the same kind, namespace and name) is one workload, as ``kubectl
    apply -f`` leaves it: its last definition.
    """
    last: dict[tuple[str, str, str, str | None, tuple[object, ...]], PodTemplate] = {}
    for template in templates:
        owner = template.owner
        last[(owner.group, owner.kind, template.namespace, owner.name, template.path)] = template
    out = []
    for template in last.values():
        spec = template.spec
        for index, entry in enumerate(spec.resource_claims):
            listing = tuple(c for c in spec.containers if any(claim.name == entry.name for claim in c.claims))
            out.append(Consumer(template, index, template.replicas, listing))
    return out


def selectors_of(
    spec: model.ResourceClaimSpec, classes: Mapping[str, model.DeviceClass]
) -> list[tuple[model.ExactDeviceRequest | model.DeviceSubRequest, list[str]]]:
    """Each request (and firstAvailable entry) with the CEL expressions of its DeviceClass and its own."""
    out = []
    for request in spec.requests:
        for part in request.parts():
            device_class = classes.get(part.spec.device_class_name)
            selectors = [*(device_class.selectors if device_class else ()), *part.spec.selectors]
            out.append((part.spec, [s.cel.expression for s in selectors if s.cel is not None and s.cel.expression]))
    return out


def limits(
    spec: model.ResourceClaimSpec, classes: Mapping[str, model.DeviceClass], readings: Readings, releases: Releases
) -> list[Limit]:
    """The sharing each profiled driver of the claim's requests enforces for certain, strictest first.

    Certain: the declaration covers every kind of device the request may get (as its selectors
    and its class's tell the profile's kinds apart) and every release the cluster may run (the
    known ones, or every release the profile describes).
    """
    found: dict[str, Limit] = {}
    for _, expressions in selectors_of(spec, classes):
        for driver in readings.drivers(expressions):
            profile = readings.profiles.get(driver)
            if profile is None or not profile.sharing:
                continue
            kinds = readings.kinds(driver, expressions)
            known = releases.of(driver)
            running = known.releases if known is not None and known.described else profile.versions
            sharing = strictest(profile, kinds, running)
            earlier = found.get(driver)
            if sharing is not None and (earlier is None or _rank(sharing) > _rank(earlier.sharing)):
                found[driver] = Limit(driver, sharing, profile.origin)
    return sorted(found.values(), key=lambda limit: -_rank(limit.sharing))


def strictest(profile: DriverProfile, kinds: Sequence[str] | None, releases: Sequence[str]) -> Sharing | None:
    """The strictest sharing ``profile`` declares for every one of ``kinds`` (None: every kind) in every one of
    ``releases``, together: entries for some kinds or releases add up (the loosest level they share counts)."""
    every_kind = list(kinds) if kinds is not None else [kind.name for kind in profile.kinds]
    every_release: list[str | None] = list(releases) or [None]
    for rank in reversed(range(len(CONSUMERS))):
        strict = [s for s in profile.sharing if _rank(s) >= rank]
        if strict and all(
            any(_covers(profile, s, kind, release) for s in strict) for kind in every_kind for release in every_release
        ):
            used = [
                s
                for s in strict
                if _rank(s) == rank and any(_covers(profile, s, k, r) for k in every_kind for r in every_release)
            ]
            if len(used) == 1:
                return used[0]
            # several declarations add up: the finding tells each one's reason and source
            return replace(
                used[0],
                description="; ".join(dict.fromkeys(s.description for s in used if s.description)),
                source="; ".join(dict.fromkeys(s.source for s in used if s.source)),
            )
    return None


def _covers(profile: DriverProfile, sharing: Sharing, kind: str, release: str | None) -> bool:
    in_kinds = sharing.device_kinds is None or kind in sharing.device_kinds
    return in_kinds and (release is None or release in profile.releases(sharing.span))


def _rank(sharing: Sharing) -> int:
    return CONSUMERS.index(sharing.consumers)


class Reach:
    """The inventory devices claims can get, each distinct list of selectors judged once for the run.

    Generated workloads name a handful of classes and selectors in thousands of claims: judging
    every device of the inventory for each claim made the check grow with claims times devices.
    """

    def __init__(self, classes: Mapping[str, model.DeviceClass], slices: Sequence[model.ResourceSlice]) -> None:
        self.classes = classes
        self.slices = slices
        self._slice_of: dict[int, model.ResourceSlice] | None = None
        self._accepted: dict[tuple[str, ...], list[tuple[model.ResourceSlice, model.Device]]] = {}
        self._claims: dict[tuple[tuple[str, ...], ...], Reachable] = {}

    def claim(self, spec: model.ResourceClaimSpec) -> Reachable:
        """Every inventory device some request of the claim can get (its class's and its own selectors accept),
        with its slice."""
        keyed = []
        for request, _ in selectors_of(spec, self.classes):
            device_class = self.classes.get(request.device_class_name)
            if device_class is not None:
                selectors = [*device_class.selectors, *request.selectors]
                keyed.append((tuple(s.cel.expression for s in selectors if s.cel is not None), selectors))
        key = tuple(expressions for expressions, _ in keyed)
        found = self._claims.get(key)
        if found is None:
            devices = [device for expressions, selectors in keyed for device in self._devices(expressions, selectors)]
            found = self._claims[key] = Reachable(tuple(devices), network_attached(devices), shareable(devices))
        return found

    def _devices(
        self, expressions: tuple[str, ...], selectors: Sequence[model.DeviceSelector]
    ) -> list[tuple[model.ResourceSlice, model.Device]]:
        """The devices ``selectors`` (whose CEL expressions are ``expressions``) accept, with their slices."""
        from dralint.diagnose.candidates import accepted_devices

        found = self._accepted.get(expressions)
        if found is None:
            if self._slice_of is None:
                self._slice_of = {id(d): s for s in self.slices for d in s.devices}
            slice_of = self._slice_of
            chosen = accepted_devices(selectors, ((s.driver, d) for s in self.slices for d in s.devices))
            found = self._accepted[expressions] = [(slice_of[id(device)], device) for _, device in chosen]
        return found


@dataclass(frozen=True, slots=True)
class Reachable:
    """The inventory devices a claim can get, with their slices (see :meth:`Reach.claim`)."""

    devices: tuple[tuple[model.ResourceSlice, model.Device], ...]
    network_attached: bool  # see :func:`network_attached`
    shareable: bool  # see :func:`shareable`


def network_attached(devices: Sequence[tuple[model.ResourceSlice, model.Device]]) -> bool:
    """Whether every one of ``devices`` sits in a slice without ``nodeName`` (so several nodes reach it)."""
    return bool(devices) and all(s.node_name is None for s, _ in devices)


def shareable(devices: Sequence[tuple[model.ResourceSlice, model.Device]]) -> bool:
    """Whether every one of ``devices`` allows multiple allocations (claims of their own can share it)."""
    return bool(devices) and all(d.allow_multiple_allocations is True for _, d in devices)


NOWHERE = Reachable((), network_attached(()), shareable(()))  # a claim without devices to get
