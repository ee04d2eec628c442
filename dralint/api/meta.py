"""The typed values DRA objects share with pods (ObjectMeta, NodeSelector), and quantities from YAML.

Split from :mod:`dralint.api.model` (which re-exports everything here) so that reading pod
templates and validating quantities does not import the whole DRA type tree: creating its
frozen dataclasses costs 20-30 ms, a tenth of a one-file run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from dralint.api import read
from dralint.apimachinery.quantity import Quantity, QuantityError, parse_quantity
from dralint.dataclass import dataclass


def quantity(value: Any) -> Quantity | None:
    """A quantity from YAML (a string or a number), or ``None`` when it does not parse."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        value = str(value)  # not through float: an integer beyond 1,024 bits overflows one
    elif isinstance(value, float):
        value = str(int(value)) if value.is_integer() else repr(value)
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
        name=read.text(data, "name"),
        namespace=read.text(data, "namespace"),
        generate_name=read.text(data, "generateName"),
        labels={str(k): v for k, v in read.mapping_or_empty(data, "labels").items() if isinstance(v, str)},
        annotations={str(k): v for k, v in read.mapping_or_empty(data, "annotations").items() if isinstance(v, str)},
        uid=read.text(data, "uid"),
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
    return NodeSelectorRequirement(read.text(data, "key"), read.text(data, "operator"), read.strings(data, "values"))


def node_selector(data: Any) -> NodeSelector | None:
    if not isinstance(data, Mapping):
        return None
    terms = tuple(
        NodeSelectorTerm(
            tuple(_requirement(r) for r in read.items(term, "matchExpressions")),
            tuple(_requirement(r) for r in read.items(term, "matchFields")),
        )
        for term in read.items(data, "nodeSelectorTerms")
    )
    return NodeSelector(terms)
