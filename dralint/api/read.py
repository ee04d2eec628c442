"""Lenient reads of fields of plain (decoded YAML/JSON) data, keeping presence where the API does.

The typed model and the API-server checks read raw fields through these: a field of the wrong
type reads as absent (schema validation reports the type error), so no later stage crashes on
malformed input; the ``opt_`` readers tell an absent or null field (Go's nil) from an empty one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

__all__ = [
    "flag",
    "integer",
    "items",
    "mapping",
    "mapping_or_empty",
    "opt_integer",
    "opt_items",
    "opt_text",
    "present",
    "request_parts",
    "strings",
    "text",
]


def _get(data: Any, key: str) -> Any:
    # Decoded documents are dicts: the type test spares most calls the ABC's slower isinstance.
    return data.get(key) if data.__class__ is dict or isinstance(data, Mapping) else None


def mapping(data: Any, key: str) -> Mapping[str, Any] | None:
    """The mapping, or ``None`` when absent, null or not a mapping."""
    value = _get(data, key)
    return value if isinstance(value, Mapping) else None


def mapping_or_empty(data: Any, key: str) -> Mapping[str, Any]:
    value = _get(data, key)
    return value if isinstance(value, Mapping) else {}


def items(data: Any, key: str) -> list[Any]:
    value = _get(data, key)
    return value if isinstance(value, list) else []


def opt_items(data: Any, key: str) -> list[Any] | None:
    """The list, or ``None`` when the field is absent or null (Go's nil slice)."""
    value = _get(data, key)
    return value if isinstance(value, list) else None


def strings(data: Any, key: str) -> tuple[str, ...]:
    """The strings of a list field (other items skipped)."""
    return tuple(v for v in items(data, key) if isinstance(v, str))


def text(data: Any, key: str) -> str:
    value = _get(data, key)
    return value if isinstance(value, str) else ""


def opt_text(data: Any, key: str) -> str | None:
    """The string, or ``None`` when absent or null (a Go ``*string``)."""
    value = _get(data, key)
    return value if isinstance(value, str) else None


def integer(data: Any, key: str) -> int | None:
    """The integer, ``0`` when absent or null, ``None`` when it is not an integer (schema validation says why)."""
    value = _get(data, key)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def opt_integer(data: Any, key: str) -> int | None:
    """The integer, or ``None`` when absent, null or not an integer (a Go ``*int``)."""
    value = _get(data, key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def flag(data: Any, key: str) -> bool | None:
    """A ``*bool``: ``None`` when absent or null."""
    value = _get(data, key)
    return value if isinstance(value, bool) else None


def present(data: Any, key: str) -> bool:
    """Whether the field is set to a non-null value."""
    return _get(data, key) is not None


def request_parts(request: Any) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """A raw request's ``exactly`` block, then its ``firstAvailable`` entries (those that are mappings),
    each with its path relative to the request: the walk of ``model.DeviceRequest.parts`` for
    data that is not typed yet (defaulting) or may be ill-typed (the selector checks)."""
    exactly = _get(request, "exactly")
    if isinstance(exactly, dict):
        yield ("exactly",), exactly
    for index, entry in enumerate(items(request, "firstAvailable")):
        if isinstance(entry, dict):
            yield ("firstAvailable", index), entry


def scalars(data: Any, key: str) -> dict[str, str]:
    """A map of scalars as strings (labels, nodeSelector, resource quantities); other values are left out."""
    value = _get(data, key)
    if not isinstance(value, Mapping):
        return {}
    return {str(k): str(v) for k, v in value.items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)}
