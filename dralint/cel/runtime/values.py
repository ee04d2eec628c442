"""CEL runtime values as plain Python values, plus the few wrapper types Python lacks.

int → ``int``, uint → :class:`UInt`, double → ``float``, bool → ``bool``, string → ``str``,
bytes → ``bytes``, null → ``None``, list → ``list``/``tuple``, map → ``dict``; durations,
timestamps, types and optionals get small classes here. Library types (Quantity, Semver, URL,
IP, CIDR, formats) live in their libraries, which register their CEL type names in
``runtime.TYPE_NAMES``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "UINT64_MAX",
    "DefaultMap",
    "Duration",
    "Optional",
    "Timestamp",
    "TypeValue",
    "UInt",
]

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1


class UInt(int):
    """A CEL ``uint``: a Python int that remembers it is unsigned (``type(x) is UInt``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{int(self)}u"


@dataclass(frozen=True, slots=True)
class Duration:
    """A ``google.protobuf.Duration`` in nanoseconds."""

    nanos: int


@dataclass(frozen=True, slots=True)
class Timestamp:
    """A ``google.protobuf.Timestamp`` in nanoseconds since the Unix epoch (UTC)."""

    nanos: int


@dataclass(frozen=True, slots=True)
class TypeValue:
    """A CEL type used as a value (``type(1) == int``); compared by name."""

    name: str


@dataclass(frozen=True, slots=True)
class Optional:
    """``optional.of(x)`` (``present``) or ``optional.none()``."""

    present: bool
    value: Any = None


NONE = Optional(False)


class DefaultMap(dict):  # type: ignore[type-arg]
    """Kubernetes' attribute/capacity maps: looking up an unknown key yields an empty map.

    ``in`` still says the key is absent; ``has()`` and optional selection find it (the
    Kubernetes mapper's ``Find`` always succeeds), exactly like upstream.
    """

    __slots__ = ()

    def __missing__(self, key: object) -> Mapping[str, Any]:
        return _EMPTY


_EMPTY: Mapping[str, Any] = {}
