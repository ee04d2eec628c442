"""TEMPORARY stand-in for the DRA CEL engine (branch ``cel``), over cel-python.

TEMPORARY: this module exists only on the ``allocator`` branch so the allocator can be built and
tested before the real engine lands on ``main``. It implements the agreed API (``CelError``,
``CelCompileError``, ``CelRuntimeError``, ``selector_environment``, ``compile_selector``,
``Selector.matches``, ``device_value``) well enough for simple selectors: attribute and capacity
access, quantity and semver helpers, ``includes``, and the ``.?name.orValue(x)`` form. When the
real engine is merged this file is replaced by main's ``dralint/cel/`` entirely.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import celpy
from celpy import celtypes
from celpy.celparser import CELParseError
from celpy.evaluation import CELEvalError

from dralint.api import model
from dralint.quantity import Quantity, QuantityError, parse_quantity

__all__ = [
    "CelCompileError",
    "CelError",
    "CelRuntimeError",
    "DeviceValue",
    "Environment",
    "Selector",
    "compile_selector",
    "device_value",
    "selector_environment",
]


class CelError(Exception):
    """A CEL failure; ``message`` is the text after ``CEL compile/runtime error: ``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CelCompileError(CelError):
    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset


class CelRuntimeError(CelError):
    pass


@dataclass(frozen=True)
class Environment:
    """The selector environment (the temporary engine has only one)."""

    name: str = "stored"


_STORED = Environment()


def selector_environment(*, target: Any = None) -> Environment:
    return _STORED


_SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)


class _Semver:
    __slots__ = ("key", "text")

    def __init__(self, text: str) -> None:
        match = _SEMVER.match(text)
        if match is None:
            raise ValueError(f"invalid semantic version {text!r}")
        self.text = text
        pre = match.group(4)
        pre_key: tuple[Any, ...] = (
            (1,) if pre is None else (0, *((0, int(p)) if p.isdigit() else (1, p) for p in pre.split(".")))
        )
        self.key = (int(match.group(1)), int(match.group(2)), int(match.group(3)), pre_key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Semver) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


class _Quantity:
    __slots__ = ("q",)

    def __init__(self, q: Quantity) -> None:
        self.q = q

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Quantity) and self.q == other.q

    def __hash__(self) -> int:
        return hash(self.q)


class _DomainMap(celtypes.MapType):
    """``device.attributes`` / ``device.capacity``: an unknown domain is an empty map."""

    def __getitem__(self, key: Any) -> Any:
        try:
            return super().__getitem__(key)
        except KeyError:
            return celtypes.MapType({})


@dataclass(frozen=True)
class DeviceValue:
    """The CEL ``device`` variable, or the conversion error raised by every evaluation."""

    activation: dict[str, Any]
    error: str | None


def _attribute_value(attribute: model.DeviceAttribute) -> Any:
    kind, value = attribute.kind, attribute.value
    if kind == "":
        raise ValueError("unsupported attribute value")
    if kind in ("ints", "bools", "strings", "versions"):
        return celtypes.ListType([_scalar(kind[:-1], v) for v in value])
    return _scalar(kind, value)


def _scalar(kind: str, value: Any) -> Any:
    if kind == "int":
        return celtypes.IntType(value)
    if kind == "bool":
        return celtypes.BoolType(value)
    if kind == "string":
        return celtypes.StringType(value)
    try:
        return _Semver(value)
    except ValueError as error:
        raise ValueError(f"parse semantic version: {error}") from None


def _split(key: str, driver: str) -> tuple[str, str]:
    domain, sep, ident = key.partition("/")
    return (domain, ident) if sep else (driver, key)


def device_value(driver: str, device: model.Device) -> DeviceValue:
    """The ``device`` variable for ``device`` of ``driver``; conversion errors are deferred."""
    attributes: dict[Any, dict[Any, Any]] = {}
    error = None
    for key, attribute in device.attributes.items():
        domain, ident = _split(key, driver)
        try:
            value = _attribute_value(attribute)
        except ValueError as problem:
            error = error or f"attribute {key}: {problem}"
            continue
        attributes.setdefault(celtypes.StringType(domain), {})[celtypes.StringType(ident)] = value
    capacity: dict[Any, dict[Any, Any]] = {}
    for key, entry in device.capacity.items():
        domain, ident = _split(key, driver)
        capacity.setdefault(celtypes.StringType(domain), {})[celtypes.StringType(ident)] = _Quantity(entry.value)
    value = celtypes.MapType(
        {
            celtypes.StringType("driver"): celtypes.StringType(driver),
            celtypes.StringType("attributes"): _DomainMap({k: celtypes.MapType(v) for k, v in attributes.items()}),
            celtypes.StringType("capacity"): _DomainMap({k: celtypes.MapType(v) for k, v in capacity.items()}),
            celtypes.StringType("allowMultipleAllocations"): celtypes.BoolType(
                device.allow_multiple_allocations is True
            ),
        }
    )
    return DeviceValue({"device": value}, error)


# --- functions ------------------------------------------------------------------------------


def _compare(a: Any, b: Any) -> int:
    if isinstance(a, _Quantity) and isinstance(b, _Quantity):
        return a.q.cmp(b.q)
    if isinstance(a, _Semver) and isinstance(b, _Semver):
        return (a.key > b.key) - (a.key < b.key)
    raise TypeError("no such overload")


def _quantity(text: Any) -> _Quantity:
    try:
        return _Quantity(parse_quantity(str(text)))
    except QuantityError as error:
        raise ValueError(str(error)) from None


def _includes(items: Any, value: Any) -> celtypes.BoolType:
    if isinstance(items, list):
        if len(items) > 48:
            raise ValueError("'includes' function cannot be applied to lists longer than 48 values")
        return celtypes.BoolType(any(item == value for item in items))
    return celtypes.BoolType(items == value)


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "quantity": _quantity,
    "isQuantity": lambda s: celtypes.BoolType(_try(lambda: parse_quantity(str(s)))),
    "semver": lambda s, *_: _Semver(str(s)),
    "isSemver": lambda s, *_: celtypes.BoolType(_try(lambda: _Semver(str(s)))),
    "compareTo": lambda a, b: celtypes.IntType(_compare(a, b)),
    "isGreaterThan": lambda a, b: celtypes.BoolType(_compare(a, b) > 0),
    "isLessThan": lambda a, b: celtypes.BoolType(_compare(a, b) < 0),
    "asInteger": lambda a: celtypes.IntType(a.q.ceil_int()),
    "isInteger": lambda a: celtypes.BoolType(a.q.is_integer()),
    "asApproximateFloat": lambda a: celtypes.DoubleType(a.q.as_float()),
    "sign": lambda a: celtypes.IntType(a.q.sign()),
    "major": lambda v: celtypes.IntType(v.key[0]),
    "minor": lambda v: celtypes.IntType(v.key[1]),
    "patch": lambda v: celtypes.IntType(v.key[2]),
    "includes": _includes,
    "lowerAscii": lambda s: celtypes.StringType(str(s).lower()),
    "upperAscii": lambda s: celtypes.StringType(str(s).upper()),
}


def _try(function: Callable[[], Any]) -> bool:
    try:
        function()
    except (ValueError, QuantityError):
        return False
    return True


# --- compilation ----------------------------------------------------------------------------

_OPTIONAL = re.compile(r"\.\?(\w+)\.orValue\(")
_IDENT = re.compile(r"(?<![\w.\"'])([A-Za-z_]\w*)\b(?!\s*\()")
_BOUND = re.compile(r"\.(?:all|exists|exists_one|map|filter)\(\s*(\w+)")
_KNOWN = {"device", "true", "false", "null", "in", "int", "uint", "double", "string", "bool", "bytes", "list", "map"}


def _rewrite_optional(expression: str) -> str:
    """``X.?f.orValue(D)`` → ``(has(X.f) ? X.f : D)`` for a bracketed or dotted ``X``."""
    while (match := _OPTIONAL.search(expression)) is not None:
        start = _operand_start(expression, match.start())
        end = _closing(expression, match.end())
        base, name = expression[start : match.start()], match.group(1)
        default = expression[match.end() : end]
        expression = expression[:start] + f"(has({base}.{name}) ? {base}.{name} : ({default}))" + expression[end + 1 :]
    return expression


def _operand_start(text: str, end: int) -> int:
    depth, index = 0, end - 1
    while index >= 0:
        char = text[index]
        if char in ")]":
            depth += 1
        elif char in "([":
            if depth == 0:
                return index + 1
            depth -= 1
        elif depth == 0 and not (char.isalnum() or char in "_.\"'/-"):
            return index + 1
        index -= 1
    return 0


def _closing(text: str, start: int) -> int:
    depth, in_string = 0, ""
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if char == in_string:
                in_string = ""
        elif char in "\"'":
            in_string = char
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return index
            depth -= 1
    raise CelCompileError("compilation failed: unbalanced parentheses")


def _check_identifiers(expression: str) -> None:
    without_strings = re.sub(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'", '""', expression)
    bound = set(_BOUND.findall(without_strings))
    for match in _IDENT.finditer(without_strings):
        name = match.group(1)
        if name not in _KNOWN and name not in bound and name not in _FUNCTIONS:
            raise CelCompileError(
                f"compilation failed: ERROR: <input>:1:{match.start() + 1}: undeclared reference to '{name}'"
                " (in container '')",
                match.start(),
            )


class Selector:
    """A compiled device selector."""

    def __init__(self, expression: str, runner: Any) -> None:
        self.expression = expression
        self._runner = runner

    def matches(self, device: DeviceValue) -> bool:
        if device.error is not None:
            raise CelRuntimeError(device.error)
        try:
            result = self._runner.evaluate(device.activation)
        except CELEvalError as error:
            raise CelRuntimeError(_message(error)) from None
        except (TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError) as error:
            raise CelRuntimeError(str(error) or type(error).__name__) from None
        if isinstance(result, CELEvalError):
            raise CelRuntimeError(_message(result))
        if not isinstance(result, (bool, celtypes.BoolType)):
            raise CelRuntimeError(f"CEL result of type {type(result).__name__} could not be converted to bool")
        return bool(result)


def _message(error: Exception) -> str:
    args = error.args
    text = str(args[0]) if args else str(error)
    match = re.search(r"no such member in mapping: '([^']*)'", text)
    if match:
        return (
            f"no such key: {match.group(1)}. consider using CEL optional chaining (.? followed by orValue()) "
            "or guarding the check with has() for optional fields"
        )
    return text


_ENV = celpy.Environment()


def compile_selector(expression: str, env: Environment | None = None) -> Selector:
    """Compile ``expression`` (raising :class:`CelCompileError`)."""
    rewritten = _rewrite_optional(expression)
    _check_identifiers(rewritten)
    try:
        ast = _ENV.compile(rewritten)
    except CELParseError as error:
        raise CelCompileError(f"compilation failed: ERROR: <input>: Syntax error: {error}") from None
    return Selector(expression, _ENV.program(ast, functions=_FUNCTIONS))
