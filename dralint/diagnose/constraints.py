"""The claim constraints no candidate node can satisfy, even with every device of the node free.

A ``matchAttribute`` constraint needs, on one node, every request it covers to find its count of devices
that share one value of the attribute; a ``distinctAttribute`` constraint needs as many distinct values as
the requests it covers take devices together. When the devices a node offers the requests (their class's
and their own selectors accept them) cannot meet that on any candidate node, the constraint is why the
claim does not fit, and is named. Requests with ``firstAvailable`` entries or ``allocationMode: All`` and
list-typed attributes are left to the allocator's own explanation.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from dralint.allocator.constraints import lookup_attribute
from dralint.allocator.nodes import node_matches
from dralint.api import model

DeviceId = tuple[str, str, str]  # driver, pool, device
# The scalar value of an attribute per device a request can use (see attribute_values)
Values = Callable[[model.ExactDeviceRequest, str], Mapping[DeviceId, object]]


def on_node(slices: Sequence[model.ResourceSlice], node: model.Node) -> frozenset[DeviceId]:
    """The devices of ``slices`` a pod on ``node`` can get (the slice's node selection, or each device's)."""
    out: set[DeviceId] = set()
    for resource_slice in slices:
        if resource_slice.per_device_node_selection:
            chosen = [
                d for d in resource_slice.devices if node_matches(node, d.node_name, d.all_nodes, d.node_selector)
            ]
        elif node_matches(node, resource_slice.node_name, resource_slice.all_nodes, resource_slice.node_selector):
            chosen = list(resource_slice.devices)
        else:
            continue
        out.update((resource_slice.driver, resource_slice.pool.name, d.name) for d in chosen)
    return frozenset(out)


def unsatisfiable(claim: model.ResourceClaim, nodes: Sequence[Collection[DeviceId]], values_of: Values) -> list[str]:
    """Each constraint of ``claim`` that no node of ``nodes`` (the devices of each) can satisfy, in words."""
    requests = {r.name: r.exactly for r in claim.spec.requests}
    out = []
    for constraint in claim.spec.constraints:
        attribute = constraint.match_attribute or constraint.distinct_attribute
        names = constraint.requests or tuple(requests)
        specs = [requests.get(name) for name in names]
        if attribute is None or any(s is None or s.allocation_mode == "All" for s in specs):
            continue
        covered = [(name, spec) for name, spec in zip(names, specs, strict=True) if spec is not None]
        values = [values_of(spec, attribute) for _, spec in covered]
        over = "request" + ("s " if len(covered) > 1 else " ") + ", ".join(name for name, _ in covered)
        if constraint.match_attribute is not None:
            counts = [s.count for _, s in covered]
            if not any(_shared(values, counts, devices) for devices in nodes):
                wanted = " and ".join(
                    f"{s.count} device{'s' if s.count != 1 else ''} of request {n}" for n, s in covered
                )
                at_most = f", at most {_most(values, nodes)} on one node" if len(covered) == 1 else ""
                out.append(
                    f"constraint matchAttribute {attribute} over {over} cannot be satisfied: no node has {wanted} "
                    f"with one value of it{at_most}"
                )
        else:
            need = sum(s.count for _, s in covered)
            most = max((len({v for found in values for d, v in found.items() if d in on}) for on in nodes), default=0)
            if most < need:
                out.append(
                    f"constraint distinctAttribute {attribute} over {over} cannot be satisfied: at most {most} "
                    f"distinct value{'s' if most != 1 else ''} of it on one node, {need} needed"
                )
    return out


def attribute_values(devices: Sequence[tuple[DeviceId, model.Device]], attribute: str) -> dict[DeviceId, object]:
    """The scalar value of ``attribute`` per device that has one."""
    out: dict[DeviceId, object] = {}
    for ident, device in devices:
        found = lookup_attribute(device.attributes, ident[0], attribute)
        if found is not None and not found.kind.endswith("s"):
            out[ident] = (found.kind, found.value)
    return out


def _shared(values: list[Mapping[DeviceId, object]], counts: list[int], devices: Collection[DeviceId]) -> bool:
    """Whether some value has, on these devices, each request's count of devices."""
    per_request = []
    for found in values:
        tally: dict[object, int] = {}
        for ident, value in found.items():
            if ident in devices:
                tally[value] = tally.get(value, 0) + 1
        per_request.append(tally)
    candidates = set(per_request[0]) if per_request else set()
    return any(all(t.get(v, 0) >= c for t, c in zip(per_request, counts, strict=True)) for v in candidates)


def _most(values: list[Mapping[DeviceId, object]], nodes: Sequence[Collection[DeviceId]]) -> int:
    """The most devices of the (one) request that share a value on one node."""
    most = 0
    for devices in nodes:
        tally: dict[object, int] = {}
        for ident, value in values[0].items():
            if ident in devices:
                tally[value] = tally.get(value, 0) + 1
        most = max(most, max(tally.values(), default=0))
    return most
