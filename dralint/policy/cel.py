"""The one place where policies meet the CEL engine: compile an expression, evaluate it over an object.

Policies see the raw manifest as ``object`` (type ``dyn``), with Kubernetes' CEL libraries, as
in a ValidatingAdmissionPolicy; :mod:`dralint.cel` parses, type-checks and evaluates them with
cel-go's semantics and messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from dralint import cel
from dralint.cel.checker.types import BOOL, STRING, is_dyn
from dralint.cel.errors import CelCompileError, CelError, CelRuntimeError
from dralint.dataclass import dataclass

__all__ = ["CelCompileError", "CelError", "CelRuntimeError", "Compiled", "compile_expression", "evaluate"]

Result = Literal["bool", "string"]
_TYPES = {"bool": BOOL, "string": STRING}


@dataclass(frozen=True, slots=True)
class Compiled:
    text: str
    program: cel.Program


def compile_expression(text: str, result: Result = "bool") -> Compiled:
    """The compiled expression; a :class:`CelCompileError` (the first problem and its offset) otherwise.

    Like Kubernetes, an expression whose type is known to be something other than ``result``
    is rejected here; ``dyn`` results are checked when evaluated.
    """
    try:
        program = cel.compile(text, cel.policy_environment())
    except cel.CelCompileError as error:
        offset, message = error.issues[0]
        raise CelCompileError(message, offset) from None
    wanted = _TYPES[result]
    if program.output_type != wanted and not is_dyn(program.output_type):
        raise CelCompileError(f"must evaluate to {result}, not {program.output_type}", stage="result-type")
    return Compiled(text, program)


def evaluate(compiled: Compiled, obj: Mapping[str, Any]) -> Any:
    """The value of ``compiled`` with ``object`` bound to ``obj`` (plain Python values in and out);
    a :class:`CelRuntimeError` when evaluation fails."""
    return compiled.program.evaluate({"object": obj})
