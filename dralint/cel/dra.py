"""DRA device values and selectors (``k8s.io/dynamic-resource-allocation/cel``).

A :class:`DeviceValue` is built once per device; :meth:`Selector.matches` evaluates a selector on
it, memoised by the device's projection onto the attribute and capacity paths the selector reads.
The environments selectors compile in are :mod:`dralint.cel.dra_environment`'s (re-exported here).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dralint.cel.checker.decls import Environment
from dralint.cel.checker.types import ANY, BOOL, DYN, INT, STRING, list_of
from dralint.cel.device import DeviceValue
from dralint.cel.dra_environment import COST_LIMIT, cost_limit_enforced, selector_environment
from dralint.cel.errors import CelCompileError, CelRuntimeError
from dralint.cel.lib.semver import SEMVER
from dralint.cel.lib.semver_value import SemverError
from dralint.cel.lib.semver_value import parse as parse_semver
from dralint.cel.program import Program, check, instantiate
from dralint.cel.runtime.semantics import type_name
from dralint.cel.runtime.values import DefaultMap
from dralint.cel.selector_paths import SelectorPaths, analyse

if TYPE_CHECKING:
    from dralint.api.model import Device

__all__ = [
    "COST_LIMIT",
    "NO_SUCH_KEY_HINT",
    "DeviceValue",
    "Selector",
    "compile_expression",
    "compile_selector",
    "cost_limit_enforced",
    "device_value",
    "estimate_cost",
    "selector_environment",
]

# What Kubernetes appends to a missing-key runtime error (the scheduler's message says it too).
NO_SUCH_KEY_HINT = (
    ". consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for "
    "optional fields"
)


# --- device values -----------------------------------------------------------------------------


def _split(name: str, driver: str) -> tuple[str, str]:
    domain, sep, ident = name.partition("/")
    return (domain, ident) if sep else (driver, name)


def _attribute_value(kind: str, value: Any) -> Any:
    if kind in ("int", "bool", "string"):
        return value
    if kind in ("ints", "bools", "strings"):
        return list(value)
    if kind == "version":
        return parse_semver(value)
    if kind == "versions":
        return [parse_semver(v) for v in value]
    raise ValueError("unsupported attribute value")


# Device values by what they are made of: a generated inventory's devices share their attribute
# and capacity maps (each node's "gpu-3" is the template's), so one value serves thousands of
# devices, and the diagnoses that each need every device's value build it once. The maps are
# kept with the value, so that their ids stay their own.
_VALUES: dict[tuple[str, int, int, object], tuple[Mapping[str, Any], Mapping[str, Any], DeviceValue]] = {}
_VALUES_MAX = 65_536


def device_value(driver: str, device: Device) -> DeviceValue:
    """The CEL ``device`` of ``device`` published by ``driver``; never raises (see ``error``).

    Devices with the same driver, attribute and capacity maps get the same (shared) value."""
    key = (driver, id(device.attributes), id(device.capacity), device.allow_multiple_allocations)
    known = _VALUES.get(key)
    if known is not None and known[0] is device.attributes and known[1] is device.capacity:
        return known[2]
    value = _device_value(driver, device)
    if len(_VALUES) >= _VALUES_MAX:
        _VALUES.clear()
    _VALUES[key] = (device.attributes, device.capacity, value)
    return value


def _device_value(driver: str, device: Device) -> DeviceValue:
    attributes: dict[str, dict[str, Any]] = {}
    flat: dict[tuple[str, str, str], Any] = {}
    error: str | None = None
    for name, attribute in device.attributes.items():
        try:
            if attribute.value is None or not attribute.kind:
                raise ValueError("unsupported attribute value")
            value = _attribute_value(attribute.kind, attribute.value)
        except SemverError as problem:
            error = error or f"attribute {name}: parse semantic version: {problem}"
            continue
        except ValueError as problem:
            error = error or f"attribute {name}: {problem}"
            continue
        domain, ident = _split(name, driver)
        attributes.setdefault(domain, {})[ident] = value
        flat[("attributes", domain, ident)] = value
    capacity: dict[str, dict[str, Any]] = {}
    for name, entry in device.capacity.items():
        domain, ident = _split(name, driver)
        capacity.setdefault(domain, {})[ident] = entry.value
        flat[("capacity", domain, ident)] = entry.value
    value = {
        "driver": driver,
        "allowMultipleAllocations": bool(device.allow_multiple_allocations),
        "attributes": DefaultMap(attributes),
        "capacity": DefaultMap(capacity),
    }
    return DeviceValue(driver, value, error, flat)


# --- selectors ---------------------------------------------------------------------------------

_MISSING = object()


class Selector:
    """A compiled selector; :meth:`matches` says whether a device satisfies it."""

    __slots__ = ("_memo", "env", "expression", "paths", "program")

    def __init__(self, expression: str, program: Program, env: Environment) -> None:
        self.expression = expression
        self.program = program
        self.env = env
        self.paths: SelectorPaths = analyse(program)
        self._memo: dict[Any, bool | CelRuntimeError] = {}

    def evaluate(self, device: DeviceValue) -> bool:
        """Evaluate without memoisation (the baseline the benchmarks compare against)."""
        result = self.value(device)
        if result is True or result is False:
            return result
        raise CelRuntimeError(_not_bool(result))

    def value(self, device: DeviceValue) -> Any:
        """What the expression evaluates to on ``device``, of whatever type (a derived attribute's value)."""
        if device.error is not None:
            raise CelRuntimeError(device.error)
        frame = self.program.new_frame()
        if self.paths.device_slot:
            frame[self.paths.device_slot] = device.value
        try:
            return self.program.run(frame)
        except CelRuntimeError as error:  # upstream adds a hint to missing-key errors
            if "no such key:" in error.message:
                raise CelRuntimeError(error.message + NO_SUCH_KEY_HINT) from None
            raise

    def error_offset(self, device: DeviceValue) -> int | None:
        """Where in the expression the evaluation on ``device`` fails (see :meth:`Program.error_offset`)."""
        if device.error is not None:
            return None  # the device's own attribute fails, before the selector runs
        return self.program.error_offset({"device": device.value})

    def matches(self, device: DeviceValue) -> bool:
        """Whether ``device`` satisfies the selector; raises :class:`CelRuntimeError` like upstream."""
        if device.error is not None:
            raise CelRuntimeError(device.error)
        paths = self.paths
        if paths.driver is not None and device.driver != paths.driver:
            return False
        if not paths.projectable:
            return self.evaluate(device)
        key = device.keys.get(paths.key_id, _MISSING)
        if key is _MISSING:
            key = device.keys[paths.key_id] = paths.key(device)
        found = self._memo.get(key, _MISSING)
        if found is _MISSING:
            try:
                found = self.evaluate(device)
            except CelRuntimeError as error:
                found = error
            if len(self._memo) > 65536:
                self._memo.clear()
            self._memo[key] = found
        if type(found) is bool:
            return found
        assert isinstance(found, CelRuntimeError)
        raise CelRuntimeError(found.message)


def _not_bool(result: Any) -> str:
    name = type_name(result)
    if name == "null_type":
        detail = "type conversion error from 'null_type' to 'bool'"
    elif name in ("int", "uint", "double"):
        detail = f"unsupported type conversion from '{name}' to bool"
    else:
        detail = f"unsupported native conversion from {name} to 'bool'"
    return f"CEL result of type {name} could not be converted to bool: {detail}"


@lru_cache(maxsize=4096)
def _compile_selector(expression: str, env: Environment) -> Selector | CelCompileError:
    try:
        checked = check(expression, env)
        output = checked.output_type
        attribute_type = env.extra.get("attribute_type", DYN)
        if output != BOOL and output != attribute_type:
            raise CelCompileError(f"must evaluate to bool or the unknown type, not {output}", None, (), "result-type")
        return Selector(expression, instantiate(checked), env)
    except CelCompileError as error:
        return error


def compile_selector(expression: str, env: Environment | None = None) -> Selector:
    """Compile a DRA selector (cached by expression and environment); raises :class:`CelCompileError`."""
    result = _compile_selector(expression, env or selector_environment())
    if isinstance(result, CelCompileError):
        raise CelCompileError(result.message, result.offset, result.issues, result.stage)
    return result


# What a derived attribute may evaluate to: a scalar of an attribute's types, or a list of one.
_DERIVED_SCALARS = (STRING, INT, BOOL, SEMVER)
_DERIVED_TYPES = frozenset((*_DERIVED_SCALARS, *(list_of(t) for t in _DERIVED_SCALARS), DYN, ANY, list_of(DYN)))


@lru_cache(maxsize=4096)
def _compile_expression(expression: str, env: Environment) -> Selector | CelCompileError:
    try:
        checked = check(expression, env)
        if checked.output_type not in _DERIVED_TYPES:
            raise CelCompileError(
                f"must evaluate to a string, int, bool or version, or a list of one of them, not {checked.output_type}",
                None,
                (),
                "result-type",
            )
        return Selector(expression, instantiate(checked), env)
    except CelCompileError as error:
        return error


def compile_expression(expression: str, env: Environment | None = None) -> Selector:
    """Compile a derived attribute's expression (KEP-6080): the selector environment, a value of an
    attribute's types instead of a boolean (:meth:`Selector.value`); raises :class:`CelCompileError`."""
    result = _compile_expression(expression, env or selector_environment())
    if isinstance(result, CelCompileError):
        raise CelCompileError(result.message, result.offset, result.issues, result.stage)
    return result


def estimate_cost(expression: str, env: Environment | None = None) -> int:
    """The static worst-case cost the API server compares with the 1,000,000 limit."""
    env = env or selector_environment()
    return compile_selector(expression, env).program.max_cost
