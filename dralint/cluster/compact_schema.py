"""Validation of the compact ``Inventory`` document against its shipped JSON schema.

The schema (``schemas/inventory.schema.json``) is the single definition of the format;
this module only runs it and turns its errors into (path, message) pairs a check can report
at the right line. Placeholders in strings are checked here too, since a schema cannot say
which names between braces exist.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from dralint import data
from dralint.apimachinery.fieldpath import Key, Path
from dralint.dataclass import dataclass
from dralint.suggest import closest
from dralint.validate.jsontypes import TYPE_PHRASES, SchemaError, problem_of, type_phrase

if TYPE_CHECKING:  # imported when an Inventory document is validated: jsonschema costs 50-80 ms of start-up
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

API_VERSION = "dralint.io/v1alpha1"
KIND = "Inventory"
PLACEHOLDERS = ("pool", "node", "nodeIndex", "index", "partition", "driver")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def _pattern_names() -> dict[str, str]:
    defs = schema()["$defs"]
    return {
        defs["dnsLabel"]["pattern"]: "a DNS label (lower-case letters, digits and '-')",
        defs["driver"]["pattern"]: "a valid driver name (a DNS subdomain such as gpu.example.com)",
        defs["qualifiedName"]["pattern"]: "a valid attribute or capacity name ([domain/]name)",
        defs["quantity"]["anyOf"][0]["pattern"]: "a Kubernetes quantity (such as 40Gi, 500m or 8)",
    }


@cache
def schema() -> dict[str, Any]:
    """The JSON schema of the Inventory document, as shipped with dralint."""
    text = (data.folder("schemas") / "inventory.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


_PATTERN_NAMES: dict[str, str] = {}


@cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


def validate(data: Mapping[str, Any]) -> list[SchemaError]:
    """Every defect of an Inventory document, in document order; empty when it is valid."""
    if not _PATTERN_NAMES:
        _PATTERN_NAMES.update(_pattern_names())
    missing: dict[tuple[int, int], Iterator[str]] = {}
    errors = [_describe(error, missing) for error in _validator().iter_errors(data)]
    errors.extend(_placeholder_errors(data, ()))
    if not errors:
        errors.extend(_bound_errors(data))
        errors.extend(_size_errors(data))
    return sorted(errors, key=lambda e: (len(e.path) == 0, [str(s) for s in e.path]))


def _describe(error: ValidationError, missing: dict[tuple[int, int], Iterator[str]]) -> SchemaError:
    """The error for one of jsonschema's, read from its keyword, keyword value, instance and path (never
    from its English message); ``missing`` tracks which required field each ``required`` error is."""
    inner = _innermost(error)
    if inner is not error:
        missing = {}  # best_match picks the first of a branch's required errors: its first missing field
    error = inner
    path = _path(error.absolute_path)
    if error.validator == "additionalProperties":
        known = _properties(error)
        extra = sorted(set(_mapping(error.instance)) - known)
        if extra:
            match = closest(extra[0], known)
            hint = f"did you mean {match}?" if match else f"known fields: {', '.join(sorted(known))}"
            return SchemaError(
                "unknown-field", (*path, extra[0]), f"unknown field {extra[0]!r} in the Inventory document", hint
            )
    if error.validator == "required":
        return SchemaError("missing-field", path, f"missing required field {_missing_field(error, missing)!r}")
    return SchemaError(problem_of(str(error.validator)), path, _message(error))


def _missing_field(error: ValidationError, missing: dict[tuple[int, int], Iterator[str]]) -> str:
    """The field a ``required`` error is about: jsonschema reports each absent field of the keyword's
    list as one error, in the list's order, so the n-th error of one object and schema is the n-th
    absent field."""
    instance = _mapping(error.instance)
    required: Any = error.validator_value
    absent = missing.setdefault(
        (id(error.instance), id(error.schema)), iter([n for n in required if n not in instance])
    )
    return next(absent, "")


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _properties(error: ValidationError) -> set[str]:
    return set(_mapping(_mapping(error.schema).get("properties")))


def _innermost(error: ValidationError) -> ValidationError:
    """For oneOf/anyOf failures, the error of the branch meant for this kind of value.

    Branches rejected only for their type are not the user's intent ("40 GiB" is a malformed
    quantity, not a malformed object), so they are set aside before picking.
    """
    while error.context:
        relevant = [e for e in error.context if e.validator != "type" or len(e.relative_path) > 0]
        if not relevant:
            break
        from jsonschema.exceptions import best_match

        inner = best_match(relevant)
        if inner is None:
            break
        error = inner
    return error


def _path(steps: Any) -> Path:
    out: list[str | int] = []
    parent_is_map = False
    for step in steps:
        if isinstance(step, int):
            out.append(step)
            parent_is_map = False
        else:
            out.append(Key(step) if parent_is_map else step)
            parent_is_map = step in ("labels", "attributes", "capacity", "counters", "consumes")
    return tuple(out)


def _message(error: ValidationError) -> str:
    validator = error.validator
    if validator == "const" and error.absolute_path and error.absolute_path[-1] == "apiVersion":
        return f"unsupported Inventory apiVersion {error.instance!r}; use {API_VERSION}"
    steps = list(error.absolute_path)
    if len(steps) >= 2 and steps[-2] == "attributes" and validator in ("oneOf", "maxProperties", "minProperties"):
        return (
            f"attribute {steps[-1]!r} must be a plain value (integer, boolean or string) or exactly one of "
            "int, bool, string, version, ints, bools, strings, versions"
        )
    if validator == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        names = " or ".join(TYPE_PHRASES.get(str(t), str(t)) for t in wanted)
        return f"expected {names}, got {type_phrase(error.instance)}"
    if validator == "pattern":
        return f"{error.instance!r} is not {_PATTERN_NAMES.get(str(error.validator_value), 'valid here')}"
    if validator == "oneOf" and len(error.absolute_path) == 3 and error.absolute_path[1] == "networkPools":
        return "a network pool needs exactly one of allNodes, nodePools or nodeSelector"
    return error.message


def _bound_errors(data: Mapping[str, Any]) -> Iterator[SchemaError]:
    """Sizes a schema cannot compare: minCount <= count <= maxCount (the autoscaler's own rule for a node group).

    A pool with a ``nodeSelector`` also has the Nodes it selects, which only the inputs tell: its
    ``count`` is not held to the bounds here.
    """
    for p, pool in enumerate((data.get("spec") or {}).get("nodePools") or []):
        path: Path = ("spec", "nodePools", p)
        low, high = pool.get("minCount"), pool.get("maxCount")
        count = None if pool.get("nodeSelector") else pool["count"]
        if low is not None and high is not None and high < low:
            yield SchemaError(
                "invalid-format",
                (*path, "maxCount"),
                f"maxCount {high} of node pool {pool['name']} is below its minCount {low}",
            )
        elif high is not None and count is not None and count > high:
            yield SchemaError(
                "invalid-format",
                (*path, "count"),
                f"count {count} of node pool {pool['name']} is above its maxCount {high}",
            )
        elif low is not None and count is not None and count < low:
            yield SchemaError(
                "invalid-format",
                (*path, "count"),
                f"count {count} of node pool {pool['name']} is below its minCount {low}",
            )


MAX_NODES = 20_000
MAX_DEVICES = 250_000  # about 250 MB of typed devices


def _size_errors(data: Mapping[str, Any]) -> Iterator[SchemaError]:
    """A valid document can still stand for more objects than a dry-run can hold."""
    error = ExpansionBudget().take(data)
    if error is not None:
        yield error


def size(data: Mapping[str, Any]) -> tuple[int, int]:
    """How many nodes and devices a valid Inventory document expands to."""
    spec = data.get("spec") or {}
    nodes = devices = 0
    for pool in spec.get("nodePools") or []:
        nodes += pool["count"]
        devices += pool["count"] * sum(_group_size(g) for g in pool.get("devices") or [])
    for network in spec.get("networkPools") or []:
        devices += sum(g.get("count", 1) for g in network["devices"])
    return nodes, devices


@dataclass(slots=True)
class ExpansionBudget:
    """The expansion limits, for all Inventory documents of a run together (not each on its own)."""

    nodes: int = 0  # expanded so far
    devices: int = 0

    def take(self, data: Mapping[str, Any]) -> SchemaError | None:
        """Count a valid document in; the error (and nothing counted) when it would exceed a limit."""
        nodes, devices = size(data)
        before = " with the Inventory documents before it" if self.nodes or self.devices else ""
        if self.nodes + nodes > MAX_NODES:
            return SchemaError(
                "invalid-format",
                ("spec", "nodePools"),
                f"the Inventory makes {self.nodes + nodes} nodes{before}; dralint expands at most {MAX_NODES}",
            )
        if self.devices + devices > MAX_DEVICES:
            return SchemaError(
                "invalid-format",
                ("spec",),
                f"the Inventory makes {self.devices + devices} devices{before}; dralint expands at most {MAX_DEVICES}",
            )
        self.nodes += nodes
        self.devices += devices
        return None


def _group_size(group: Mapping[str, Any]) -> int:
    partitions = group.get("partitions")
    per_device = 1 + (sum(p.get("count", 1) for p in partitions["devices"]) if partitions else 0)
    count: int = group.get("count", 1) * per_device
    return count


def _placeholder_errors(data: Any, path: Path) -> Iterator[SchemaError]:
    if isinstance(data, str):
        for match in _PLACEHOLDER.finditer(data):
            if match.group(1) not in PLACEHOLDERS:
                known = ", ".join("{" + p + "}" for p in PLACEHOLDERS)
                yield SchemaError(
                    "invalid-format", path, f"unknown placeholder {match.group(0)} in {data!r}; known: {known}"
                )
    elif isinstance(data, Mapping):
        for key, value in data.items():
            yield from _placeholder_errors(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _placeholder_errors(value, (*path, index))
