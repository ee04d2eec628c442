"""Values shared by every part of the allocator: feature flags, device ids, allocated state, errors.

Counterparts: ``structured/internal/types.go`` (``Features``), ``structured/schedulerapi/types.go``
(``DeviceID``, ``AllocatedState``) and ``structured/internal/allocatedstate.go``.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Mapping
from dataclasses import field

from dralint.apimachinery.quantity import Quantity
from dralint.dataclass import dataclass

# resourceapi.AllocationResultsMaxSize: devices per claim allocation.
ALLOCATION_RESULTS_MAX_SIZE = 32
# Steps of the recursive search (allocateOne invocations) after which dralint gives up.
DEFAULT_SEARCH_BUDGET = 1_000_000

DeviceID = tuple[str, str, str]  # (driver, pool, device)
PoolID = tuple[str, str]  # (driver, pool)


def device_id_text(device_id: DeviceID) -> str:
    """``DeviceID.String()``: ``driver/pool/device``."""
    return f"{device_id[0]}/{device_id[1]}/{device_id[2]}"


@dataclass(frozen=True, slots=True)
class Features:
    """``internal.Features``: one flag per control-flow change, sorted, mapped to gates (spec §11;
    the three of 1.37 as the gates of their names)."""

    admin_access: bool = False
    consumable_capacity: bool = False
    derived_attributes: bool = False
    device_binding_and_status: bool = False
    device_compatibility_groups: bool = False
    device_taints: bool = False
    fractional_capacity_range: bool = False
    list_type_attributes: bool = False
    partitionable_devices: bool = False
    prioritized_list: bool = False

    @classmethod
    def all(cls) -> Features:
        """``internal.FeaturesAll``: every flag on (the full "experimental" allocator)."""
        return cls(**{name: True for name in cls.__dataclass_fields__})


@dataclass(frozen=True, slots=True)
class Release:
    """Control flow that changed between Kubernetes releases without a feature flag: where the
    allocator of an older release (its ``release-1.3x`` branch) differs from the newest one.

    The default is the newest allocator; :func:`dralint.allocator.prepare.release_for` gives a target's.
    """

    # 1.31-1.32: an All request whose class and selectors match no device is satisfied by none
    # (1.33 added "at least one device is required for 'All' allocation mode").
    all_may_match_nothing: bool = False
    # 1.31-1.32: a device of an All request that cannot be allocated ends the whole search
    # (``errStop``), instead of backtracking into the requests and claims before it.
    all_failure_stops_search: bool = False
    # 1.33-1.34: a device draws on the counter sets of its own slice, computed per slice; from 1.35
    # counter sets are published in slices of their own and shared by the whole pool.
    counters_in_device_slice: bool = False


NEWEST = Release()  # the allocator of the newest release


@dataclass(frozen=True, slots=True)
class AllocatedState:
    """``schedulerapi.AllocatedState``: what already-allocated claims hold (spec §1.1)."""

    allocated_devices: frozenset[DeviceID] = frozenset()
    allocated_shared_device_ids: frozenset[tuple[DeviceID, str]] = frozenset()
    aggregated_capacity: Mapping[DeviceID, Mapping[str, Quantity]] = field(default_factory=dict)

    def allocated_device_ids(self) -> frozenset[DeviceID]:
        """Every device ``IsDeviceAllocated`` reports: exclusive, shared or with aggregated capacity."""
        shared = {device_id for device_id, _ in self.allocated_shared_device_ids}
        return self.allocated_devices | shared | frozenset(self.aggregated_capacity)


class Cause(enum.Enum):
    """What an :class:`AllocatorError` is about, so that callers need not read its text."""

    CLAIM = (
        "claim"  # a claim or one of its requests, as written, is refused (a disabled feature, a count, a constraint)
    )
    MISSING_CLASS = "missing-class"  # a request names a DeviceClass that does not exist
    CEL_COMPILE = "cel-compile"  # a selector does not compile
    CEL_RUNTIME = "cel-runtime"  # a selector fails on a device
    NODE_SELECTION = "node-selection"  # a slice's or device's node selection cannot be evaluated
    INVALID_POOLS = "invalid-pools"  # upstream's ErrFailedAllocationOnNode: this node only
    ABORTED = "aborted"  # the caller's context was cancelled
    SEARCH_BUDGET = "search-budget"  # dralint's limit on one search (upstream has none)
    DRY_RUN_BUDGET = "dry-run-budget"  # dralint's limit on the whole dry-run, raised around the allocator


class AllocatorError(Exception):
    """Invalid input: ``Allocate`` returned an error. The message is upstream's.

    ``cause`` says what the error is about; ``claim`` (``namespace/name``) and ``request`` (``name``
    or ``name/subrequest``) name the claim and request the message names, when it names them.
    """

    def __init__(self, message: str, *, cause: Cause, claim: str | None = None, request: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.cause = cause
        self.claim = claim
        self.request = request

    @property
    def failed_on_node(self) -> bool:
        """``invalid resource pools were encountered``: the node does not fit, the pod is not at fault."""
        return self.cause is Cause.INVALID_POOLS


class SearchBudgetExhausted(AllocatorError):
    """dralint's own limit: the search took more steps than its budget (upstream has none)."""

    def __init__(self, steps: int) -> None:
        super().__init__(f"search budget exhausted after {steps} steps", cause=Cause.SEARCH_BUDGET)
        self.steps = steps


# A cancellation check, like a Go context: returns the cause ("context deadline exceeded",
# "context canceled") once the allocation must stop, else None.
Context = Callable[[], "str | None"]


def deadline(seconds: float) -> Context:
    """A context that expires ``seconds`` from now (``context.WithTimeout``)."""
    end = time.monotonic() + seconds

    def check() -> str | None:
        return "context deadline exceeded" if time.monotonic() >= end else None

    return check


def cancelled() -> Context:
    """An already cancelled context (``cancel()`` called before ``Allocate``)."""
    return lambda: "context canceled"
