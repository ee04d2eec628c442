"""The operators that cel-go evaluates by their own rules rather than as function calls.

``&&`` and ``||`` absorb errors (and non-booleans) on one side when the other decides, ``?:``
evaluates one branch, ``@not_strictly_false`` turns errors into true (comprehension loop
conditions), optional selection and indexing give optionals, and ``cel.@mapInsert`` builds the
maps of ``transformMap``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dralint.cel.errors import CelRuntimeError
from dralint.cel.parser.nodes import Call, Literal
from dralint.cel.runtime import semantics as runtime
from dralint.cel.runtime.closures import NOT_CONSTANT, Compiles, Fn
from dralint.cel.runtime.values import Optional

__all__ = ["SPECIAL"]


def _logic(compiler: Compiles, e: Call) -> tuple[Fn, Any]:
    left = compiler.value(e.args[0])
    right = compiler.value(e.args[1])
    absorbing = e.function == "_||_"  # true absorbs for ||, false for &&
    other = not absorbing

    def run(f: list[Any]) -> Any:
        error: CelRuntimeError | None = None
        try:
            value = left(f)
        except CelRuntimeError as left_error:
            error = left_error
        else:
            if value is absorbing:
                return absorbing
            if value is not other:
                error = CelRuntimeError("no such overload")
        try:
            value = right(f)
        except CelRuntimeError as right_error:
            raise (error or right_error) from None
        if value is absorbing:
            return absorbing
        if error is not None:
            raise error
        if value is not other:
            runtime.no_such_overload()
        return other

    return run, NOT_CONSTANT


def _conditional(compiler: Compiles, e: Call) -> tuple[Fn, Any]:
    condition = compiler.value(e.args[0])
    truthy = compiler.value(e.args[1])
    falsy = compiler.value(e.args[2])

    def run(f: list[Any]) -> Any:
        value = condition(f)
        if value is True:
            return truthy(f)
        if value is False:
            return falsy(f)
        runtime.no_such_overload()

    return run, NOT_CONSTANT


def _not_strictly_false(compiler: Compiles, e: Call) -> tuple[Fn, Any]:
    operand = compiler.value(e.args[0])

    def run(f: list[Any]) -> bool:
        try:
            return operand(f) is not False
        except CelRuntimeError:
            return True

    return compiler.charge(run, 1), NOT_CONSTANT


def _optional_field(compiler: Compiles, e: Call) -> tuple[Fn, Any]:
    operand = compiler.value(e.args[0])
    literal = e.args[1]
    assert isinstance(literal, Literal)
    name = str(literal.value)

    def run(f: list[Any]) -> Optional:
        value = operand(f)
        if type(value) is Optional:
            return runtime.optional_select(value, name)
        return runtime.optional_select(Optional(True, value), name)

    return compiler.charge(run, 1), NOT_CONSTANT


def _optional_index(compiler: Compiles, e: Call) -> tuple[Fn, Any]:
    operand = compiler.value(e.args[0])
    key_fn = compiler.value(e.args[1])

    def run(f: list[Any]) -> Optional:
        value = operand(f)
        return runtime.optional_index(value, key_fn(f))

    return compiler.charge(run, 1), NOT_CONSTANT


def _map_insert(compiler: Compiles, e: Call) -> tuple[Fn, Any]:
    fns = [compiler.value(a) for a in e.args]

    def run(f: list[Any]) -> dict[Any, Any]:
        values = [fn(f) for fn in fns]
        target = dict(values[0])
        runtime.map_insert(target, values[1:])
        return target

    return compiler.charge(run, 1), NOT_CONSTANT


SPECIAL: dict[str, Callable[[Compiles, Call], tuple[Fn, Any]]] = {
    "_&&_": _logic,
    "_||_": _logic,
    "_?_:_": _conditional,
    "@not_strictly_false": _not_strictly_false,
    "_?._": _optional_field,
    "_[?_]": _optional_index,
    "cel.@mapInsert": _map_insert,
}
