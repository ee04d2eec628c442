"""Per-slice and per-device data the search needs, computed once per :class:`Allocator`.

Upstream converts each slice to its internal ``draapi`` form per ``Allocate`` call; dralint does
the equivalent once per allocator (lazily, slice by slice) and keeps everything the hot loop
reads in slotted objects: quantities as exact integers in nano units, the taints that can block,
the allocated state of the device, and the CEL ``device`` value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import dralint.cel
from dralint.allocator.types import AllocatedState, DeviceID
from dralint.api import model
from dralint.apimachinery.quantity import Quantity

if TYPE_CHECKING:
    from dralint.cel import DeviceValue

NANO = 10**9
BLOCKING_EFFECTS = frozenset({"NoSchedule", "NoExecute"})


def nano(quantity: Quantity) -> int:
    """The quantity in nano units, exactly (parsed quantities never go below nano precision)."""
    value = quantity.value
    return -((-value.numerator * NANO) // value.denominator)  # ceil, for computed values


class CapacityInfo:
    """One ``DeviceCapacity`` with its request policy, quantities also in nano units."""

    __slots__ = ("default", "max", "min", "name", "policy", "quantity", "step", "valid_values", "value")

    def __init__(self, name: str, capacity: model.DeviceCapacity) -> None:
        self.name = name
        self.quantity = capacity.value
        self.value = nano(capacity.value)
        policy = self.policy = capacity.request_policy
        self.default = policy.default if policy is not None else None
        valid_range = policy.valid_range if policy is not None else None
        self.min = _optional_nano(valid_range.min) if valid_range is not None else None
        self.max = _optional_nano(valid_range.max) if valid_range is not None else None
        self.step = _optional_nano(valid_range.step) if valid_range is not None else None
        self.valid_values = tuple((nano(q), q) for q in policy.valid_values) if policy is not None else ()


def _optional_nano(quantity: Quantity | None) -> int | None:
    return nano(quantity) if quantity is not None else None


class SliceInfo:
    """A ResourceSlice and its devices (built on first use)."""

    __slots__ = ("driver", "node_name", "node_selector", "per_device_node_selection", "pool", "slice")

    def __init__(self, resource_slice: model.ResourceSlice) -> None:
        self.slice = resource_slice
        self.driver = resource_slice.driver
        self.pool = resource_slice.pool.name
        self.node_name = resource_slice.node_name
        self.node_selector = resource_slice.node_selector
        self.per_device_node_selection = resource_slice.per_device_node_selection is True

    @property
    def name(self) -> str:
        return self.slice.meta.name

    def devices(self, registry: DeviceRegistry) -> tuple[DeviceInfo, ...]:
        """The slice's devices, built once per registry. The registry keeps them, not the slice: a
        device points at its slice, and a slice pointing back would make every allocator's devices a
        reference cycle that only the cyclic garbage collector frees (one allocator per attempt)."""
        built = registry.devices.get(self)
        if built is None:
            built = registry.devices[self] = tuple(DeviceInfo(self, device, registry) for device in self.slice.devices)
        return built


class DeviceRegistry:
    """Interns device ids as small integers and knows the allocated state of each id."""

    __slots__ = ("aggregated", "allocated", "devices", "exclusive", "keys")

    def __init__(self, state: AllocatedState, keys: dict[DeviceID, int] | None = None) -> None:
        self.keys: dict[DeviceID, int] = {} if keys is None else keys
        self.devices: dict[SliceInfo, tuple[DeviceInfo, ...]] = {}  # see SliceInfo.devices
        self.exclusive = state.allocated_devices
        self.allocated = state.allocated_device_ids()
        self.aggregated: dict[DeviceID, dict[str, int]] = {
            device_id: {name: nano(q) for name, q in capacity.items()}
            for device_id, capacity in state.aggregated_capacity.items()
        }

    def key(self, device_id: DeviceID) -> int:
        key = self.keys.get(device_id)
        if key is None:
            key = self.keys[device_id] = len(self.keys)
        return key


class DeviceInfo:
    """One device of a slice with everything the search reads, precomputed."""

    __slots__ = (
        "_capacities",
        "_consumes",
        "_value",
        "aggregated",
        "allocated",
        "allow_multi",
        "binding_conditions",
        "blocking_taints",
        "device",
        "exclusive",
        "id",
        "key",
        "slice",
    )

    def __init__(self, slice_info: SliceInfo, device: model.Device, registry: DeviceRegistry) -> None:
        self.slice = slice_info
        self.device = device
        device_id = self.id = (slice_info.driver, slice_info.pool, device.name)
        self.key = registry.key(device_id)
        self.exclusive = device_id in registry.exclusive
        self.allocated = device_id in registry.allocated
        self.aggregated: Mapping[str, int] | None = registry.aggregated.get(device_id)
        self.allow_multi = device.allow_multiple_allocations is True
        self.blocking_taints = (
            tuple(taint for taint in device.taints if taint.effect in BLOCKING_EFFECTS) if device.taints else ()
        )
        self.binding_conditions = device.binding_conditions
        self._capacities: tuple[CapacityInfo, ...] | None = None if device.capacity else ()
        self._consumes: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] | None = (
            None if device.consumes_counters else ()
        )
        self._value: DeviceValue | None = None

    @property
    def capacities(self) -> tuple[CapacityInfo, ...]:
        if self._capacities is None:
            self._capacities = tuple(CapacityInfo(name, c) for name, c in self.device.capacity.items())
        return self._capacities

    @property
    def consumes(self) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
        """``consumesCounters`` as (counter set, ((counter, nano amount), ...))."""
        if self._consumes is None:
            self._consumes = tuple(
                (consumption.counter_set, tuple((name, nano(q)) for name, q in consumption.counters.items()))
                for consumption in self.device.consumes_counters
            )
        return self._consumes

    @property
    def binding_failure_conditions(self) -> tuple[str, ...] | None:
        return self.device.binding_failure_conditions

    @property
    def name(self) -> str:
        return self.device.name

    def value(self) -> DeviceValue:
        """The CEL ``device`` variable (conversion errors surface when a selector runs)."""
        if self._value is None:
            self._value = dralint.cel.device_value(self.slice.driver, self.device)
        return self._value
