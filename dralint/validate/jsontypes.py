"""The JSON-schema type of a decoded YAML value, and how messages name each type.

Shared by every validator that tells a user "expected a list, got a string": the manifest
schema check, the configuration and rule-file check, and the Inventory document check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TYPE_PHRASES: dict[str, str] = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
}


def json_type(value: Any) -> str:
    """``"object"``, ``"array"``, ``"string"``, ``"integer"``, ``"number"``, ``"boolean"`` or ``"null"``."""
    if isinstance(value, bool):  # before int: bool is an int in Python
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return "null"


def type_phrase(value: Any) -> str:
    """How a message names the type of ``value`` (``"a mapping"``, ``"an integer"``, ...)."""
    return TYPE_PHRASES[json_type(value)]
