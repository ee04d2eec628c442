"""Say which driver's devices a device-plugin resource (``nvidia.com/gpu``) stands for, and how to select them.

The driver profiles' ``extendedResources`` name the resources; this module finds the entry a
resource is one of and turns it into DRA terms: the DeviceClass of the driver's deployment that
selects the right kinds of device, and CEL selectors for the rest (a MIG profile, a kernel
driver). Nothing here reads files: the caller passes the profiles.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping

from dralint.dataclass import dataclass
from dralint.profiles import extended
from dralint.profiles.load import Profiles
from dralint.profiles.model import DriverProfile, ExtendedResource, ProfileClass, Scalar

__all__ = ["Mapped", "Unmapped", "by_resource", "is_device_plugin_resource", "label", "resolve"]

# Resource names of the core and of the kubelet: never a device plugin's.
_NATIVE = re.compile(r"^(cpu|memory|ephemeral-storage|storage|pods|hugepages-.*|([^/]*\.)?kubernetes\.io/.*)$")


@dataclass(frozen=True, slots=True)
class Mapped:
    """A resource whose devices a driver publishes: how a claim asks for one of them."""

    resource: str
    driver: str
    entry: ExtendedResource
    device_class: str  # the class of the driver's deployment a claim names
    selectors: tuple[str, ...]  # CEL expressions narrowing the class down to the resource's devices
    class_selector: str  # the CEL expression of a DeviceClass of its own for the resource
    own_class: str  # the name of that class
    installed: ProfileClass | None  # the deployment's class that already names the resource, if one does
    request_name: str  # a name for the request: the resource's name without its domain


@dataclass(frozen=True, slots=True)
class Unmapped:
    """A resource without a DRA counterpart, and why."""

    resource: str
    reason: str
    driver: str | None = None


def is_device_plugin_resource(name: str) -> bool:
    """Whether ``name`` is an extended resource (``vendor.example/thing``), not one of the core's or the kubelet's."""
    return "/" in name and _NATIVE.match(name) is None


def resolve(resource: str, profiles: Profiles) -> Mapped | Unmapped:
    """What ``resource`` stands for in the profiles (the first driver, in name order, whose profile names it)."""
    for driver in profiles.drivers():
        profile = profiles.get(driver)
        if profile is None:
            continue
        for entry in profile.extended_resources:
            text = extended.placeholder_text(entry, resource)
            if text is None:
                continue
            if entry.unmapped is not None:
                return Unmapped(resource, entry.unmapped, driver)
            return _mapped(resource, profile, entry, text)
    return Unmapped(resource, "no driver profile names this resource (add it to a profile's extendedResources)")


def _mapped(resource: str, profile: DriverProfile, entry: ExtendedResource, text: str) -> Mapped | Unmapped:
    driver = profile.driver
    installed = next((c for c in profile.device_classes if c.extended_resource_name == entry.name), None)
    chosen = _class_for(profile.device_classes, entry.device_kinds)
    if chosen is None:
        return Unmapped(resource, f"no DeviceClass of {driver}'s deployment selects its kinds of device", driver)
    narrowing = _kinds_condition(profile, entry.device_kinds) if chosen.device_kinds != entry.device_kinds else None
    placeholder = f"{{{entry.placeholder}}}"
    matches = [_equals(profile, name, value.replace(placeholder, text)) for name, value in sorted(entry.match.items())]
    selectors = tuple(c for c in (narrowing, *matches) if c)
    kinds = _parenthesised(_kinds_condition(profile, entry.device_kinds))
    own_selector = " && ".join([f"device.driver == {_literal(driver)}", *kinds, *matches])
    own = installed.name if installed is not None else (entry.class_name or "").replace(placeholder, label(text))
    return Mapped(
        resource=resource,
        driver=driver,
        entry=entry,
        device_class=chosen.name,
        selectors=selectors,
        class_selector=own_selector,
        own_class=own,
        installed=installed,
        request_name=label(resource.rpartition("/")[2]),
    )


def _class_for(classes: Iterable[ProfileClass], kinds: frozenset[str] | None) -> ProfileClass | None:
    """The class selecting the fewest kinds that still selects every one of ``kinds`` (None: every device)."""
    fitting = [c for c in classes if c.device_kinds is None or (kinds is not None and kinds <= c.device_kinds)]
    return min(fitting, key=lambda c: (c.device_kinds is None, len(c.device_kinds or ()), c.name), default=None)


def _kinds_condition(profile: DriverProfile, kinds: frozenset[str] | None) -> str | None:
    """A CEL condition true for devices of ``kinds`` only (None when ``kinds`` is every device)."""
    if kinds is None:
        return None
    alternatives = []
    for kind in profile.kinds:
        if kind.name in kinds:
            terms = [_equals(profile, name, value) for name, value in sorted(kind.match.items())]
            alternatives.append(" && ".join(terms) if terms else "true")
    if "true" in alternatives:
        return None
    return " || ".join(f"({a})" if "&&" in a and len(alternatives) > 1 else a for a in alternatives)


def _parenthesised(condition: str | None) -> list[str]:
    if not condition:
        return []
    return [f"({condition})" if "||" in condition else condition]


def _equals(profile: DriverProfile, name: tuple[str, str], value: Scalar) -> str:
    domain, attribute = name
    published = profile.attributes.get(name)
    typed: Scalar = value
    if published is not None and isinstance(value, str):
        if published.type == "bool":
            typed = value == "true"
        elif published.type == "int":
            typed = int(value)
    return f"device.attributes[{_literal(domain)}].{attribute} == {_literal(typed)}"


def _literal(value: Scalar) -> str:
    """``value`` as a CEL literal (JSON strings are CEL strings for the texts profiles hold)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value)


def label(text: str) -> str:
    """``text`` as part of a DNS label: lower case, other characters dashes (``1g.10gb`` -> ``1g-10gb``)."""
    return re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-")


def by_resource(resources: Iterable[str], profiles: Profiles) -> Mapping[str, Mapped | Unmapped]:
    """:func:`resolve` for each of ``resources``, in name order."""
    return {name: resolve(name, profiles) for name in sorted(set(resources))}
