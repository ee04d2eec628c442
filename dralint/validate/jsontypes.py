"""What the schema checks share: the JSON-schema type of a decoded value, how messages name each
type, and the one error they all report (:class:`SchemaError`).

Shared by every validator that tells a user "expected a list, got a string": the manifest
schema check, the configuration and rule-file check, and the Inventory document check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass

Problem = Literal["unknown-field", "wrong-type", "missing-field", "invalid-quantity", "invalid-format"]

# The JSON-schema keywords whose failure is a problem of its own; any other keyword's is "invalid-format".
_PROBLEM_OF_KEYWORD: dict[str, Problem] = {
    "additionalProperties": "unknown-field",
    "required": "missing-field",
    "type": "wrong-type",
}


@dataclass(frozen=True, slots=True)
class SchemaError:
    """One schema defect: what kind, where (relative to the document, map keys marked), the text, a hint."""

    problem: Problem
    path: Path
    message: str
    hint: str | None = None


def problem_of(keyword: str) -> Problem:
    """The kind of problem a failed JSON-schema keyword is."""
    return _PROBLEM_OF_KEYWORD.get(keyword, "invalid-format")


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
