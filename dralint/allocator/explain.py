"""Why claims do not fit on a node, as data: per request, how many devices each check rejected.

Not an upstream function: the search itself records nothing (so the successful path stays as
fast as upstream's); after an unsatisfiable result the caller runs :func:`explain`, which
checks every candidate device of the node against each request *on its own* (without the other
picks of the search) and files it under the first check it fails, in the search's order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dralint.allocator.capacity import demand_fits
from dralint.allocator.compatibility import GroupBaseline, baseline_for_pool, check_and_consume
from dralint.allocator.constraints import (
    DistinctAttribute,
    MatchAttribute,
    as_set,
    claim_constraint,
    constrained_attribute,
)
from dralint.allocator.counters import CounterSets, check_available_counters
from dralint.allocator.devices import DeviceInfo
from dralint.allocator.pools import Pool
from dralint.allocator.requests import RequestData, claim_ref
from dralint.allocator.scope import NodeScope
from dralint.allocator.selection import per_device_node_matches, selectors_match
from dralint.allocator.taints import untolerated_taint
from dralint.allocator.types import AllocatorError
from dralint.api import model
from dralint.dataclass import dataclass


@dataclass(frozen=True, slots=True)
class PoolProblem:
    """A pool of the node that no request can use."""

    pool: str  # driver/pool
    state: str  # "incomplete" or "invalid"
    reason: str = ""  # for invalid pools: duplicate device name, unknown counter set, ...


@dataclass(frozen=True, slots=True)
class RequestExplanation:
    """The candidate devices of the node against one request (or ``firstAvailable`` entry).

    ``seen`` devices are split over the ``rejected`` counts (first failing check, search order)
    and ``usable``; ``error`` is the hard error this request runs into, if any.
    """

    claim: str  # namespace/name
    request: str  # name, or parent/entry
    mode: str  # "ExactCount" or "All"
    count: int  # devices needed (ExactCount)
    seen: int
    usable: int
    rejected: Mapping[str, int]  # check -> devices; keys in REJECTION_REASONS order, zeros omitted
    taint_keys: tuple[str, ...] = ()  # keys of the untolerated taints met
    error: str | None = None


# The checks a device can fail, in the order the allocator applies them.
REJECTION_REASONS = (
    "binding-conditions",  # has bindingConditions while DeviceBindingAndStatus is off
    "class-selector",
    "request-selector",
    "node-selection",  # per-device node selection excludes the node
    "in-use",  # allocated exclusively by another claim
    "capacity",  # requested capacity missing, too small, or against the request policy
    "counters",  # shared counters exhausted (or partitionable devices disabled)
    "compatibility",  # its compatibility groups do not intersect those of the devices in use on its counter set
    "taint",  # untolerated NoSchedule/NoExecute taint
    "constraint",  # lacks the attribute a constraint of the claim compares
)


@dataclass(frozen=True, slots=True)
class Explanation:
    node: str
    pools: tuple[PoolProblem, ...]
    requests: tuple[RequestExplanation, ...]


def explain(claims: Sequence[model.ResourceClaim], scope: NodeScope) -> Explanation:
    problems = tuple(
        PoolProblem(pool.id_text(), "incomplete" if pool.incomplete else "invalid", pool.invalid_reason or "")
        for pool in scope.pools
        if pool.incomplete or pool.invalid
    )
    usable = [pool for pool in scope.pools if not (pool.incomplete or pool.invalid)]
    out = [
        _request(claim_index, claim, part, scope, usable)
        for claim_index, claim in enumerate(claims)
        for request in claim.spec.requests
        for part in request.alternatives()
    ]
    return Explanation(scope.node.name, problems, tuple(out))


def _request(
    claim_index: int, claim: model.ResourceClaim, part: model.RequestPart, scope: NodeScope, pools: Sequence[Pool]
) -> RequestExplanation:
    spec, label, features, registry = part.spec, part.label, scope.features, scope.registry
    ref = claim_ref(claim)
    device_class = scope.classes.get(spec.device_class_name)
    if device_class is None:
        return RequestExplanation(
            ref, label, spec.allocation_mode, spec.count, 0, 0, {},
            error=f'deviceclass.resource.k8s.io "{spec.device_class_name}" not found',
        )  # fmt: skip
    data = RequestData(
        claim_index, claim, part.name, part.parent, device_class, spec, fractional=features.fractional_capacity_range
    )
    # Scalar mode: a device only needs the attribute here, whatever the other picks hold.
    constraints = [
        built
        for built in (claim_constraint(c, set_mode=False) for c in claim.spec.constraints)
        if built is not None and built.covers(data.base_name, data.sub_name)
    ]
    counts = dict.fromkeys(REJECTION_REASONS, 0)
    seen = usable = 0
    error = None
    taint_keys: list[str] = []
    available: dict[str, CounterSets] = {}  # as the search's counter cache, filled on first use
    groups: dict[str, GroupBaseline] = {}
    for pool in pools:
        for device in pool.candidates(registry):
            seen += 1
            try:
                reason = _first_rejection(data, device, pool, scope, available, groups, constraints)
            except AllocatorError as problem:
                error = error or problem.message
                continue
            if reason is None:
                usable += 1
                continue
            counts[reason] += 1
            if reason == "taint":
                taint = untolerated_taint(device.blocking_taints, data.tolerations)
                if taint is not None and taint.key not in taint_keys:
                    taint_keys.append(taint.key)
    return RequestExplanation(
        ref, label, data.mode, data.count, seen, usable,
        {k: v for k, v in counts.items() if v}, tuple(taint_keys), error,
    )  # fmt: skip


def _first_rejection(
    data: RequestData,
    device: DeviceInfo,
    pool: Pool,
    scope: NodeScope,
    available: dict[str, CounterSets],
    groups: dict[str, GroupBaseline],
    constraints: Sequence[MatchAttribute | DistinctAttribute],
) -> str | None:
    features, cache = scope.features, scope.cache
    if not features.device_binding_and_status and device.binding_conditions:
        return "binding-conditions"
    if not selectors_match(cache, data.device_class.selectors, device, data.class_owner):
        return "class-selector"
    if not selectors_match(cache, data.selectors, device, data.claim_owner):
        return "request-selector"
    if device.slice.per_device_node_selection and not per_device_node_matches(device, scope.node):
        return "node-selection"
    derived = None
    if data.derived and features.derived_attributes:
        data.is_selectable(device, scope)  # evaluates the request's derived attributes on the device
        derived = data.derived_values.get(device.key)
    shared = features.consumable_capacity and device.allow_multi
    if not data.admin and device.exclusive:
        return "in-use"
    if features.consumable_capacity and demand_fits(data.demand(device), device.aggregated, None) is not True:
        return "capacity"
    if device.consumes:
        if not features.partitionable_devices:
            return "counters"
        fresh: dict[str, CounterSets] = {}  # the device's own consumption, none of the search's picks
        in_slice = scope.release.counters_in_device_slice
        if not (shared and device.aggregated is not None) and not check_available_counters(
            device, pool, available, fresh, scope.registry, in_slice=in_slice
        ):
            return "counters"
        if features.device_compatibility_groups and (
            check_and_consume(device, baseline_for_pool(pool, scope.registry, groups), {}) is None
        ):
            return "compatibility"
    if features.device_taints and untolerated_taint(device.blocking_taints, data.tolerations) is not None:
        return "taint"
    for constraint in constraints:
        attribute = constrained_attribute(derived, device.device.attributes, device.id[0], constraint.attribute)
        if attribute is None or (features.list_type_attributes and as_set(attribute) is None):
            return "constraint"
    return None
