"""A starting profile for each driver of a real cluster's ResourceSlices (``dralint profile extract``).

What devices publish is evidence, not the driver's documentation: the profile gets every name
with its value type and a few values seen. Kinds of device are inferred only where the devices
say so plainly: a string attribute every device publishes, with a few values, whose groups of
devices publish different names (``type: gpu`` beside ``type: mig``). Closed value sets,
releases and configuration kinds are for the author to add: the slices cannot tell them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any

from dralint.api import model
from dralint.dataclass import dataclass
from dralint.diagnose.hints import qualified
from dralint.profiles.model import DriverProfile
from dralint.profiles.releases import Known

__all__ = ["EXAMPLES", "extract", "fit"]

EXAMPLES = 5  # values kept per attribute or capacity
MAX_KINDS = 8  # an attribute with more values is not a kind of device (a model, an index)
_PREFERRED = ("type", "kind", "deviceType")  # discriminators drivers use, tried first

Name = tuple[str, str]  # (domain, name)


@dataclass(slots=True)
class _Seen:
    """What the devices of one driver publish under one name."""

    types: Counter[str] = field(default_factory=Counter)
    values: set[Any] = field(default_factory=set)
    devices: Counter[str] = field(default_factory=Counter)  # kind -> devices that publish it


def extract(
    slices: Iterable[model.ResourceSlice], sources: Sequence[str], fits: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """One DriverProfile document (plain data) per driver of ``slices``, sorted by driver.

    ``fits`` says, per driver, which releases of dralint's own profile the devices fit (see
    :func:`fit`); it ends the description.
    """
    by_driver: dict[str, list[model.Device]] = {}
    for resource_slice in slices:
        by_driver.setdefault(resource_slice.driver, []).extend(resource_slice.devices)
    fits = fits or {}
    return [
        _profile(driver, devices, sources, fits.get(driver)) for driver, devices in sorted(by_driver.items()) if driver
    ]


def fit(profile: DriverProfile, known: Known | None) -> str | None:
    """Which releases of ``profile`` devices fit, in words (None: the profile names no releases)."""
    if known is None or not profile.versions:
        return None
    if not known.releases:
        return (
            f"they publish names no release of dralint's profile of {profile.driver} publishes (it describes "
            f"releases up to {profile.newest}): a release it does not describe"
        )
    shown = known.releases[0] if len(known.releases) == 1 else f"{known.releases[0]} to {known.releases[-1]}"
    return (
        f"they fit releases {shown} of dralint's profile of {profile.driver}; pin the one the cluster runs with "
        f"driverVersions: in .dralint.yaml"
    )


def _profile(driver: str, devices: list[model.Device], sources: Sequence[str], fits: str | None) -> dict[str, Any]:
    published = [{qualified(k, driver): a for k, a in device.attributes.items()} for device in devices]
    discriminator = _discriminator(published)
    kind_of = [str(p[discriminator].value) if discriminator else "" for p in published]
    attributes: dict[Name, _Seen] = {}
    capacities: dict[Name, _Seen] = {}
    for device, attributes_of, kind in zip(devices, published, kind_of, strict=True):
        for name, attribute in attributes_of.items():
            seen = attributes.setdefault(name, _Seen())
            seen.types[attribute.kind] += 1
            _note(seen, kind, attribute.value)
        for key, capacity in device.capacity.items():
            _note(capacities.setdefault(qualified(key, driver), _Seen()), kind, str(capacity.value))
    members = Counter(kind_of)
    facts = "the names, value types and values the devices publish"
    spec: dict[str, Any] = {
        "driver": driver,
        "description": f"extracted by dralint profile extract from {len(devices)} devices"
        + (f"; {fits}" if fits else ""),
        "sources": [{"file": source, "facts": facts} for source in sources],
    }
    if discriminator is not None:
        written = _written(discriminator, driver)
        spec["deviceKinds"] = [{"name": _kind_name(k), "match": {written: k}} for k in sorted(members)]
    spec["attributes"] = [_entry(n, s, driver, members, attribute=True) for n, s in sorted(attributes.items())]
    spec["capacities"] = [_entry(n, s, driver, members, attribute=False) for n, s in sorted(capacities.items())]
    return {
        "apiVersion": "dralint.io/v1alpha1",
        "kind": "DriverProfile",
        "metadata": {"name": driver},
        "spec": {k: v for k, v in spec.items() if v != []},
    }


def _discriminator(published: list[dict[Name, model.DeviceAttribute]]) -> Name | None:
    """The attribute that tells kinds of device apart: a string on every device, with 2 to 8 values
    whose devices publish different sets of names (else it is a property, not a kind)."""
    everywhere = set.intersection(*(set(p) for p in published)) if published else set()
    candidates = []
    for name in everywhere:
        if any(p[name].kind != "string" for p in published):
            continue
        names_by_value: dict[str, set[frozenset[Name]]] = {}
        for p in published:
            names_by_value.setdefault(str(p[name].value), set()).add(frozenset(p))
        if not 2 <= len(names_by_value) <= MAX_KINDS:
            continue
        # Each value's devices publish some name the devices of every other value never do.
        unions = {value: frozenset().union(*sets) for value, sets in names_by_value.items()}
        if all(any(unions[v] - unions[w] for w in unions if w != v) for v in unions):
            candidates.append((name[1] not in _PREFERRED, len(names_by_value), name))
    return min(candidates)[2] if candidates else None


def _note(seen: _Seen, kind: str, value: Any) -> None:
    seen.devices[kind] += 1
    if value is not None and len(seen.values) < 64:  # enough to choose examples from; bounded on huge clusters
        seen.values.add(value if not isinstance(value, list) else tuple(value))


def _written(name: Name, driver: str) -> str:
    return name[1] if name[0] == driver else "/".join(name)


def _kind_name(value: str) -> str:
    cleaned = "".join(c if c.isalnum() else "-" for c in value.lower()).strip("-")
    return cleaned[:63].strip("-") or "device"


def _entry(name: Name, seen: _Seen, driver: str, members: Counter[str], *, attribute: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"name": _written(name, driver)}
    if attribute:
        out["type"] = seen.types.most_common(1)[0][0] or "string"
    if len(members) > 1 and len(seen.devices) < len(members):
        out["deviceKinds"] = [_kind_name(k) for k in sorted(seen.devices)]
    if any(seen.devices[k] < members[k] for k in seen.devices):
        out["optional"] = True
    values = [v for v in seen.values if not isinstance(v, tuple)]  # the schema's examples are scalars
    examples = sorted(values, key=lambda v: (type(v).__name__, v))[:EXAMPLES]
    if examples:
        out["examples"] = examples
    if len(seen.types) > 1:
        shown = ", ".join(f"{kind or 'no value'} on {count}" for kind, count in sorted(seen.types.items()))
        out["description"] = f"published with different types: {shown} devices"
    return out
