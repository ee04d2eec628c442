"""The DRA CEL environment of each release (``k8s.io/dynamic-resource-allocation/cel/compile.go``).

``selector_environment()`` is the scheduler's StoredExpressions environment of the newest release;
with a target it is the API server's NewExpressions environment for that release and its feature
gates (or, with ``stored``, that release's StoredExpressions one): the base environment that
release's ``base.go`` declares (:mod:`dralint.cel.lib.environments`) and the DRA options its
``compile.go`` adds (:func:`dra_options`), with DRA's size limits for the cost estimate.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dralint.cel.checker.decls import Environment, Overload
from dralint.cel.checker.types import ANY, BOOL, DYN, STRING, Type, map_of, object_type
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib import semver
from dralint.cel.lib.environments import VersionedOption, base_options, build, compatibility_version
from dralint.cel.lib.quantity import QUANTITY
from dralint.cel.pricing import Pricing
from dralint.cel.runtime.semantics import equal
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.api.versions import Target

__all__ = ["COST_LIMIT", "cost_limit_enforced", "dra_options", "selector_environment"]

COST_LIMIT = 1_000_000  # resourceapi.CELSelectorExpressionMaxCost
MAX_ATTRIBUTE_VALUES = 48  # resourceapi.ResourceSliceMaxAttributeValuesPerDevice
DEVICE_TYPE = object_type("kubernetes.DRADevice")


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


def _semver_v0(env: Environment) -> None:
    semver.install(env, version=0)


def dra_options(*, consumable_capacity: bool, list_type_attributes: bool) -> list[VersionedOption]:
    """DRA's versioned options as each release's ``cel/compile.go`` declares them (``shipped`` says
    which); the device declarations are selected by the two feature gates."""
    cc, lta = consumable_capacity, list_type_attributes
    device_131 = _declare_device(_device_fields(consumable_capacity=False, list_type_attributes=False))
    device_134 = _declare_device(_device_fields(consumable_capacity=True, list_type_attributes=False))
    return [
        # kubernetes-1.31: introduced "1.0" so that new expressions have it, with DRA's own semver
        # library (cel/semverlib.go: version 0's functions, no normalisation).
        VersionedOption("1.0", _bind_macro, shipped=("1.31", "1.31")),
        VersionedOption("1.0", device_131, shipped=("1.31", "1.31")),
        VersionedOption("1.0", _semver_v0, shipped=("1.31", "1.31")),
        # kubernetes-1.32 on: introduced 1.31; Kubernetes' semver library at version 0 until the base
        # environment has it (1.33, version 1), kept for new expressions until then.
        VersionedOption("1.31", _bind_macro, shipped=("1.32", None)),
        VersionedOption("1.31", device_131, shipped=("1.32", "1.33")),
        VersionedOption("1.31", _semver_v0, shipped=("1.32", "1.32")),
        VersionedOption("1.31", _semver_v0, removed="1.33", shipped=("1.33", "1.33")),
        # kubernetes-1.34 to 1.36: DRAConsumableCapacity picks the declaration; in 1.36
        # DRAListTypeAttributes makes attribute values dyn in both.
        VersionedOption(
            "1.31",
            _declare_device(_device_fields(consumable_capacity=False, list_type_attributes=lta)),
            enabled=not cc,
            shipped=("1.34", "1.36"),
        ),
        VersionedOption(
            "1.34",
            _declare_device(_device_fields(consumable_capacity=True, list_type_attributes=lta)),
            enabled=cc,
            shipped=("1.34", "1.36"),
        ),
        # kubernetes-1.37: one declaration per combination of the gates, oldest first (the stored
        # environment keeps the last).
        VersionedOption("1.31", device_131, enabled=not cc and not lta, shipped=("1.37", None)),
        VersionedOption("1.34", device_134, enabled=cc and not lta, shipped=("1.37", None)),
        VersionedOption(
            "1.36",
            _declare_device(_device_fields(consumable_capacity=False, list_type_attributes=True)),
            enabled=not cc and lta,
            shipped=("1.37", None),
        ),
        VersionedOption(
            "1.36",
            _declare_device(_device_fields(consumable_capacity=True, list_type_attributes=True)),
            enabled=cc and lta,
            shipped=("1.37", None),
        ),
        VersionedOption("1.36", _install_includes, enabled=lta),
    ]


@lru_cache(maxsize=64)
def _environment(
    release: str | None, stored: bool, consumable_capacity: bool, list_type_attributes: bool
) -> Environment:
    options = base_options() + dra_options(
        consumable_capacity=consumable_capacity, list_type_attributes=list_type_attributes
    )
    if stored:
        # StoredExpressions: every option the release's code ships; the newest device declaration wins.
        env = build(
            f"dra-stored-{release or 'newest'}", options, release=release, compatibility=None, honour_gates=False
        )
    else:
        assert release is not None
        env = build(
            f"dra-new-{release}",
            options,
            release=release,
            compatibility=compatibility_version(release),
            honour_gates=True,
        )
    env.cost_limit = COST_LIMIT
    env.sizes = _device_sizes
    return env


def selector_environment(*, target: Target | None = None, stored: bool = False) -> Environment:
    """The allocator's StoredExpressions environment of the newest release; for ``target``, the API
    server's NewExpressions environment of its release and gates (``stored``: its StoredExpressions one)."""
    if target is None:
        return _environment(None, True, True, True)
    return _environment(
        target.release,
        stored,
        target.enabled("DRAConsumableCapacity"),
        target.enabled("DRAListTypeAttributes"),
    )


def cost_limit_enforced(target: Target) -> bool:
    """Whether the API server rejects a new selector whose estimated cost exceeds :data:`COST_LIMIT`:
    from 1.32 on (kubernetes#128101); 1.31 only stops the evaluation at run time."""
    return target.release != "1.31"


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
