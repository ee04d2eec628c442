"""Constant arguments of CEL calls that are wrong whatever the device, found when an expression compiles.

cel-go checks some literals when it compiles (``matches`` patterns, durations, timestamps) and
compiles constant patterns of ``find``/``findAll`` when it builds the program; those are compile
errors, and :func:`invalid_patterns` adds where the pattern is and what it was probably meant to
be. The parsing functions of Kubernetes' libraries are left to run time: ``semver("550.127.08")``
raises an error on every device it is evaluated on, ``isSemver("550.127.08")`` is always false.
:func:`invalid_constants` evaluates such calls on their literal arguments with the environment's
own implementation, so what it reports is exactly what the call would do on a device.
"""

from __future__ import annotations

from collections.abc import Callable

from dralint.cel.checker.decls import Environment
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib.strings import REGEX_FUNCTIONS, compile_pattern, quote
from dralint.cel.parser.nodes import Call, Expr, Literal, walk
from dralint.cel.program import parsed_and_checked
from dralint.cel.repairs import repair_pattern, repair_quantity, repair_semver
from dralint.dataclass import dataclass

__all__ = ["InvalidConstant", "invalid_constants", "invalid_patterns"]

# Functions that parse their (first) string argument: the repair for a malformed one.
_PARSERS: dict[str, Callable[[str], str | None] | None] = {
    "semver": repair_semver,
    "isSemver": repair_semver,
    "quantity": repair_quantity,
    "isQuantity": repair_quantity,
    "ip": None,
    "isIP": None,
    "cidr": None,
    "isCIDR": None,
    "url": None,
    "isURL": None,
}
_TESTS = frozenset(("isSemver", "isQuantity", "isIP", "isCIDR", "isURL"))


@dataclass(frozen=True, slots=True)
class InvalidConstant:
    """A call on a constant that fails (``error``) or, for a test like ``isSemver``, is always false."""

    offset: int | None  # of the constant argument in the expression
    call: str  # the call as CEL text: semver("550.127.08")
    function: str
    error: str  # the library's message for the constant
    always_false: bool  # a test (isSemver, isQuantity, ...) rather than a conversion
    value: str  # the constant
    suggestion: str | None  # the constant most likely meant
    corrected: str | None  # the call with it: semver("550.127.8")


def invalid_constants(expression: str, env: Environment) -> list[InvalidConstant]:
    """Calls of Kubernetes' parsing functions whose arguments are all literals and that fail on them.

    ``expression`` must compile in ``env`` (a type error leaves nothing to report here)."""
    parsed, checked = parsed_and_checked(expression, env)
    if checked is None or checked.issues:
        return []
    found: list[InvalidConstant] = []
    for node in walk(checked.expr):
        if not isinstance(node, Call) or node.target is not None or node.function not in _PARSERS:
            continue
        if not node.args or not all(isinstance(arg, Literal) for arg in node.args):
            continue
        first = node.args[0]
        assert isinstance(first, Literal)
        if not isinstance(first.value, str):
            continue
        overloads = checked.overloads.get(node.id, ())
        if len(overloads) != 1 or overloads[0].impl is None:
            continue
        values = [arg.value for arg in node.args if isinstance(arg, Literal)]
        try:
            result = overloads[0].impl(*values)
            error = None
        except CelRuntimeError as raised:
            result, error = None, raised.message
        test = node.function in _TESTS
        if error is None and not (test and result is False):
            continue
        repair = _PARSERS[node.function]
        suggestion = repair(first.value) if repair is not None else None
        rest = [_literal_text(arg) for arg in node.args[1:] if isinstance(arg, Literal)]
        found.append(
            InvalidConstant(
                offset=parsed.offsets.get(first.id),
                call=_call(node.function, first.value, rest),
                function=node.function,
                error=error if error is not None else _why_false(node.function, values, env),
                always_false=test,
                value=first.value,
                suggestion=suggestion,
                corrected=_call(node.function, suggestion, rest) if suggestion is not None else None,
            )
        )
    return found


def invalid_patterns(expression: str, env: Environment) -> list[InvalidConstant]:
    """Constant patterns of ``matches``, ``find`` and ``findAll`` that RE2 refuses (a compile error)."""
    parsed, checked = parsed_and_checked(expression, env)
    if checked is None:
        return []
    found: list[InvalidConstant] = []
    for node in walk(checked.expr):
        if not isinstance(node, Call) or node.function not in REGEX_FUNCTIONS:
            continue
        arguments: tuple[Expr, ...] = ((node.target,) if node.target is not None else ()) + node.args
        position = REGEX_FUNCTIONS[node.function]
        pattern = arguments[position] if position < len(arguments) else None
        if not isinstance(pattern, Literal) or not isinstance(pattern.value, str):
            continue
        try:
            compile_pattern(pattern.value)
        except CelRuntimeError as error:
            suggestion = repair_pattern(pattern.value)
            found.append(
                InvalidConstant(
                    offset=parsed.offsets.get(pattern.id),
                    call=_call(node.function, pattern.value, []),
                    function=node.function,
                    error=error.message,
                    always_false=False,
                    value=pattern.value,
                    suggestion=suggestion,
                    corrected=_call(node.function, suggestion, []) if suggestion is not None else None,
                )
            )
    return found


def _call(function: str, value: str, rest: list[str]) -> str:
    return f"{function}({', '.join([quote(value), *rest])})"


def _literal_text(node: Literal) -> str:
    if isinstance(node.value, str):
        return quote(node.value)
    if isinstance(node.value, bool):
        return "true" if node.value else "false"
    return str(node.value)


def _why_false(function: str, values: list[object], env: Environment) -> str:
    """The error the conversion a test stands for gives on the same arguments (``isSemver`` -> ``semver``)."""
    conversion = function[2:].lower() if function in ("isIP", "isCIDR", "isURL") else function[2].lower() + function[3:]
    declared = env.functions.get(conversion)
    for overload in declared.overloads if declared is not None else ():
        if overload.impl is not None and len(overload.args) == len(values):
            try:
                overload.impl(*values)
            except CelRuntimeError as error:
                return error.message
    return "not a valid value"
