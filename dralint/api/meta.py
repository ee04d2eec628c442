"""Lenient field readers and the typed values DRA objects share with pods: ObjectMeta, NodeSelector.

Split from :mod:`dralint.api.model` (which re-exports everything here) so that reading pod
templates and validating quantities does not import the whole DRA type tree: creating its
frozen dataclasses costs about 30 ms, a tenth of a one-file run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dralint.quantity import Quantity, QuantityError, parse_quantity

# --- lenient field readers ------------------------------------------------------------------


def _map(data: Any, key: str) -> Mapping[str, Any]:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def _opt_map(data: Any, key: str) -> Mapping[str, Any] | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, Mapping) else None


def _list(data: Any, key: str) -> list[Any]:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, list) else []


def _opt_list(data: Any, key: str) -> list[Any] | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, list) else None


def _str(data: Any, key: str) -> str:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, str) else ""


def _opt_str(data: Any, key: str) -> str | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, str) else None


def _int(data: Any, key: str) -> int:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _opt_int(data: Any, key: str) -> int | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _opt_bool(data: Any, key: str) -> bool | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, bool) else None


def _strs(data: Any, key: str) -> tuple[str, ...]:
    return tuple(v for v in _list(data, key) if isinstance(v, str))


def quantity(value: Any) -> Quantity | None:
    """A quantity from YAML (a string or a number), or ``None`` when it does not parse."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        value = str(int(value)) if float(value).is_integer() else repr(value)
    if not isinstance(value, str):
        return None
    try:
        return parse_quantity(value)
    except QuantityError:
        return None


def _quantities(data: Any) -> dict[str, Quantity]:
    out = {}
    if isinstance(data, Mapping):
        for key, value in data.items():
            parsed = quantity(value)
            if parsed is not None:
                out[str(key)] = parsed
    return out


# --- shared ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ObjectMeta:
    name: str = ""
    namespace: str = ""
    generate_name: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    uid: str = ""


def object_meta(data: Any) -> ObjectMeta:
    return ObjectMeta(
        name=_str(data, "name"),
        namespace=_str(data, "namespace"),
        generate_name=_str(data, "generateName"),
        labels={str(k): v for k, v in _map(data, "labels").items() if isinstance(v, str)},
        annotations={str(k): v for k, v in _map(data, "annotations").items() if isinstance(v, str)},
        uid=_str(data, "uid"),
    )


@dataclass(frozen=True, slots=True)
class NodeSelectorRequirement:
    key: str
    operator: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NodeSelectorTerm:
    match_expressions: tuple[NodeSelectorRequirement, ...] = ()
    match_fields: tuple[NodeSelectorRequirement, ...] = ()


@dataclass(frozen=True, slots=True)
class NodeSelector:
    terms: tuple[NodeSelectorTerm, ...] = ()


def _requirement(data: Any) -> NodeSelectorRequirement:
    return NodeSelectorRequirement(_str(data, "key"), _str(data, "operator"), _strs(data, "values"))


def node_selector(data: Any) -> NodeSelector | None:
    if not isinstance(data, Mapping):
        return None
    terms = tuple(
        NodeSelectorTerm(
            tuple(_requirement(r) for r in _list(term, "matchExpressions")),
            tuple(_requirement(r) for r in _list(term, "matchFields")),
        )
        for term in _list(data, "nodeSelectorTerms")
    )
    return NodeSelector(terms)
