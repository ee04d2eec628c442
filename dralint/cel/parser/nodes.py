"""The CEL abstract syntax tree (macros already expanded), as cel-go's parser produces it.

Every node has a unique ``id``; the parser records each id's source offset separately, and the
checker records each id's type, so nodes stay plain immutable values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from dralint.dataclass import dataclass

__all__ = [
    "Call",
    "Comprehension",
    "CreateList",
    "CreateMap",
    "CreateStruct",
    "Expr",
    "Ident",
    "Literal",
    "MapEntry",
    "Select",
    "substitute",
]


@dataclass(frozen=True, slots=True, eq=False)
class Literal:
    id: int
    value: object  # int, UInt, float, str, bytes, bool or None
    kind: str  # "int", "uint", "double", "string", "bytes", "bool", "null"


@dataclass(frozen=True, slots=True, eq=False)
class Ident:
    id: int
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Select:
    id: int
    operand: Expr
    field: str
    test_only: bool = False  # has(operand.field)


@dataclass(frozen=True, slots=True, eq=False)
class Call:
    id: int
    function: str
    args: tuple[Expr, ...]
    target: Expr | None = None  # receiver of a member call


@dataclass(frozen=True, slots=True, eq=False)
class CreateList:
    id: int
    elements: tuple[Expr, ...]
    optional_indices: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class MapEntry:
    id: int
    key: Expr
    value: Expr
    optional: bool = False


@dataclass(frozen=True, slots=True, eq=False)
class CreateMap:
    id: int
    entries: tuple[MapEntry, ...]


@dataclass(frozen=True, slots=True, eq=False)
class CreateStruct:
    """A message literal ``Type{field: value}``; no message types are declared, so it never checks."""

    id: int
    type_name: str
    fields: tuple[tuple[int, str, Expr, bool], ...]


@dataclass(frozen=True, slots=True, eq=False)
class Comprehension:
    id: int
    iter_range: Expr
    iter_var: str
    accu_var: str
    accu_init: Expr
    loop_condition: Expr
    loop_step: Expr
    result: Expr
    iter_var2: str | None = None


Expr = Literal | Ident | Select | Call | CreateList | CreateMap | CreateStruct | Comprehension


def walk(expr: Expr) -> list[Expr]:
    """Every node of ``expr``, parents before children (iterative: trees can be deep)."""
    out: list[Expr] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(children(node)))
    return out


def children(node: Expr) -> list[Expr]:
    """The direct subexpressions of ``node``, in source order."""
    return _CHILDREN.get(node.__class__, _leaf)(node)


def _leaf(node: Expr) -> list[Expr]:
    return []


# By node class (every class is final): walks look up each node's children, thousands per run.
_CHILDREN: dict[type, Callable[[Any], list[Expr]]] = {
    Select: lambda node: [node.operand],
    Call: lambda node: ([node.target] if node.target is not None else []) + list(node.args),
    CreateList: lambda node: list(node.elements),
    CreateMap: lambda node: [x for entry in node.entries for x in (entry.key, entry.value)],
    CreateStruct: lambda node: [value for _, _, value, _ in node.fields],
    Comprehension: lambda node: [node.iter_range, node.accu_init, node.loop_condition, node.loop_step, node.result],
}


def substitute(node: Expr, by_id: Mapping[int, Expr]) -> Expr:
    """``node`` with the subtrees whose ids are in ``by_id`` replaced."""
    found = by_id.get(node.id)
    if found is not None:
        return found
    if isinstance(node, Select):
        return replace(node, operand=substitute(node.operand, by_id))
    if isinstance(node, Call):
        target = substitute(node.target, by_id) if node.target is not None else None
        return replace(node, target=target, args=tuple(substitute(a, by_id) for a in node.args))
    if isinstance(node, CreateList):
        return replace(node, elements=tuple(substitute(e, by_id) for e in node.elements))
    if isinstance(node, CreateMap):
        entries = tuple(
            MapEntry(e.id, substitute(e.key, by_id), substitute(e.value, by_id), e.optional) for e in node.entries
        )
        return replace(node, entries=entries)
    if isinstance(node, CreateStruct):
        return replace(node, fields=tuple((i, n, substitute(v, by_id), o) for i, n, v, o in node.fields))
    if isinstance(node, Comprehension):
        return replace(
            node,
            iter_range=substitute(node.iter_range, by_id),
            accu_init=substitute(node.accu_init, by_id),
            loop_condition=substitute(node.loop_condition, by_id),
            loop_step=substitute(node.loop_step, by_id),
            result=substitute(node.result, by_id),
        )
    return node
