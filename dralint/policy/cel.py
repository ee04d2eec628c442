"""The one place where policies meet the CEL engine: compile an expression, evaluate it over an object.

Policies see the raw manifest as ``object`` (type ``dyn``), with Kubernetes' CEL libraries, as
in a ValidatingAdmissionPolicy; :mod:`dralint.cel` parses, type-checks and evaluates them with
cel-go's semantics and messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from dralint import cel
from dralint.cel.checker.types import BOOL, STRING, is_dyn

Result = Literal["bool", "string"]
_TYPES = {"bool": BOOL, "string": STRING}


class CelError(Exception):
    """An expression that does not compile, or fails at run time; ``offset`` is into the expression."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Compiled:
    text: str
    program: cel.Program


def compile_expression(text: str, result: Result = "bool") -> Compiled:
    """The compiled expression; a :class:`CelError` (with the offset of the first problem) otherwise.

    Like Kubernetes, an expression whose type is known to be something other than ``result``
    is rejected here; ``dyn`` results are checked when evaluated.
    """
    try:
        program = cel.compile(text, cel.policy_environment())
    except cel.CelCompileError as error:
        offset, message = error.issues[0]
        raise CelError(message, offset) from None
    wanted = _TYPES[result]
    if program.output_type != wanted and not is_dyn(program.output_type):
        raise CelError(f"must evaluate to {result}, not {program.output_type}")
    return Compiled(text, program)


def evaluate(compiled: Compiled, obj: Mapping[str, Any]) -> Any:
    """The value of ``compiled`` with ``object`` bound to ``obj`` (plain Python values in and out)."""
    try:
        return compiled.program.evaluate({"object": obj})
    except cel.CelRuntimeError as error:
        raise CelError(error.message) from None
