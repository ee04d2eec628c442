"""cel-go's AST validators Kubernetes enables: homogeneous aggregate literals, literal regexes, durations,
timestamps, and the strings extension's format calls.

They run after type-checking succeeds and report like checker errors (node id, message).
"""

from __future__ import annotations

from dralint.cel.checker.check import Checked, mismatch
from dralint.cel.checker.decls import Environment
from dralint.cel.checker.types import Type, equivalent
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib.format import check_format_call
from dralint.cel.lib.strings import compile_pattern
from dralint.cel.parser.nodes import Call, CreateList, CreateMap, Literal, walk

__all__ = ["validate"]


def validate(checked: Checked, env: Environment) -> list[tuple[int, str]]:
    """Every validator's issues (cel-go runs them all; the report sorts them by position)."""
    issues = _homogeneous_literals(checked) if env.homogeneous_literals else []
    for node in walk(checked.expr):
        if not isinstance(node, Call):
            continue
        if env.literal_validators and node.function in ("matches", "duration", "timestamp") and node.args:
            literal = node.args[0]
            if isinstance(literal, Literal) and not _literal_ok(node.function, literal, env):
                issues.append((literal.id, f"invalid {node.function} argument"))
        if node.function == "format" and node.target is not None and env.extra.get("format_validator"):
            found = check_format_call(node, checked.types)
            if found is not None:
                issues.append(found)
    return issues


def _literal_ok(function: str, literal: Literal, env: Environment) -> bool:
    if function == "matches":
        if not isinstance(literal.value, str):
            return True
        try:
            compile_pattern(literal.value)
        except CelRuntimeError:
            return False
        return True
    overloads = env.functions[function].overloads
    for overload in overloads:
        if overload.impl is not None and literal.kind == overload.args[0].kind:
            try:
                overload.impl(literal.value)
            except CelRuntimeError:
                return False
            return True
    return True


def _homogeneous_literals(checked: Checked) -> list[tuple[int, str]]:
    """cel-go's homogeneous aggregate literal validator (exact element types, ``dyn`` included).

    Literals anywhere inside a ``format`` call are exempt (the strings extension exempts them).
    """
    issues: list[tuple[int, str]] = []
    exempt: set[int] = set()
    for node in walk(checked.expr):
        if isinstance(node, Call) and node.function == "format":
            exempt.update(n.id for n in walk(node) if n is not node)
    for node in walk(checked.expr):
        if node.id in exempt:
            continue
        if isinstance(node, CreateList):
            first: Type | None = None
            for index, element in enumerate(node.elements):
                t = checked.types[element.id]
                if index in node.optional_indices and t.params:
                    t = t.params[0]
                if first is None:
                    first = t
                elif not equivalent(first, t):
                    issues.append((element.id, mismatch(first, t)))
                    break
        elif isinstance(node, CreateMap):
            key_type: Type | None = None
            value_type: Type | None = None
            for entry in node.entries:
                kt = checked.types[entry.key.id]
                vt = checked.types[entry.value.id]
                if entry.optional and vt.params:
                    vt = vt.params[0]
                if key_type is None or value_type is None:
                    key_type, value_type = kt, vt
                    continue
                if not equivalent(key_type, kt):
                    issues.append((entry.key.id, mismatch(key_type, kt)))
                if not equivalent(value_type, vt):
                    issues.append((entry.value.id, mismatch(value_type, vt)))
    return issues
