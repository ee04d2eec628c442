"""Per-request data and the validation phase that runs before the search (spec §3.1, §3.3).

Counterparts: ``requestData``, ``requestAccessor`` (exact request / subrequest),
``validateDeviceRequest``, ``isSelectable`` and the validation loop at the start of ``Allocate``
in ``allocator_experimental.go``.
"""

from __future__ import annotations

from collections.abc import Sequence

from dralint.allocator.capacity import Amount, Demand, demand_fits, requested_amounts
from dralint.allocator.constraints import Constraint, claim_constraint
from dralint.allocator.derived import derive
from dralint.allocator.devices import DeviceInfo
from dralint.allocator.scope import NodeScope
from dralint.allocator.selection import per_device_node_matches, selectors_match
from dralint.allocator.types import ALLOCATION_RESULTS_MAX_SIZE, AllocatorError, Cause
from dralint.api import model


def claim_ref(claim: model.ResourceClaim) -> str:
    """``klog.KObj``: ``namespace/name``, or ``name`` without a namespace."""
    return f"{claim.namespace}/{claim.name}" if claim.namespace else claim.name


class RequestData:
    """``requestData``: one plain request or one ``firstAvailable`` entry, validated."""

    __slots__ = (
        "admin",
        "all_devices",
        "capacity",
        "claim",
        "claim_index",
        "count",
        "demands",
        "derived",
        "derived_values",
        "device_class",
        "fractional",
        "matched",
        "mode",
        "name",
        "parent",
        "result_name",
        "selectable",
        "selectors",
        "tolerations",
    )

    def __init__(
        self,
        claim_index: int,
        claim: model.ResourceClaim,
        name: str,
        parent: str | None,
        device_class: model.DeviceClass,
        request: model.ExactDeviceRequest | model.DeviceSubRequest,
        *,
        fractional: bool = False,
    ) -> None:
        self.claim_index = claim_index
        self.fractional = fractional  # DRAFractionalCapacityRange
        self.claim = claim
        self.name = name
        self.parent = parent
        self.result_name = f"{parent}/{name}" if parent is not None else name
        self.device_class = device_class
        self.selectors = request.selectors
        self.mode = request.allocation_mode
        self.count = request.count
        self.admin = isinstance(request, model.ExactDeviceRequest) and request.admin_access is True
        self.tolerations = request.tolerations
        self.capacity: dict[str, Amount] | None = (
            requested_amounts(request.capacity.requests) if request.capacity is not None else None
        )
        self.derived = request.derived_attributes
        self.derived_values: dict[int, dict[str, model.DeviceAttribute]] = {}  # device key -> derived attributes
        self.all_devices: list[DeviceInfo] = []
        self.selectable: dict[int, bool] = {}
        self.demands: dict[int, Demand] = {}
        self.matched: dict[int, bool] = {}  # device key -> all selectors true (shared, see SelectorCache)

    def demand(self, device: DeviceInfo) -> Demand:
        """What this request asks of the device's capacities (cached)."""
        found = self.demands.get(device.key)
        if found is None:
            found = self.demands[device.key] = Demand(self.capacity, device.capacities, fractional=self.fractional)
        return found

    @property
    def base_name(self) -> str:
        """The name constraints see: the parent request's name for an entry."""
        return self.parent if self.parent is not None else self.name

    @property
    def sub_name(self) -> str:
        return self.name if self.parent is not None else ""

    def is_selectable(self, device: DeviceInfo, scope: NodeScope) -> bool:
        """``isSelectable``: class selectors, request selectors, per-device node selection."""
        if device.binding_conditions and not scope.features.device_binding_and_status:
            return False
        key = device.key
        known = self.selectable.get(key)
        if known is not None:
            return known
        matched = self.matched.get(key)
        if matched is None:
            cache = scope.cache
            matched = self.matched[key] = selectors_match(
                cache, self.device_class.selectors, device, self.class_owner
            ) and selectors_match(cache, self.selectors, device, self.claim_owner)
        result = matched and (not device.slice.per_device_node_selection or per_device_node_matches(device, scope.node))
        if result and self.derived and scope.features.derived_attributes:
            # Evaluated once the device passed the request's selectors; an error aborts like theirs.
            self.derived_values[key] = derive(
                scope.cache.derived, self.derived, device, claim_ref(self.claim), self.name
            )
        self.selectable[key] = result
        return result

    def class_owner(self) -> tuple[str, str | None]:
        """Whose selectors the class selectors are, for CEL error messages (no claim's)."""
        return f"class {self.device_class.name}", None

    def claim_owner(self) -> tuple[str, str | None]:
        """Whose selectors the request selectors are, for CEL error messages, and that claim."""
        ref = claim_ref(self.claim)
        return f"claim {ref}", ref


class ValidatedClaims:
    """The outcome of the validation phase: request data per claim and request, constraints."""

    __slots__ = ("constraints", "requests")

    def __init__(self) -> None:
        # requests[claim][request] = entries: one RequestData, or one per firstAvailable entry.
        self.requests: list[list[list[RequestData]]] = []
        self.constraints: list[list[Constraint]] = []


def validate_claims(claims: Sequence[model.ResourceClaim], scope: NodeScope) -> ValidatedClaims:
    """The validation loop at the start of ``Allocate``: every claim in order (first error wins),
    request data per request and entry, All-mode device lists, the 32-device check, constraints."""
    out = ValidatedClaims()
    features = scope.features
    for claim_index, claim in enumerate(claims):
        ref = claim_ref(claim)
        minimum = 0
        per_claim: list[list[RequestData]] = []
        for request in claim.spec.requests:
            entries = request.first_available or ()
            if not features.prioritized_list and entries:
                raise AllocatorError(
                    f"claim {ref}, request {request.name}: has subrequests, "
                    "but the DRAPrioritizedList feature is disabled",
                    cause=Cause.CLAIM,
                    claim=ref,
                    request=request.name,
                )
            if not features.consumable_capacity:
                if request.exactly is not None and request.exactly.capacity is not None:
                    raise AllocatorError(
                        f"claim {ref}, request {request.name}: has capacity requests, "
                        "but the DRAConsumableCapacity feature is disabled",
                        cause=Cause.CLAIM,
                        claim=ref,
                        request=request.name,
                    )
                for entry in entries:
                    if entry.capacity is not None:
                        raise AllocatorError(
                            f"claim {ref}, subrequest {entry.name}: has capacity requests, "
                            "but the DRAConsumableCapacity feature is disabled",
                            cause=Cause.CLAIM,
                            claim=ref,
                            request=f"{request.name}/{entry.name}",
                        )
            alternatives = request.alternatives()
            if not alternatives:
                raise AllocatorError(
                    f"claim {ref}, request {request.name}: neither exactly nor firstAvailable is set (invalid request)",
                    cause=Cause.CLAIM,
                    claim=ref,
                    request=request.name,
                )
            datas = [_validate_request(claim_index, claim, part, scope) for part in alternatives]
            minimum += min(d_count(d) for d in datas)  # the smallest entry, or the one exactly block
            per_claim.append(datas)
        if minimum > ALLOCATION_RESULTS_MAX_SIZE:
            raise AllocatorError(
                f"claim {ref}: number of requested devices {minimum} exceeds the claim limit of "
                f"{ALLOCATION_RESULTS_MAX_SIZE}",
                cause=Cause.CLAIM,
                claim=ref,
            )
        constraints: list[Constraint] = []
        for index, constraint in enumerate(claim.spec.constraints):
            built = claim_constraint(constraint, set_mode=features.list_type_attributes)
            if built is None:
                raise AllocatorError(
                    f"claim {ref}, constraint #{index}: empty constraint (unsupported constraint type?)",
                    cause=Cause.CLAIM,
                    claim=ref,
                )
            constraints.append(built)
        out.requests.append(per_claim)
        out.constraints.append(constraints)
    return out


def d_count(data: RequestData) -> int:
    """``numDevices``: the exact count, or the length of the All list."""
    return len(data.all_devices) if data.mode == "All" else data.count


def _validate_request(
    claim_index: int, claim: model.ResourceClaim, part: model.RequestPart, scope: NodeScope
) -> RequestData:
    """``validateDeviceRequest``."""
    request, name, features = part.spec, part.name, scope.features
    ref = claim_ref(claim)
    for index, selector in enumerate(request.selectors):
        if selector.cel is None:
            raise AllocatorError(
                f"claim {ref}, request {name}, selector #{index}: CEL expression empty (unsupported selector type?)",
                cause=Cause.CLAIM,
                claim=ref,
                request=name,
            )
    if not features.admin_access and isinstance(request, model.ExactDeviceRequest) and request.admin_access is not None:
        raise AllocatorError(
            f"claim {ref}, request {name}: admin access is requested, but the feature is disabled",
            cause=Cause.CLAIM,
            claim=ref,
            request=name,
        )
    class_name = request.device_class_name
    if not class_name:
        raise AllocatorError(
            f"claim {ref}, request {name}: missing device class name (unsupported request type?)",
            cause=Cause.CLAIM,
            claim=ref,
            request=name,
        )
    device_class = scope.classes.get(class_name)
    if device_class is None:
        raise AllocatorError(
            f"claim {ref}, request {name}: could not retrieve device class {class_name}: "
            f'deviceclass.resource.k8s.io "{class_name}" not found',
            cause=Cause.MISSING_CLASS,
            claim=ref,
            request=name,
        )
    data = RequestData(
        claim_index, claim, name, part.parent, device_class, request, fractional=features.fractional_capacity_range
    )
    data.matched = scope.cache.matched(device_class.selectors, request.selectors)
    if data.mode == "ExactCount":
        return data
    if data.mode != "All":
        raise AllocatorError(
            f"claim {ref}, request {name}: unsupported count mode {data.mode}",
            cause=Cause.CLAIM,
            claim=ref,
            request=name,
        )
    for pool in scope.pools:
        if pool.incomplete:
            raise AllocatorError(
                f"claim {ref}, request {name}: asks for all devices, but resource pool {pool.id_text()} "
                "is currently being updated",
                cause=Cause.CLAIM,
                claim=ref,
                request=name,
            )
        if pool.invalid:
            raise AllocatorError(
                f"claim {ref}, request {name}: asks for all devices, but resource pool {pool.id_text()} "
                "is currently invalid",
                cause=Cause.CLAIM,
                claim=ref,
                request=name,
            )
        for device in pool.candidates(scope.registry):
            if not data.is_selectable(device, scope):
                continue
            if features.consumable_capacity and not demand_fits(data.demand(device), device.aggregated, None):
                continue
            data.all_devices.append(device)
    return data
