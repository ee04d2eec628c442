"""A profile's configuration rules: CEL over ``self`` (the parameters), as x-kubernetes-validations are written."""

from __future__ import annotations

from functools import cache
from typing import Any

from dralint.cel import CelCompileError, CelRuntimeError, Program

__all__ = ["compile_rule", "holds"]


@cache  # a rule is checked against the parameters of every configuration that names its kind
def compile_rule(expression: str) -> Program:
    """The rule compiled in Kubernetes' CEL environment with ``self`` of type dyn; raises :class:`CelCompileError`."""
    from dralint.cel import compile, policy_environment
    from dralint.cel.checker.types import BOOL, DYN

    program: Program = compile(expression, policy_environment({"self": DYN}))
    if program.output_type not in (BOOL, DYN):
        raise CelCompileError(f"a rule must evaluate to bool, not {program.output_type.name}", 0, ())
    return program


def holds(expression: str, parameters: Any) -> bool | str:
    """True when the rule holds for ``parameters``, False when it does not, the error text when it fails to evaluate."""
    try:
        result = compile_rule(expression).evaluate({"self": parameters})
    except CelRuntimeError as error:
        return error.message
    return result is True
