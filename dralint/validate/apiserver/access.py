"""Lenient reads of the normalised (v1-shaped) object, keeping presence where the server does.

Validation needs what the typed model leaves out: whether a pointer field is set at all, the
exact integer written, an empty list versus no list. Wrong types (reported by schema
validation) read as absent, so these checks never crash on malformed input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def mapping(data: Any, key: str) -> Mapping[str, Any] | None:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else None


def items(data: Any, key: str) -> list[Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def opt_items(data: Any, key: str) -> list[Any] | None:
    """The list, or ``None`` when the field is absent or null (Go's nil slice)."""
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, list) else None


def text(data: Any, key: str) -> str:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


def opt_text(data: Any, key: str) -> str | None:
    """The string, or ``None`` when absent or null (a Go ``*string``)."""
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def integer(data: Any, key: str) -> int | None:
    """The integer, ``0`` when absent, ``None`` when it is not an integer (schema validation says why)."""
    value = data.get(key, 0) if isinstance(data, dict) else 0
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def flag(data: Any, key: str) -> bool | None:
    """A ``*bool``: ``None`` when absent or null."""
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, bool) else None


def present(data: Any, key: str) -> bool:
    """Whether the field is set to a non-null value."""
    return isinstance(data, dict) and data.get(key) is not None
