"""Pods competing for devices after the dry-run: the devices a request can use, what the placed pods hold of
them and the unplaced ones need (DRA501's arithmetic), and the objects a finding about them involves.

Everything is worked out once per request shape (class and selectors) or per class, not per failing
workload: the failing workloads of one class share it, and per workload the cost would grow with the
square of the workloads.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING

from dralint.api import model
from dralint.diagnose import demand
from dralint.diagnose.candidates import accepted_devices
from dralint.dryrun.analysis import MAX_EXPLAINED_NODES
from dralint.dryrun.orders import Orders

if TYPE_CHECKING:
    from collections.abc import Callable

    from dralint.api.objects import KubeObject
    from dralint.cluster.pods import Pod
    from dralint.dryrun.analysis import Analysis, Failure

DeviceId = demand.DeviceId


class Contention:
    """Built once per dry-run (``CheckContext.contention``, or by a report): everything here is cached."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self._devices: dict[demand.RequestKey, list[tuple[DeviceId, model.Device]]] = {}
        self._demands: dict[tuple[demand.RequestKey, str], demand.Summary] = {}
        self._capacity: dict[tuple[demand.RequestKey, str], demand.CapacityDemand] = {}
        self._parties: dict[str, tuple[tuple[KubeObject, ...], tuple[KubeObject, ...]]] = {}
        self._involved: dict[str, tuple[KubeObject, ...]] = {}
        self._around: dict[tuple[str, ...], tuple[tuple[KubeObject, ...], frozenset[KubeObject]]] = {}
        self._id_sets: dict[demand.RequestKey, frozenset[DeviceId]] = {}
        self._proofs: dict[demand.RequestKey, demand.Summary | None] = {}
        self._steerable: dict[demand.RequestKey, tuple[list[str], int]] = {}
        self._devices_on: dict[str, frozenset[DeviceId]] = {}  # by node name: see _on_node
        self._attribute_values: dict[tuple[demand.RequestKey, str], Mapping[DeviceId, object]] = {}

    def constraints(self, failure: Failure) -> list[str]:
        """The constraints of the failing pod's claims that none of its candidate nodes can satisfy, even empty."""
        from dralint.diagnose import constraints

        constrained = [
            use.claim for use in failure.first.attempted if use.claim is not None and use.claim.spec.constraints
        ]
        if not constrained:
            return []
        nodes = [self._on_node(name) for name in failure.first.candidates[:MAX_EXPLAINED_NODES]]
        return [text for claim in constrained for text in constraints.unsatisfiable(claim, nodes, self._values)]

    def _on_node(self, name: str) -> frozenset[DeviceId]:
        """The devices a pod on node ``name`` can get, worked out once per node."""
        from dralint.diagnose import constraints

        found = self._devices_on.get(name)
        if found is None:
            seen = self.analysis.base.slices_seen_by(name)
            found = self._devices_on[name] = constraints.on_node(seen, self.analysis.nodes_by_name[name])
        return found

    def _values(self, spec: demand.Spec, attribute: str) -> Mapping[DeviceId, object]:
        """The value of ``attribute`` per device the request can use, once per request shape and attribute (the
        failing workloads of a template ask alike, over thousands of devices)."""
        from dralint.diagnose import constraints

        key = (demand.request_key(spec), attribute)
        found = self._attribute_values.get(key)
        if found is None:
            found = self._attribute_values[key] = constraints.attribute_values(self.devices(key[0]), attribute)
        return found

    def devices(self, key: demand.RequestKey) -> list[tuple[DeviceId, model.Device]]:
        """The inventory devices a request of ``key`` can use: its class's selectors and its own accept them."""
        found = self._devices.get(key)
        if found is None:
            class_name, expressions = key
            accepted = {id(device) for _, device in self.analysis.class_devices(class_name)}
            candidates = [
                ((entry.slice.driver, entry.slice.pool.name, device.name), device)
                for entry in self.analysis.inventory.slices
                for device in entry.slice.devices
                if id(device) in accepted
            ]
            if expressions:
                selectors = tuple(model.DeviceSelector(model.CELDeviceSelector(e)) for e in expressions)
                kept = {id(d) for _, d in accepted_devices(selectors, ((i[0], d) for i, d in candidates))}
                candidates = [(i, d) for i, d in candidates if id(d) in kept]
            found = self._devices[key] = candidates
        return found

    @cached_property
    def competing(self) -> frozenset[int]:
        """The unplaced pods (ids of their placements) that would fit the cluster without the earlier pods."""
        return frozenset(id(p) for f in self.analysis.failures if f.fits_empty for p in f.placements)

    def class_demand(self, spec: demand.Spec, request: str) -> demand.Summary:
        """Demand for the devices request ``request`` (``spec``) can use, over every pod of the dry-run."""
        key = demand.request_key(spec)
        found = self._demands.get((key, request))
        if found is None:
            ids = {ident for ident, _ in self.devices(key)}
            placements = self.analysis.simulation.placements
            found = demand.class_demand(placements, self.competing, key, request, ids).summary()
            self._demands[key, request] = found
        return found

    def capacity_demand(self, spec: demand.Spec, capacity: str) -> demand.CapacityDemand:
        """Demand for ``capacity`` of the shareable devices a request (``spec``) can use."""
        key = demand.request_key(spec)
        found = self._capacity.get((key, capacity))
        if found is None:
            placements = self.analysis.simulation.placements
            found = demand.capacity_demand(placements, self.competing, key, capacity, self.devices(key))
            self._capacity[key, capacity] = found
        return found

    def involved(self, name: str) -> tuple[KubeObject, ...]:
        """:meth:`parties` as one tuple, the same object for every finding of the class (they all carry it)."""
        found = self._involved.get(name)
        if found is None:
            workloads, inventory = self.parties(name)
            found = self._involved[name] = (*workloads, *inventory)
        return found

    def around(self, names: tuple[str, ...]) -> tuple[tuple[KubeObject, ...], frozenset[KubeObject]]:
        """The inventory objects then the workloads of :meth:`parties` of each class in turn, each object once
        (in order of first appearance), also as a set: once per list of classes, not once per finding."""
        found = self._around.get(names)
        if found is None:
            parts = [(*self.parties(name)[1], *self.parties(name)[0]) for name in names]
            ordered = tuple(dict.fromkeys(o for part in parts for o in part))
            found = self._around[names] = (ordered, frozenset(ordered))
        return found

    def parties(self, name: str) -> tuple[tuple[KubeObject, ...], tuple[KubeObject, ...]]:
        """What a finding about the devices of DeviceClass ``name`` involves: the workloads whose placed pods
        hold some of them, then those whose pods ask for the class; and the class with the objects publishing
        them (every slice's when none does)."""
        found = self._parties.get(name)
        if found is None:
            matching = {ident for ident, _ in self.devices((name, ()))}
            analysis = self.analysis
            holders = [owner for owner, held in self._holdings if not held.isdisjoint(matching)]
            askers = [owner for owner, classes in self._asking if name in classes]
            publishing = [
                e.origin.obj
                for e in analysis.inventory.slices
                if not matching or any((e.slice.driver, e.slice.pool.name, d.name) in matching for d in e.slice.devices)
            ]
            entry = analysis.inventory.classes.get(name)
            inventory = [entry.origin.obj] if entry is not None else []
            found = self._parties[name] = (
                tuple(dict.fromkeys([*holders, *askers])),
                tuple(dict.fromkeys([*inventory, *publishing])),
            )
        return found

    @cached_property
    def _holdings(self) -> list[tuple[KubeObject, frozenset[DeviceId]]]:
        """The workload of each pod placed with devices, and the devices it holds (once for every class)."""
        out = []
        for placement in self.analysis.simulation.placements:
            held = frozenset((r.driver, r.pool, r.device) for _, a in placement.allocations for r in a.results)
            if held:
                out.append((placement.pod.template.owner, held))
        return out

    @cached_property
    def _asking(self) -> list[tuple[KubeObject, frozenset[str]]]:
        """The workload of each pod, and the classes its claims ask for (once per claim spec, for every class)."""
        by_spec: dict[int, tuple[model.ResourceClaimSpec, frozenset[str]]] = {}
        out = []
        for pod in self.analysis.pods:
            classes: set[str] = set()
            for use in pod.claims:
                if use.claim is None:
                    continue
                spec = use.claim.spec
                known = by_spec.get(id(spec))
                if known is None:
                    names = frozenset(p.spec.device_class_name for r in spec.requests for p in r.parts())
                    known = by_spec[id(spec)] = (spec, names)  # (the spec is kept: its id stays its own)
                classes |= known[1]
            out.append((pod.template.owner, frozenset(classes)))
        return out

    def in_any_order(self, spec: demand.Spec) -> demand.Summary | None:
        """Why the devices a request (``spec``) can use are too few in any order, when the arithmetic proves
        it: the pods that can use no other device than those (or than those of the classes that share some
        with them) need more than there are free. ``None`` when it proves nothing (devices that can be shared
        prove nothing either)."""
        key = demand.request_key(spec)
        if key not in self._proofs:  # (the same for every failing workload of one request shape)
            self._proofs[key] = self._in_any_order(key)
        return self._proofs[key]

    def _in_any_order(self, key: demand.RequestKey) -> demand.Summary | None:
        own = self._ids(key)
        keys = self._keys
        around = frozenset().union(own, *(self._ids(k) for k in keys if self._ids(k) & own))
        plural = "s" if len(own) != 1 else ""
        for devices, what in ((own, f"the {len(own)} device{plural} the request can use"), (around, "")):
            if what == "" and devices == own:
                continue
            if devices & self._shareable:
                continue
            workloads = demand.must_take(self.analysis.simulation.placements, self.competing, self._within(devices))
            free = len(devices - self._allocated_before)
            if sum(w.total for w in workloads) > free:
                classes = sorted({k[0] for k in keys if self._ids(k) <= devices})
                names = " and ".join([", ".join(classes[:-1]), classes[-1]] if len(classes) > 1 else classes)
                what = what or f"the {len(devices)} devices of class{'es' if len(classes) > 1 else ''} {names}"
                if free < len(devices):
                    what += f" ({len(devices) - free} already allocated)"
                return demand.ClassDemand(what, key[0], workloads, free).summary()
        return None

    def _within(self, devices: frozenset[DeviceId]) -> Callable[[demand.RequestKey], bool]:
        """Whether a request (by its key) can use no device outside ``devices``: asked once per pod
        and request, answered once per request shape (a subset test over thousands of devices)."""
        answers: dict[demand.RequestKey, bool] = {}

        def inside(key: demand.RequestKey) -> bool:
            found = answers.get(key)
            if found is None:
                found = answers[key] = self._ids(key) <= devices
            return found

        return inside

    def _ids(self, key: demand.RequestKey) -> frozenset[DeviceId]:
        found = self._id_sets.get(key)
        if found is None:
            found = self._id_sets[key] = frozenset(ident for ident, _ in self.devices(key))
        return found

    @cached_property
    def _keys(self) -> list[demand.RequestKey]:
        """The request shapes of the pods that are placed or compete for devices."""
        competing = self.competing
        keys: dict[demand.RequestKey, None] = {}
        for placement in self.analysis.simulation.placements:
            if placement.outcome == "placed" or id(placement) in competing:
                for use in placement.pod.claims:
                    for request in use.claim.spec.requests if use.claim is not None else ():
                        keys.update((demand.request_key(p.spec), None) for p in request.alternatives())
        return list(keys)

    @cached_property
    def _shareable(self) -> frozenset[DeviceId]:
        return frozenset(
            (e.slice.driver, e.slice.pool.name, d.name)
            for e in self.analysis.inventory.slices
            for d in e.slice.devices
            if d.allow_multiple_allocations
        )

    @cached_property
    def _allocated_before(self) -> frozenset[DeviceId]:
        """Devices the inventory's allocated claims hold before the dry-run."""
        return frozenset(
            (r.driver, r.pool, r.device)
            for entry in self.analysis.inventory.allocated
            if entry.claim.allocation is not None
            for r in entry.claim.allocation.results
            if not r.admin_access
        )

    @cached_property
    def orders(self) -> Orders:
        """The search for orders in which the pods left without devices get them (:mod:`dralint.dryrun.orders`)."""
        failing = [f.first.pod.template_index for f in self.analysis.failures if f.fits_empty]
        return Orders(self.analysis, self.scarcity, failing)

    def scarcity(self, pod: Pod) -> int:
        """How many devices the pod's scarcest request can use (its first alternative's)."""
        sizes = [
            len(self._ids(demand.request_key(request.alternatives()[0].spec)))
            for use in pod.claims
            if use.claim is not None
            for request in use.claim.spec.requests
        ]
        return min(sizes, default=1 << 62)

    def steerable(self, spec: demand.Spec) -> tuple[list[str], int]:
        """The workloads whose placed pods hold devices a request (``spec``) can use while devices they could
        use instead stay free, and how many of those stay free (once per request shape)."""
        key = demand.request_key(spec)
        found = self._steerable.get(key)
        if found is None:
            found = self._steerable[key] = self._find_steerable(self._ids(key))
        return found

    def _find_steerable(self, own: frozenset[DeviceId]) -> tuple[list[str], int]:
        taken = self._taken
        elsewhere: dict[tuple[int, str], frozenset[DeviceId]] = {}  # (claim spec, request) -> free devices it could use
        out: dict[str, None] = {}
        free: set[DeviceId] = set()
        for placement in self.analysis.simulation.placements:
            if placement.outcome != "placed" or placement.pod.workload in out:
                continue
            for use, allocation in placement.allocations:
                claim = use.claim
                for result in allocation.results:
                    if claim is None or (result.driver, result.pool, result.device) not in own:
                        continue
                    known = elsewhere.get((id(claim.spec), result.request))
                    if known is None:
                        found = model.find_part(claim.spec.requests, result.request)
                        part = found[1] if found is not None else None
                        ids = self._ids(demand.request_key(part.spec)) if part is not None else frozenset()
                        known = elsewhere[id(claim.spec), result.request] = ids - own - taken
                    if known:
                        out[placement.pod.workload] = None
                        free |= known
        return list(out), len(free)

    @cached_property
    def _taken(self) -> frozenset[DeviceId]:
        """Devices allocated at the end of the dry-run (before it, and by its pods)."""
        return self._allocated_before | frozenset(
            (r.driver, r.pool, r.device) for a in self.analysis.simulation.allocated.values() for r in a.results
        )
