"""Evaluate many selectors on many devices by device *classes* instead of device by device.

Devices that agree on every value the selectors read (their projection) get the same result
from each selector, so each selector runs once per class; a selector that pins
``device.driver`` only looks at the classes of that driver. Results stay per class (expanding a
million cells in Python costs more than computing them); :meth:`Matches.devices` expands one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import field
from typing import Any

from dralint.cel.device import DeviceValue
from dralint.cel.dra import Selector
from dralint.cel.errors import CelRuntimeError
from dralint.cel.selector_paths import SelectorPaths
from dralint.dataclass import dataclass

__all__ = ["DeviceClasses", "Matches", "match_all"]


class DeviceClasses:
    """Devices grouped by their projection onto the union of the selectors' reads."""

    def __init__(self, devices: Sequence[DeviceValue], selectors: Iterable[Selector]) -> None:
        self.devices = devices
        reads: set[Any] = set()
        opaque = False
        for selector in selectors:
            if selector.paths.projectable:
                reads.update(selector.paths.reads)
            else:
                opaque = True
        union = SelectorPaths(0, True, tuple(sorted(reads, key=repr)), None, -1)
        index: dict[Any, int] = {}
        self.members: list[list[int]] = []
        self.representatives: list[DeviceValue] = []
        self.drivers: list[str] = []
        for position, device in enumerate(devices):
            key: Any = position if opaque else (device.driver, device.error, union.key(device))
            found = index.get(key)
            if found is None:
                found = index[key] = len(self.members)
                self.members.append([])
                self.representatives.append(device)
                self.drivers.append(device.driver)
            self.members[found].append(position)
        self.by_driver: dict[str, list[int]] = {}
        for class_id, driver in enumerate(self.drivers):
            self.by_driver.setdefault(driver, []).append(class_id)

    def __len__(self) -> int:
        return len(self.members)


@dataclass(slots=True)
class Matches:
    """One selector's outcome over the classes: matching classes and erroring classes."""

    selector: Selector
    classes: DeviceClasses
    matching: list[int] = field(default_factory=list)
    errors: dict[int, str] = field(default_factory=dict)  # class id -> runtime error message

    @property
    def count(self) -> int:
        return sum(len(self.classes.members[c]) for c in self.matching)

    def devices(self) -> list[int]:
        """Indices of the matching devices, in input order."""
        return sorted(i for c in self.matching for i in self.classes.members[c])


def match_all(selectors: Sequence[Selector], devices: Sequence[DeviceValue]) -> list[Matches]:
    """Every selector on every device, evaluated once per device class."""
    classes = DeviceClasses(devices, selectors)
    out = []
    every_class = range(len(classes))
    for selector in selectors:
        result = Matches(selector, classes)
        pinned = selector.paths.driver
        candidates: Iterable[int] = classes.by_driver.get(pinned, []) if pinned is not None else every_class
        if pinned is not None:
            # Devices of other drivers are false without evaluation, unless their attributes are broken.
            for class_id in every_class:
                representative = classes.representatives[class_id]
                if representative.error is not None and classes.drivers[class_id] != pinned:
                    result.errors[class_id] = representative.error
        for class_id in candidates:
            try:
                if selector.matches(classes.representatives[class_id]):
                    result.matching.append(class_id)
            except CelRuntimeError as error:
                result.errors[class_id] = error.message
        out.append(result)
    return out
