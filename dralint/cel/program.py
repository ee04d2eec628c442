"""Compile CEL text in an environment: parse, check, validate, fold; and evaluate the result.

``check`` stops where cel-go's ``env.Compile`` stops (issues as "compilation failed: ..."),
``instantiate`` where ``env.Program`` stops (folding failures as "program instantiation failed:
..."), so callers can put their own checks in between, as Kubernetes does with the result type.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from dralint.cel.checker import validators
from dralint.cel.checker.check import Checked
from dralint.cel.checker.check import check as check_types
from dralint.cel.checker.decls import Environment
from dralint.cel.checker.estimate import estimate
from dralint.cel.checker.types import Type
from dralint.cel.errors import CelCompileError, CelRuntimeError
from dralint.cel.parser.parse import ParseResult, parse
from dralint.cel.runtime.closures import Cancelled, FoldError
from dralint.cel.runtime.compiler import CompiledProgram, LocatedError, compile_checked
from dralint.dataclass import dataclass

__all__ = ["CheckedExpression", "Program", "check", "compile", "instantiate", "parsed_and_checked", "render_issues"]


@dataclass(frozen=True, slots=True)
class CheckedExpression:
    expression: str
    env: Environment
    checked: Checked

    @property
    def output_type(self) -> Type:
        return self.checked.output_type


class Program:
    """A compiled expression, ready to evaluate against variable values."""

    __slots__ = ("_compiled", "_locating", "checked", "env", "expression", "max_cost", "output_type", "tracks_cost")

    def __init__(self, checked: CheckedExpression, compiled: CompiledProgram, max_cost: int, tracks_cost: bool) -> None:
        self.checked = checked.checked
        self.expression = checked.expression
        self.env = checked.env
        self.output_type = checked.output_type
        self.max_cost = max_cost
        self.tracks_cost = tracks_cost
        self._compiled = compiled
        self._locating: CompiledProgram | None = None

    @property
    def variables(self) -> Mapping[str, int]:
        """Variable name -> frame slot, for callers that build frames themselves."""
        return self._compiled.slots

    def new_frame(self) -> list[Any]:
        return [0] * self._compiled.size

    @property
    def function(self) -> Any:
        """The compiled closure itself (``function(frame)``; may raise ``Cancelled``)."""
        return self._compiled.fn

    def run(self, frame: list[Any]) -> Any:
        """Evaluate with a prepared frame (see :attr:`variables`); raises :class:`CelRuntimeError`."""
        try:
            return self._compiled.fn(frame)
        except Cancelled:
            raise CelRuntimeError("operation cancelled: actual cost limit exceeded") from None
        except RecursionError:
            raise CelRuntimeError("max recursion depth exceeded") from None

    def evaluate(self, activation: Mapping[str, Any] | None = None) -> Any:
        """The value of the expression for ``activation`` (variable name -> plain Python value)."""
        return self.run(self._compiled.frame(activation or {}))

    def error_offset(self, activation: Mapping[str, Any]) -> int | None:
        """Where evaluating for ``activation`` fails: the 0-based offset in the expression of the
        innermost node raising the error (a ``.field`` at its dot, a call at its parenthesis), or
        ``None`` when it does not fail or the error belongs to no node (the cost limit)."""
        if self._locating is None:
            self._locating = compile_checked(self.checked, self.env, track_cost=False, locate=True)
        try:
            self._locating.fn(self._locating.frame(activation))
        except LocatedError as error:
            return parsed_and_checked(self.expression, self.env)[0].offsets.get(error.node)
        except (CelRuntimeError, Cancelled, RecursionError):
            return None
        return None


def render_issues(expression: str, issues: list[tuple[int | None, str]]) -> str:
    """cel-go's ``Issues.String()``: every error with its location and a source snippet."""
    lines = expression.split("\n")
    rendered: list[tuple[int, int, str]] = []
    for offset, message in issues:
        if offset is None:
            rendered.append((-1, -1, f"ERROR: <input>:-1:0: {message}"))
            continue
        before = expression[:offset]
        line = before.count("\n") + 1
        column = offset - (before.rfind("\n") + 1)
        text = f"ERROR: <input>:{line}:{column + 1}: {message}"
        snippet = lines[line - 1] if line - 1 < len(lines) else ""
        if len(snippet.encode("utf-8")) <= 16384:
            snippet = snippet.replace("\t", " ")
            marks = "".join("." if ord(c) < 0x80 else "\uff0e" for c in snippet[:column])
            at = snippet[column : column + 1]
            marks += "\uff3e" if at and ord(at) >= 0x80 else "^"
            text += f"\n | {snippet}\n | {marks}"
        rendered.append((line, column, text))
    rendered.sort(key=lambda item: (item[0], item[1]))
    return "\n".join(text for _, _, text in rendered)


def _first_offset(issues: list[tuple[int | None, str]], expression: str) -> int | None:
    located = [offset for offset, _ in issues if offset is not None]
    if len(located) < len(issues):
        return None
    return min(located, key=lambda o: (expression[:o].count("\n"), o)) if located else None


def check(expression: str, env: Environment) -> CheckedExpression:
    """Parse, type-check and validate; raises :class:`CelCompileError` ("compilation failed: ...").

    The parser, checker and closures recurse once per nesting level: deeply nested expressions
    need the recursion limit that :func:`dralint.process.raise_recursion_limit` sets.
    """
    parsed, checked = parsed_and_checked(expression, env)
    issues: list[tuple[int | None, str]] = [(i.offset, i.message) for i in parsed.issues]
    if not issues and checked is not None:
        issues = [(parsed.offsets.get(i.node_id), i.message) for i in checked.issues]
        if not issues:
            issues = [(parsed.offsets.get(node), message) for node, message in validators.validate(checked, env)]
        if not issues:
            return CheckedExpression(expression, env, checked)
    message = "compilation failed: " + render_issues(expression, issues)
    raise CelCompileError(message, _first_offset(issues, expression), tuple(issues))


@lru_cache(maxsize=4096)
def parsed_and_checked(expression: str, env: Environment) -> tuple[ParseResult, Checked | None]:
    """The syntax tree of ``expression`` and, when it parses, its type check in ``env`` (cached by both:
    a run reads each selector for several checks). Shared between callers: never changed after."""
    parsed = _parsed(expression, env.macros)
    if parsed.issues or parsed.expr is None:
        return parsed, None
    return parsed, check_types(parsed.expr, env)


@lru_cache(maxsize=4096)
def _parsed(expression: str, macros: frozenset[tuple[str, int, bool]]) -> ParseResult:
    # A selector is checked in two environments (as created, as stored) with the same macros.
    return parse(expression, macros=macros)


def instantiate(checked: CheckedExpression) -> Program:
    """Build the closures; a failing constant fold raises "program instantiation failed: ..."."""
    env = checked.env
    max_cost = estimate(checked.checked, env)
    limit = env.cost_limit
    tracks = limit is not None and max_cost > limit
    try:
        compiled = compile_checked(checked.checked, env, track_cost=tracks)
    except FoldError as error:
        message = f"program instantiation failed: {error.message}"
        raise CelCompileError(message, None, (), "instantiate") from None
    return Program(checked, compiled, max_cost, tracks)


@lru_cache(maxsize=4096)
def _compile_cached(expression: str, env: Environment) -> Program | CelCompileError:
    try:
        return instantiate(check(expression, env))
    except CelCompileError as error:
        return error


def compile(expression: str, env: Environment) -> Program:
    """Compile ``expression`` in ``env`` (cached by both); raises :class:`CelCompileError`."""
    result = _compile_cached(expression, env)
    if isinstance(result, CelCompileError):
        raise CelCompileError(result.message, result.offset, result.issues, result.stage)
    return result
