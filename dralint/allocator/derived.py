"""Derived attributes (KEP-6080, DRADerivedAttributes): a request's virtual attributes per device.

A request's ``derivedAttributes`` are CEL expressions evaluated on each candidate device once it
passed the request's selectors; constraints naming an attribute look at the derived value of the
device's request first and at the device's own attributes only when the request derives none of
that name (a derived name equal to a published one shadows it). A runtime error aborts the
allocation, as a selector's does. Written from the KEP and the 1.37 API documentation: the
upstream allocator code was not among the stored snapshots, so the messages are dralint's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import dralint.cel
from dralint.allocator.types import AllocatorError, Cause, device_id_text
from dralint.api import model
from dralint.cel import CelCompileError, CelRuntimeError
from dralint.cel.lib.semver_value import Semver

if TYPE_CHECKING:
    from dralint.allocator.devices import DeviceInfo
    from dralint.cel import Environment, Selector

# A list of these Python types from CEL becomes a list attribute of the kind named.
_KINDS: tuple[tuple[type, str], ...] = ((bool, "bool"), (int, "int"), (str, "string"))


class DerivedCache:
    """Compiled derived-attribute expressions by text (the selector environment)."""

    __slots__ = ("_compiled", "_env")

    def __init__(self, env: Environment | None = None) -> None:
        self._env = env
        self._compiled: dict[str, Selector | CelCompileError] = {}

    def compiled(self, expression: str) -> Selector:
        """The compiled expression; raises :class:`CelCompileError`."""
        known = self._compiled.get(expression)
        if known is None:
            try:
                known = dralint.cel.compile_expression(expression, self._env)
            except CelCompileError as error:
                known = error
            self._compiled[expression] = known
        if isinstance(known, CelCompileError):
            raise known
        return known


def derive(
    cache: DerivedCache,
    attributes: tuple[model.DeviceDerivedAttribute, ...],
    device: DeviceInfo,
    claim: str,
    request: str,
) -> dict[str, model.DeviceAttribute]:
    """The request's derived attributes on ``device``, by name; errors are hard and name the claim
    (``ns/name``) and the request."""
    owner = f"claim {claim}, request {request}"
    out: dict[str, model.DeviceAttribute] = {}
    for attribute in attributes:
        try:
            value = cache.compiled(attribute.expression).value(device.value())
        except CelCompileError as error:
            raise AllocatorError(
                f"{owner}: derived attribute {attribute.name}: CEL compile error: {error.message}",
                cause=Cause.CEL_COMPILE,
                claim=claim,
                request=request,
            ) from None
        except CelRuntimeError as error:
            raise AllocatorError(
                f"{owner}: derived attribute {attribute.name} on device {device_id_text(device.id)}: "
                f"CEL runtime error: {error.message}",
                cause=Cause.CEL_RUNTIME,
                claim=claim,
                request=request,
            ) from None
        converted = as_attribute(value)
        if converted is None:
            raise AllocatorError(
                f"{owner}: derived attribute {attribute.name} on device {device_id_text(device.id)}: "
                f"CEL runtime error: a derived attribute must be a string, int, bool or version, or a list of "
                f"one of them, not {type(value).__name__}",
                cause=Cause.CEL_RUNTIME,
                claim=claim,
                request=request,
            )
        out[attribute.name] = converted
    return out


def as_attribute(value: Any) -> model.DeviceAttribute | None:
    """A CEL value as the device attribute constraints compare; ``None`` for another type."""
    if isinstance(value, list | tuple):
        kinds = {_kind(item) for item in value}
        if len(kinds) != 1 or None in kinds:
            return None if kinds else model.DeviceAttribute("", None)  # [] has no value, like an empty list
        kind = kinds.pop()
        assert kind is not None
        return model.DeviceAttribute(kind + "s", tuple(_scalar(item) for item in value))
    kind = _kind(value)
    return model.DeviceAttribute(kind, _scalar(value)) if kind is not None else None


def _kind(value: Any) -> str | None:
    for python_type, kind in _KINDS:
        if type(value) is python_type:
            return kind
    return "version" if isinstance(value, Semver) else None


def _scalar(value: Any) -> Any:
    return str(value) if isinstance(value, Semver) else value
