"""The pieces compiled CEL programs are made of: closures over a frame, constants, errors as values (and
errors that name the node raising them), cost.

A compiled node is a closure taking the *frame* (a list: slot 0 is the running cost, then one
slot per variable and per comprehension variable) and returning a value or raising
:class:`CelRuntimeError`. Compiling a node gives the closure and, for constants, the value
(``NOT_CONSTANT`` otherwise).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from dralint.cel.errors import CelRuntimeError

if TYPE_CHECKING:
    from dralint.cel.parser.nodes import Expr

__all__ = [
    "NOT_CONSTANT",
    "Cancelled",
    "Compiles",
    "ErrorValue",
    "Fn",
    "FoldError",
    "LocatedError",
    "add_cost",
    "const",
    "located",
]

Fn = Callable[[list[Any]], Any]
NOT_CONSTANT = object()


class Compiles(Protocol):
    """What the compilers of special forms (operators, comprehensions) ask of the compiler that calls them.

    A protocol, so that those modules need not import the compiler, which imports them.
    """

    track: bool  # whether the runtime cost is tracked
    limit: int  # the runtime cost limit
    scopes: list[dict[str, tuple[int, bool]]]  # name -> (frame slot, may hold an error), innermost last

    def slot(self) -> int: ...

    def charge(self, fn: Fn, cost: int) -> Fn: ...

    def compile(self, e: Expr) -> tuple[Fn, Any]: ...

    def value(self, e: Expr) -> Fn: ...


class Cancelled(Exception):
    """The runtime cost limit was exceeded; never absorbed by ``&&``, ``||`` or comprehensions."""


class FoldError(Exception):
    """Folding a constant failed: cel-go reports it as ``program instantiation failed``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ErrorValue:
    """An error held as a value in a comprehension accumulator or a ``cel.bind`` variable."""

    __slots__ = ("error",)

    def __init__(self, error: CelRuntimeError) -> None:
        self.error = error


def add_cost(f: list[Any], cost: int, limit: int) -> None:
    """Charge ``cost`` to the frame; past ``limit`` evaluation stops."""
    f[0] += cost
    if f[0] > limit:
        raise Cancelled


def const(value: Any) -> Fn:
    """The closure of a constant."""

    def const(f: list[Any]) -> Any:
        return value

    return const


class LocatedError(CelRuntimeError):
    """A runtime error and the id of the innermost node that raised it."""

    def __init__(self, message: str, node: int) -> None:
        super().__init__(message)
        self.node = node


def located(fn: Fn, node: int) -> Fn:
    """``fn`` whose plain runtime errors become :class:`LocatedError` naming ``node`` (the innermost wins)."""

    def run(f: list[Any]) -> Any:
        try:
            return fn(f)
        except LocatedError:
            raise
        except CelRuntimeError as error:
            if type(error) is not CelRuntimeError:  # a kind of its own (the cost limit): left as it is
                raise
            raise LocatedError(error.message, node) from None

    return run
