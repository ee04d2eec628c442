"""Which releases of a driver the cluster runs, as far as dralint can know it: pinned, read from devices, or unknown.

A profile describes releases; a cluster runs one (or, during an upgrade, several). Findings that
only hold for the releases the profile describes (a configuration field no release knows) are
certain only when dralint knows the cluster's release is among them. Two things tell it: a pin
in the configuration (``driverVersions: {dra.net: v1.4.0}``), and the inventory's devices, whose
attributes each release publishes differently (a name published since v1.1.0 rules out the
releases before it; a name no release publishes rules out every release the profile knows).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field

from dralint.api import model
from dralint.dataclass import dataclass
from dralint.profiles.load import Profiles
from dralint.profiles.model import DriverProfile, Published, QualifiedName

__all__ = ["Known", "Releases", "from_devices", "pinned"]


@dataclass(frozen=True, slots=True)
class Known:
    """What is known of the releases of one driver the cluster runs."""

    releases: tuple[str, ...]  # the profile's releases it may run, oldest first; () when it runs none of them
    how: str  # where the knowledge comes from, for messages: "driverVersions in the configuration"
    release: str | None = None  # the release named by a pin

    @property
    def described(self) -> bool:
        """Whether the cluster runs releases the profile describes (findings about them are certain)."""
        return bool(self.releases)


def pinned(profile: DriverProfile, release: str, how: str) -> Known:
    """A release named in the configuration: described when the profile lists it."""
    return Known((release,) if release in profile.versions else (), how, release)


def from_devices(profile: DriverProfile, pools: Iterable[Iterable[model.Device]]) -> Known | None:
    """The releases whose devices publish what the devices of ``pools`` publish (None: no device, or a
    profile without releases).

    The devices of one pool come from one plugin, so one release: it publishes every name any of
    them publishes. Pools of different nodes may run different releases (during an upgrade): the
    cluster may run any release some pool keeps. A pool that publishes a name no release publishes
    (and that nothing on the node may add, see ``unlistedAttributes``) runs a release the profile
    does not describe, usually a newer one.
    """
    from dralint.diagnose.hints import qualified

    versions = profile.versions
    if not versions:
        return None
    unlisted = {r for span in profile.unlisted for r in profile.releases(span)}
    found: set[str] = set()
    seen = False
    for devices in pools:
        keeps = set(versions)
        for device in devices:
            seen = True
            for key in device.attributes:
                name = qualified(key, profile.driver)
                keeps &= _publishing(profile, name, profile.attributes.get(name), unlisted)
            for key in device.capacity:
                name = qualified(key, profile.driver)
                keeps &= _publishing(profile, name, profile.capacities.get(name), unlisted)
        if not keeps:
            return Known((), "the inventory's devices")
        found |= keeps
    if not seen:
        return None
    return Known(tuple(v for v in versions if v in found), "the inventory's devices")


def _publishing(
    profile: DriverProfile, name: QualifiedName, published: Published | None, unlisted: set[str]
) -> set[str]:
    """The releases of the profile that may publish ``name``."""
    if published is not None:
        return set(profile.releases(published.span))
    if name[0] != profile.driver:
        return set(profile.versions)  # a standard or foreign domain the profile need not list
    return unlisted


@dataclass(slots=True)
class Releases:
    """The releases of each profiled driver a run knows of: pins first, then the inventory's devices."""

    profiles: Profiles
    # driver -> the devices of each of its pools in the inventory
    pools: Mapping[str, Mapping[str, list[model.Device]]] = field(default_factory=dict)
    pin_origin: str = "driverVersions in the configuration"
    _known: dict[str, Known | None] = field(default_factory=dict)

    def of(self, driver: str) -> Known | None:
        """What is known of ``driver``'s release (None: nothing; the profile's findings are then uncertain)."""
        if driver not in self._known:
            self._known[driver] = self._find(driver)
        return self._known[driver]

    def _find(self, driver: str) -> Known | None:
        profile = self.profiles.get(driver)
        if profile is None:
            return None
        release = self.profiles.pins.get(driver)
        if release is not None:
            return pinned(profile, release, self.pin_origin)
        return from_devices(profile, self.pools.get(driver, {}).values())
