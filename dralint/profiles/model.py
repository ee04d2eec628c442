"""The typed model of a driver profile: what one DRA driver publishes and which opaque configuration it takes.

Built from a validated ``DriverProfile`` document (:mod:`dralint.profiles.load`); the checks read
nothing else. Names are qualified once here: an attribute written ``productName`` in the profile
of ``gpu.nvidia.com`` is ``("gpu.nvidia.com", "productName")``, as selectors reach it through
``device.attributes["gpu.nvidia.com"].productName``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any, Literal

from dralint.dataclass import dataclass

__all__ = [
    "CONSUMERS",
    "AttributeType",
    "ConfigKind",
    "ConfigRule",
    "Consumers",
    "DeviceKind",
    "DriverProfile",
    "ExtendedResource",
    "ProfileClass",
    "Published",
    "QualifiedName",
    "RequestRule",
    "Scalar",
    "Sharing",
    "Span",
    "Table",
]

AttributeType = Literal["string", "int", "bool", "version", "strings", "ints", "bools", "versions"]
Scalar = str | int | bool
QualifiedName = tuple[str, str]  # (domain, name)
Table = Literal["attributes", "capacity"]  # device.attributes or device.capacity
# Who may use one ResourceClaim of the driver, loosest first: any number of pods (wherever its
# devices can be reached), pods on one node, one pod (any of its containers), one container.
Consumers = Literal["pods", "node", "pod", "container"]
CONSUMERS: tuple[Consumers, ...] = ("pods", "node", "pod", "container")


@dataclass(frozen=True, slots=True)
class Span:
    """The releases a fact holds for: from ``since`` to ``until`` (None: from the first, to the last)."""

    since: str | None = None
    until: str | None = None

    def releases(self, versions: tuple[str, ...]) -> tuple[str, ...]:
        """The releases of ``versions`` (oldest first) the span covers; every one when the profile names none."""
        first = versions.index(self.since) if self.since in versions else 0
        last = versions.index(self.until) if self.until in versions else len(versions) - 1
        return versions[first : last + 1]


@dataclass(frozen=True, slots=True)
class DeviceKind:
    """A kind of device the driver publishes (a full GPU, a MIG partition), told apart by ``match``."""

    name: str
    description: str = ""
    match: Mapping[QualifiedName, Scalar] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Published:
    """An attribute (``type`` string/int/bool/version) or a capacity (``type`` quantity) of the driver's devices."""

    domain: str
    name: str
    type: AttributeType | Literal["quantity"]
    device_kinds: frozenset[str] | None = None  # None: every kind publishes it
    optional: bool = False  # some devices of those kinds leave it out
    since: str | None = None
    until: str | None = None
    values: tuple[Scalar, ...] | None = None  # a closed set of values, when the profile knows one
    examples: tuple[Scalar, ...] = ()
    description: str = ""

    @property
    def qualified(self) -> QualifiedName:
        return (self.domain, self.name)

    @property
    def span(self) -> Span:
        return Span(self.since, self.until)

    def published_by(self, kind: str) -> bool:
        return self.device_kinds is None or kind in self.device_kinds


@dataclass(frozen=True, slots=True)
class ConfigRule:
    """A semantic rule of the driver on a configuration's parameters: CEL over ``self``, true when valid."""

    rule: str
    message: str
    path: tuple[str, ...] = ()  # the field the rule is about, inside the parameters
    source: str = ""


@dataclass(frozen=True, slots=True)
class ConfigKind:
    """An opaque configuration kind the driver decodes, with the JSON schema and rules of its parameters."""

    api_version: str | None  # None: untyped, the driver decodes every configuration it gets as this one
    kind: str | None  # None: the driver tells its parameters by apiVersion alone
    schema: Mapping[str, Any]
    rules: tuple[ConfigRule, ...] = ()
    device_kinds: frozenset[str] | None = None  # None: every kind accepts it
    description: str = ""
    since: str | None = None  # the releases that decode it like this (a kind may change between releases)
    until: str | None = None

    @property
    def span(self) -> Span:
        return Span(self.since, self.until)

    @property
    def title(self) -> str:
        if self.api_version is None:
            return f"{self.kind} (parameters without apiVersion and kind)"
        return f"{self.kind} ({self.api_version})" if self.kind is not None else self.api_version


@dataclass(frozen=True, slots=True)
class Sharing:
    """How one ResourceClaim of the driver may be shared, for some kinds of device and releases."""

    consumers: Consumers
    span: Span = field(default_factory=Span)
    device_kinds: frozenset[str] | None = None  # None: every kind
    description: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class RequestRule:
    """A request the driver refuses (or mishandles) when it prepares it: every condition of ``when`` holds.

    Conditions are on the request's own shape (``admin_access``), on the opaque configuration of
    the driver that applies to it (``config``: CEL over the parameters, ``self``), and on the
    devices it can get (``device_kinds``, or ``devices``: CEL over ``device`` as in a selector,
    described for people by ``hardware``).
    """

    message: str
    admin_access: bool | None = None
    config: str | None = None
    device_kinds: frozenset[str] | None = None
    devices: str | None = None
    hardware: str = ""  # "pre-Volta GPUs (CUDA compute capability below 7.0)": the devices condition in words
    span: Span = field(default_factory=Span)
    source: str = ""


@dataclass(frozen=True, slots=True)
class ProfileClass:
    """A DeviceClass the driver's deployment installs: the kinds of device it selects (None: every device
    of the driver) and the extended resource it names from release ``since`` on."""

    name: str
    device_kinds: frozenset[str] | None = None
    extended_resource_name: str | None = None
    since: str | None = None  # the first release whose class names ``extended_resource_name``


@dataclass(frozen=True, slots=True)
class ExtendedResource:
    """An extended resource a device plugin advertises for devices this driver publishes.

    ``name`` is one resource (``nvidia.com/gpu``) or a family written with one placeholder
    (``nvidia.com/mig-{profile}``) whose text must fully match ``values``; ``match`` gives the
    attribute values (templates over the placeholder) that tell its devices apart within
    ``device_kinds``. ``unmapped`` says why its devices have no DRA counterpart, when they have none.
    """

    name: str
    device_kinds: frozenset[str] | None = None
    values: str | None = None  # a regular expression (RE2) for the placeholder's text
    match: Mapping[QualifiedName, str] = field(default_factory=dict)
    class_name: str | None = None  # a template over the placeholder (its text made a DNS label)
    unmapped: str | None = None
    description: str = ""
    source: str = ""

    @property
    def placeholder(self) -> str | None:
        """The placeholder's name (``profile`` of ``nvidia.com/mig-{profile}``), if the name has one."""
        start = self.name.find("{")
        return self.name[start + 1 : self.name.index("}", start)] if start >= 0 else None


@dataclass(frozen=True, slots=True)
class DriverProfile:
    """One driver's profile; ``origin`` is the file it was read from."""

    driver: str
    origin: str
    device_kinds: tuple[DeviceKind, ...] = ()
    attributes: Mapping[QualifiedName, Published] = field(default_factory=dict)
    capacities: Mapping[QualifiedName, Published] = field(default_factory=dict)
    # (apiVersion, kind) -> how the releases decode it, oldest first; None: the profile does not say
    # which configuration the driver takes (nothing is checked)
    # (None, None) is the untyped configuration: what the driver decodes every parameters as.
    configs: Mapping[tuple[str | None, str | None], tuple[ConfigKind, ...]] | None = None
    versions: tuple[str, ...] = ()
    description: str = ""
    # releases whose devices may publish attributes the profile does not list (a plugin of the
    # node adds them: a cloud provider's metadata, a user's webhook)
    unlisted: tuple[Span, ...] = ()
    sharing: tuple[Sharing, ...] = ()
    request_rules: tuple[RequestRule, ...] = ()
    shipped: bool = False  # one of dralint's own profiles, which lag their drivers (a user's describes theirs)
    device_classes: tuple[ProfileClass, ...] = ()
    extended_resources: tuple[ExtendedResource, ...] = ()

    @property
    def newest(self) -> str | None:
        """The newest release the profile describes, if it names any."""
        return self.versions[-1] if self.versions else None

    def releases(self, span: Span) -> tuple[str, ...]:
        """The releases of the profile ``span`` covers."""
        return span.releases(self.versions)

    def may_publish_unlisted(self, releases: tuple[str, ...] | None = None) -> bool:
        """Whether devices of some of ``releases`` (None: any release) may publish names the profile does not list."""
        for span in self.unlisted:
            covered = self.releases(span)
            if releases is None or not self.versions or set(covered) & set(releases):
                return True
        return False

    @property
    def kinds(self) -> tuple[DeviceKind, ...]:
        """The kinds of device; a profile that names none has one kind, every device."""
        return self.device_kinds or (DeviceKind("device"),)

    def published(self, table: Table) -> Mapping[QualifiedName, Published]:
        return self.attributes if table == "attributes" else self.capacities

    def names_in(self, table: Table, domain: str) -> list[str]:
        """The names the profile publishes in ``domain``, sorted (candidates for a did-you-mean)."""
        return sorted(name for d, name in self.published(table) if d == domain)
