"""Claim constraints: matchAttribute (scalar and set modes) and distinctAttribute (spec §5).

Counterparts: ``matchAttributeConstraint``, ``lookupAttribute``, ``attributeAsSet`` and
``deviceAttributeListAsSet`` in ``allocator_experimental.go``; ``distinctAttributeConstraint`` in
``constraint.go``. The upstream quirks are kept: set-mode matchAttribute never widens its running
intersection on removal (Q1); distinctAttribute keeps one value per base request name and forgets
it on removal (Q2, Q3). With derived attributes (KEP-6080) a device's request may supply the value
under the constraint's name, which takes precedence over the device's own attribute.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from dralint.api import model

_SCALARS = frozenset({"int", "bool", "string", "version"})
# A typed set of attribute values: (kind, values), kind being a scalar kind.
ValueSet = tuple[str, frozenset[object]]


# A request's derived attributes on one device, by name (None: the request derives none).
Derived = Mapping[str, model.DeviceAttribute] | None


class Constraint(Protocol):
    def add(
        self,
        request: str,
        subrequest: str,
        driver: str,
        attributes: Mapping[str, model.DeviceAttribute],
        derived: Derived = None,
    ) -> bool:
        """Check and record a device about to be allocated for ``request`` (or its entry)."""

    def remove(self, request: str, subrequest: str) -> None:
        """Undo exactly one successful ``add`` with the same names."""


def lookup_attribute(
    attributes: Mapping[str, model.DeviceAttribute], driver: str, name: str
) -> model.DeviceAttribute | None:
    """``lookupAttribute``: the fully qualified key, else the bare id when the domain is the driver."""
    attribute = attributes.get(name)
    if attribute is not None:
        return attribute
    domain, sep, ident = name.partition("/")
    if not sep or domain != driver:
        return None
    return attributes.get(ident)


def as_set(attribute: model.DeviceAttribute) -> ValueSet | None:
    """``attributeAsSet``: a non-empty list or a scalar as a typed set; ``None`` when unknown."""
    kind = attribute.kind
    if kind in _SCALARS:
        return kind, frozenset((attribute.value,))
    if kind and attribute.value:
        return kind[:-1], frozenset(attribute.value)
    return None


def constrained_attribute(
    derived: Derived, attributes: Mapping[str, model.DeviceAttribute], driver: str, name: str
) -> model.DeviceAttribute | None:
    """The value a constraint compares: the request's derived attribute of that name, else ``lookupAttribute``."""
    if derived:
        found = derived.get(name)
        if found is not None:
            return found
    return lookup_attribute(attributes, driver, name)


def _intersects(a: ValueSet, b: ValueSet) -> bool:
    return a[0] == b[0] and not a[1].isdisjoint(b[1])


class _Covered:
    """Which requests a constraint applies to (``matches``)."""

    __slots__ = ("attribute", "names")

    def __init__(self, requests: tuple[str, ...], attribute: str) -> None:
        self.names = frozenset(requests)
        self.attribute = attribute

    def covers(self, request: str, subrequest: str) -> bool:
        if not self.names:
            return True
        if request in self.names:
            return True
        return bool(subrequest) and f"{request}/{subrequest}" in self.names


class MatchAttribute(_Covered):
    """``matchAttributeConstraint``: every covered device has the same value (or a common one)."""

    __slots__ = ("count", "intersection", "set_mode", "stored")

    def __init__(self, requests: tuple[str, ...], attribute: str, *, set_mode: bool) -> None:
        super().__init__(requests, attribute)
        self.set_mode = set_mode
        self.stored: model.DeviceAttribute | None = None
        self.intersection: ValueSet | None = None
        self.count = 0

    def add(
        self,
        request: str,
        subrequest: str,
        driver: str,
        attributes: Mapping[str, model.DeviceAttribute],
        derived: Derived = None,
    ) -> bool:
        if not self.covers(request, subrequest):
            return True
        attribute = constrained_attribute(derived, attributes, driver, self.attribute)
        if attribute is None:
            return False
        if self.count == 0:
            if self.set_mode:
                self.intersection = as_set(attribute)
                if self.intersection is None:
                    return False
            else:
                self.stored = attribute
            self.count = 1
            return True
        if self.set_mode:
            new = as_set(attribute)
            if new is None or self.intersection is None or not _intersects(self.intersection, new):
                return False
            self.intersection = (new[0], self.intersection[1] & new[1])
        else:
            stored = self.stored
            if attribute.kind not in _SCALARS or stored is None:
                return False
            if stored.kind != attribute.kind or stored.value != attribute.value:
                return False
        self.count += 1
        return True

    def remove(self, request: str, subrequest: str) -> None:
        if self.covers(request, subrequest):
            self.count -= 1


class DistinctAttribute(_Covered):
    """``distinctAttributeConstraint``: covered devices have pairwise different (disjoint) values."""

    __slots__ = ("count", "set_mode", "values")

    def __init__(self, requests: tuple[str, ...], attribute: str, *, set_mode: bool) -> None:
        super().__init__(requests, attribute)
        self.set_mode = set_mode
        self.values: dict[str, model.DeviceAttribute] = {}
        self.count = 0

    def add(
        self,
        request: str,
        subrequest: str,
        driver: str,
        attributes: Mapping[str, model.DeviceAttribute],
        derived: Derived = None,
    ) -> bool:
        if not self.covers(request, subrequest):
            return True
        attribute = constrained_attribute(derived, attributes, driver, self.attribute)
        if attribute is None:
            return False
        if self.count != 0 and not self._distinct(attribute):
            return False
        self.values[request] = attribute
        self.count += 1
        return True

    def _distinct(self, attribute: model.DeviceAttribute) -> bool:
        if self.set_mode:
            new = as_set(attribute)
            if new is None:
                return False
            for existing in self.values.values():
                existing_set = as_set(existing)
                if existing_set is not None and _intersects(new, existing_set):
                    return False
            return True
        for existing in self.values.values():
            if attribute.kind not in _SCALARS:
                return False
            if existing.kind == attribute.kind and existing.value == attribute.value:
                return False
        return True

    def remove(self, request: str, subrequest: str) -> None:
        if self.covers(request, subrequest):
            self.values.pop(request, None)
            self.count -= 1


def claim_constraint(
    constraint: model.DeviceConstraint, *, set_mode: bool
) -> MatchAttribute | DistinctAttribute | None:
    """The constraint object for one of a claim's constraints; ``None`` when it sets neither kind."""
    if constraint.match_attribute is not None:
        return MatchAttribute(constraint.requests, constraint.match_attribute, set_mode=set_mode)
    if constraint.distinct_attribute is not None:
        return DistinctAttribute(constraint.requests, constraint.distinct_attribute, set_mode=set_mode)
    return None
