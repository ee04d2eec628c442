"""CEL runtime values as plain Python values, plus the few wrapper types Python lacks.

int → ``int``, uint → :class:`UInt`, double → ``float``, bool → ``bool``, string → ``str``,
bytes → ``bytes``, null → ``None``, list → ``list``/``tuple``, map → ``dict``; durations,
timestamps, types and optionals get small classes here. Library types (Quantity, Semver, URL,
IP, CIDR, formats) live in their libraries, which register their CEL type names in
``runtime.TYPE_NAMES``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.cel.runtime.closures import Cancelled
from dralint.dataclass import dataclass

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "MAX_LIST_SIZE",
    "MAX_STRING_SIZE",
    "UINT64_MAX",
    "DefaultMap",
    "Duration",
    "Optional",
    "Timestamp",
    "TypeValue",
    "UInt",
    "digits_value",
    "refuse_larger",
]

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1
# More significant digits than any 64-bit integer has; beyond them a value only needs to be
# known out of range, and Python refuses int() of 4,301+ decimal digits anyway.
_MAX_DIGITS = 40
_OUT_OF_RANGE = 2**128


# The largest strings (characters or bytes) and lists evaluation builds. Under the runtime cost
# limit (1,000,000) cel-go itself cannot build a larger string, nor a larger list element by
# element; operations whose cost does not grow with their output (format, replace, join, list
# concatenation) are checked before they build, so no expression holds gigabytes.
MAX_STRING_SIZE = 10_000_000
MAX_LIST_SIZE = 1_000_000


def refuse_larger(size: int, limit: int) -> None:
    """Stop evaluation, as an exceeded cost limit does, before building a value of ``size``."""
    if size > limit:
        raise Cancelled


def digits_value(text: str, base: int = 10) -> int:
    """``int(text, base)`` for a string of digits with an optional sign, of any length.

    Values too long for 64 bits come back as ±2**128, which every range check rejects, so
    callers report cel-go's overflow error instead of Python raising on huge inputs.
    """
    negative = text.startswith("-")
    body = text.lstrip("+-").lstrip("0")
    if len(body) > _MAX_DIGITS:
        return -_OUT_OF_RANGE if negative else _OUT_OF_RANGE
    value = int(body or "0", base)
    return -value if negative else value


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
