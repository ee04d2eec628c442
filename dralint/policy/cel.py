"""The one place where policies meet a CEL engine: compile an expression, evaluate it over an object.

Policies see the raw manifest as ``object``, as in a ValidatingAdmissionPolicy. This bridge
uses cel-python directly; when dralint's own CEL environment (``dralint.cel``, with type
checking and cost limits) is available, only this module changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import celpy
from celpy import celtypes
from celpy.adapter import json_to_cel
from celpy.celparser import CELParseError
from celpy.evaluation import CELEvalError, CELUnsupportedError


class CelError(Exception):
    """An expression that does not compile, or fails at run time; ``offset`` is into the expression."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Compiled:
    text: str
    program: Any  # celpy.Runner


_ENV = celpy.Environment()


@lru_cache(maxsize=4096)
def compile_expression(text: str) -> Compiled:
    """The compiled expression; a :class:`CelError` with the offset of the syntax error otherwise."""
    try:
        tree = _ENV.compile(text)
    except CELParseError as error:
        line, column = getattr(error, "line", None), getattr(error, "column", None)
        offset = None
        if isinstance(line, int) and isinstance(column, int):
            lines = text.split("\n")
            offset = sum(len(x) + 1 for x in lines[: line - 1]) + column - 1
        raise CelError("CEL syntax error", offset) from None
    return Compiled(text, _ENV.program(tree))


def evaluate(compiled: Compiled, obj: Mapping[str, Any]) -> Any:
    """The value of ``compiled`` with ``object`` bound to ``obj``, as a plain Python value."""
    try:
        value = compiled.program.evaluate({"object": json_to_cel(dict(obj))})
    except (CELEvalError, CELUnsupportedError) as error:
        raise CelError(_message(error)) from None
    except (TypeError, ValueError, KeyError, ZeroDivisionError, OverflowError) as error:
        raise CelError(str(error) or type(error).__name__) from None
    if isinstance(value, CELEvalError):
        raise CelError(_message(value))
    return _plain(value)


def _message(error: Exception) -> str:
    text = str(error.args[0]) if error.args else type(error).__name__
    return text.split(" (in activation", 1)[0]


def _plain(value: Any) -> Any:
    if isinstance(value, celtypes.BoolType):
        return bool(value)
    if isinstance(value, (celtypes.IntType, celtypes.UintType)):
        return int(value)
    if isinstance(value, celtypes.DoubleType):
        return float(value)
    if isinstance(value, celtypes.StringType):
        return str(value)
    if isinstance(value, celtypes.ListType):
        return [_plain(v) for v in value]
    if isinstance(value, celtypes.MapType):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value
