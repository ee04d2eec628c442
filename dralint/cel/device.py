"""The CEL ``device`` variable of a selector, built once per device and shared by every selector.

Its own module because both the DRA environment (:mod:`dralint.cel.dra`, which builds it) and
the selector projections (:mod:`dralint.cel.selector_paths`, which key results by it) read it.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from dralint.dataclass import dataclass

__all__ = ["DeviceValue"]


@dataclass(slots=True, eq=False)
class DeviceValue:
    """A device as the selector sees it; ``error`` is the deferred attribute-conversion error."""

    driver: str
    value: dict[str, Any]
    error: str | None = None
    flat: dict[tuple[str, str, str], Any] = field(default_factory=dict)  # (kind, domain, id) -> value
    keys: dict[int, Any] = field(default_factory=dict)  # projection keys by path-set id
