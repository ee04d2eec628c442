"""The DRA CEL environment, device values and selectors (``k8s.io/dynamic-resource-allocation/cel``).

``selector_environment()`` is the scheduler's StoredExpressions environment; with a target it is
the API server's NewExpressions environment for that release and feature gates. A
:class:`DeviceValue` is built once per device; :meth:`Selector.matches` evaluates a selector on
it, memoised by the device's projection onto the attribute and capacity paths the selector reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dralint.cel.checker.decls import Environment, Overload
from dralint.cel.checker.types import ANY, BOOL, DYN, INT, STRING, Type, list_of, map_of, object_type
from dralint.cel.device import DeviceValue
from dralint.cel.errors import CelCompileError, CelRuntimeError
from dralint.cel.lib.environments import VersionedOption, base_options, build, compatibility_version
from dralint.cel.lib.quantity import QUANTITY
from dralint.cel.lib.semver import SEMVER
from dralint.cel.lib.semver_value import SemverError
from dralint.cel.lib.semver_value import parse as parse_semver
from dralint.cel.pricing import Pricing
from dralint.cel.program import Program, check, instantiate
from dralint.cel.runtime.semantics import equal, type_name
from dralint.cel.runtime.values import DefaultMap
from dralint.cel.selector_paths import SelectorPaths, analyse
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.api.model import Device
    from dralint.api.versions import Target

__all__ = [
    "COST_LIMIT",
    "NO_SUCH_KEY_HINT",
    "DeviceValue",
    "Selector",
    "compile_expression",
    "compile_selector",
    "device_value",
    "estimate_cost",
    "selector_environment",
]

COST_LIMIT = 1_000_000  # resourceapi.CELSelectorExpressionMaxCost
MAX_ATTRIBUTE_VALUES = 48  # resourceapi.ResourceSliceMaxAttributeValuesPerDevice
DEVICE_TYPE = object_type("kubernetes.DRADevice")
# What Kubernetes appends to a missing-key runtime error (the scheduler's message says it too).
NO_SUCH_KEY_HINT = (
    ". consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for "
    "optional fields"
)


def _includes(target: Any, arg: Any) -> bool:
    """DRA's ``includes``: like Kubernetes' list ``includes`` but refusing lists longer than 48 values."""
    if type(target) in (list, tuple):
        for position, item in enumerate(target):
            if position >= MAX_ATTRIBUTE_VALUES:
                raise CelRuntimeError(
                    f"'includes' function cannot be applied to lists longer than {MAX_ATTRIBUTE_VALUES} values"
                )
            if _equal_true(item, arg):
                return True
        return False
    return _equal_true(target, arg)


def _equal_true(a: Any, b: Any) -> bool:
    try:
        return equal(a, b)
    except CelRuntimeError:
        return False


def _device_fields(*, consumable_capacity: bool, list_type_attributes: bool) -> dict[str, Type]:
    value_type = DYN if list_type_attributes else ANY
    fields = {
        "driver": STRING,
        "attributes": map_of(STRING, map_of(STRING, value_type)),
        "capacity": map_of(STRING, map_of(STRING, QUANTITY)),
    }
    if consumable_capacity:
        fields["allowMultipleAllocations"] = BOOL
    return fields


def _declare_device(fields: dict[str, Type]) -> Any:
    def install(env: Environment) -> None:
        env.variables["device"] = DEVICE_TYPE
        env.struct_fields[DEVICE_TYPE.name] = fields
        env.extra["attribute_type"] = fields["attributes"].params[1].params[1]

    return install


def _bind_macro(env: Environment) -> None:
    env.macros = env.macros | {("bind", 3, True)}


def _install_includes(env: Environment) -> None:
    env.remove("includes")
    env.add(
        "includes",
        Overload("dra_includes_dyn_dyn", (DYN, DYN), BOOL, _includes, member=True),
        pricing=Pricing.DRA_INCLUDES,
    )


def dra_options(*, consumable_capacity: bool, list_type_attributes: bool) -> list[VersionedOption]:
    """DRA's versioned options; the device declarations are selected by the two feature gates."""
    cc, lta = consumable_capacity, list_type_attributes
    return [
        VersionedOption("1.31", _bind_macro),
        VersionedOption(
            "1.31",
            _declare_device(_device_fields(consumable_capacity=False, list_type_attributes=False)),
            enabled=not cc and not lta,
        ),
        VersionedOption(
            "1.34",
            _declare_device(_device_fields(consumable_capacity=True, list_type_attributes=False)),
            enabled=cc and not lta,
        ),
        VersionedOption(
            "1.36",
            _declare_device(_device_fields(consumable_capacity=False, list_type_attributes=True)),
            enabled=not cc and lta,
        ),
        VersionedOption(
            "1.36",
            _declare_device(_device_fields(consumable_capacity=True, list_type_attributes=True)),
            enabled=cc and lta,
        ),
        VersionedOption("1.36", _install_includes, enabled=lta),
    ]


@lru_cache(maxsize=64)
def _environment(release: str | None, consumable_capacity: bool, list_type_attributes: bool) -> Environment:
    if release is None:
        # StoredExpressions: everything; the newest device declaration wins.
        options = base_options() + dra_options(consumable_capacity=True, list_type_attributes=True)
        env = build("dra-stored", options, compatibility=None, honour_gates=False)
    else:
        options = base_options() + dra_options(
            consumable_capacity=consumable_capacity, list_type_attributes=list_type_attributes
        )
        env = build(f"dra-new-{release}", options, compatibility=compatibility_version(release), honour_gates=True)
    env.cost_limit = COST_LIMIT
    env.sizes = _device_sizes
    return env


def selector_environment(*, target: Target | None = None) -> Environment:
    """The allocator's StoredExpressions environment, or the API server's NewExpressions one for ``target``."""
    if target is None:
        return _environment(None, True, True)
    return _environment(
        target.release, target.enabled("DRAConsumableCapacity"), target.enabled("DRAListTypeAttributes")
    )


@dataclass(frozen=True, slots=True)
class _Decl:
    """A node of DRA's declared device type with its maximum size (``DeclType.MaxElements``)."""

    max_elements: int
    fields: dict[str, _Decl] | None = None
    key: _Decl | None = None
    elem: _Decl | None = None


_ATTRIBUTE_VALUE = _Decl(64)  # max(DeviceAttributeMaxValueLength, ResourceSliceMaxAttributeValuesPerDevice)
_DEVICE_DECL = _Decl(
    0,
    fields={
        "driver": _Decl(63),
        "allowMultipleAllocations": _Decl(1),
        "attributes": _Decl(32, key=_Decl(63), elem=_Decl(32, key=_Decl(32), elem=_ATTRIBUTE_VALUE)),
        "capacity": _Decl(32, key=_Decl(63), elem=_Decl(32, key=_Decl(32), elem=_Decl(0))),
    },
)


def _device_sizes(path: tuple[str, ...]) -> int | None:
    """DRA's size estimator: walk the newest device declaration along ``path``."""
    if not path or path[0] != "device":
        return None
    node: _Decl | None = _DEVICE_DECL
    for name in path[1:]:
        assert node is not None
        if name in ("@items", "@values"):
            node = node.elem
        elif name == "@keys":
            node = node.key
        elif node.fields is not None and name in node.fields:
            node = node.fields[name]
        elif node.elem is _ATTRIBUTE_VALUE:
            node = _ATTRIBUTE_VALUE
        else:
            return None
        if node is None:
            return None
    assert node is not None
    return node.max_elements


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
