"""Whether a device is selectable for a request: class and request CEL selectors, per-device node
selection, binding conditions (spec §4.1 step 2).

Counterparts: ``isSelectable`` and ``selectorsMatch`` in ``allocator_experimental.go`` and the
expression cache of ``cel/cache.go``. CEL outcomes are pure functions of (expression, device), so
besides upstream's per-call cache this module memoises them for the allocator's lifetime; the
order in which selectors run, and so which error surfaces first, is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import dralint.cel
from dralint.allocator.derived import DerivedCache
from dralint.allocator.devices import DeviceInfo
from dralint.allocator.nodes import NodeSelectorError, node_matches
from dralint.allocator.types import AllocatorError, Cause, DeviceID, device_id_text
from dralint.api import model
from dralint.cel import CelCompileError, CelRuntimeError

if TYPE_CHECKING:
    from dralint.cel import Environment, Selector

# What a memoised evaluation produced: the boolean, or the runtime error message.
_Outcome = bool | str


class SelectorCache:
    """Compiled selectors by expression, and their outcome per device key."""

    __slots__ = ("_compiled", "_env", "_matched", "_outcomes", "derived", "keys")

    def __init__(self, env: Environment | None = None) -> None:
        self._env = env
        self.derived = DerivedCache(env)  # derived attributes' expressions (KEP-6080)
        # Device ids interned as the small integers the memos are keyed by; allocators that share
        # this cache (the dry-run's, one per attempt over the same slices) share the interning too.
        self.keys: dict[DeviceID, int] = {}
        self._compiled: dict[str, Selector | CelCompileError] = {}
        self._outcomes: dict[str, dict[int, _Outcome]] = {}
        self._matched: dict[tuple[tuple[str, ...], tuple[str, ...]], dict[int, bool]] = {}

    def matched(
        self, class_selectors: tuple[model.DeviceSelector, ...], selectors: tuple[model.DeviceSelector, ...]
    ) -> dict[int, bool]:
        """The shared memo (device key -> all selectors true) for this pair of selector lists.

        Keyed by the expressions themselves, so requests of different claims, calls and nodes
        with the same class and selectors share it; only booleans are stored (errors re-raise
        from the per-expression memo with the right owner in the message).
        """
        key = (_expressions(class_selectors), _expressions(selectors))
        found = self._matched.get(key)
        if found is None:
            found = self._matched[key] = {}
        return found

    def evaluate(self, expression: str, device: DeviceInfo) -> bool:
        """The selector's verdict on the device; raises CelCompileError or CelRuntimeError."""
        outcomes = self._outcomes.get(expression)
        if outcomes is None:
            outcomes = self._outcomes[expression] = {}
        else:
            outcome = outcomes.get(device.key)
            if outcome is not None:
                if outcome is True or outcome is False:
                    return outcome
                raise CelRuntimeError(outcome)
        selector = self._compiled.get(expression)
        if selector is None:
            try:
                selector = dralint.cel.compile_selector(expression, self._env)
            except CelCompileError as error:
                selector = error
            self._compiled[expression] = selector
        if isinstance(selector, CelCompileError):
            raise selector
        try:
            result = selector.matches(device.value())
        except CelRuntimeError as error:
            outcomes[device.key] = error.message
            raise
        outcomes[device.key] = result
        return result


def _expressions(selectors: tuple[model.DeviceSelector, ...]) -> tuple[str, ...]:
    return tuple(s.cel.expression if s.cel is not None else "" for s in selectors)


def selectors_match(
    cache: SelectorCache,
    selectors: tuple[model.DeviceSelector, ...],
    device: DeviceInfo,
    owner: Callable[[], tuple[str, str | None]],
) -> bool:
    """``selectorsMatch``: every selector in order, stopping at the first false; errors are hard.

    ``owner`` names the selectors' owner for messages (``class x`` or ``claim ns/name``), and the
    claim (``ns/name``) when they are a claim's.
    """
    for index, selector in enumerate(selectors):
        expression = selector.cel.expression if selector.cel is not None else ""
        try:
            if not cache.evaluate(expression, device):
                return False
        except CelCompileError as error:
            whose, claim = owner()
            message = f"{whose}: selector #{index}: CEL compile error: {error.message}"
            raise AllocatorError(message, cause=Cause.CEL_COMPILE, claim=claim) from None
        except CelRuntimeError as error:
            whose, claim = owner()
            where = f"{whose}: selector #{index} on device {device_id_text(device.id)}"
            raise AllocatorError(
                f"{where}: CEL runtime error: {error.message}", cause=Cause.CEL_RUNTIME, claim=claim
            ) from None
    return True


def per_device_node_matches(device: DeviceInfo, node: model.Node) -> bool:
    """Per-device node selection (``perDeviceNodeSelection: true`` slices); parse errors are hard."""
    spec = device.device
    try:
        return node_matches(node, spec.node_name, spec.all_nodes, spec.node_selector)
    except NodeSelectorError as error:
        raise AllocatorError(str(error), cause=Cause.NODE_SELECTION) from None
