"""cel-go's AST validators Kubernetes enables: literal regexes, durations, timestamps and formats.

They run after type-checking succeeds and report like checker errors (node id, message).
"""

from __future__ import annotations

from dralint.cel.checker import Checked, walk
from dralint.cel.decls import Environment
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib_format import check_format_call
from dralint.cel.nodes import Call, Literal

__all__ = ["validate"]


def validate(checked: Checked, env: Environment) -> list[tuple[int, str]]:
    issues: list[tuple[int, str]] = []
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
        from dralint.cel.lib_strings import compile_pattern

        try:
            compile_pattern(literal.value)
        except CelRuntimeError:
            return False
        return True
    overloads = env.functions[function].overloads
    for overload in overloads:
        arg = overload.args[0]
        if overload.impl is not None and _kind_matches(literal, arg.kind):
            try:
                overload.impl(literal.value)
            except CelRuntimeError:
                return False
            return True
    return True


def _kind_matches(literal: Literal, kind: str) -> bool:
    return literal.kind == kind
