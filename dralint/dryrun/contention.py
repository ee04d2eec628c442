"""Pods competing for devices after the dry-run: the devices a request can use, what the placed pods hold of
them and the unplaced ones need (DRA501's arithmetic), and the objects a finding about them involves.

Everything is worked out once per request shape (class and selectors) or per class, not per failing
workload: the failing workloads of one class share it, and per workload the cost would grow with the
square of the workloads.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from dralint.api import model
from dralint.diagnose import demand
from dralint.diagnose.candidates import accepted_devices

if TYPE_CHECKING:
    from dralint.api.objects import KubeObject
    from dralint.dryrun.analysis import Analysis

DeviceId = demand.DeviceId


class Contention:
    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self._devices: dict[demand.RequestKey, list[tuple[DeviceId, model.Device]]] = {}
        self._demands: dict[tuple[demand.RequestKey, str], demand.ClassDemand] = {}
        self._capacity: dict[tuple[demand.RequestKey, str], demand.CapacityDemand] = {}
        self._parties: dict[str, tuple[tuple[KubeObject, ...], tuple[KubeObject, ...]]] = {}

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

    def class_demand(self, spec: demand.Spec, request: str) -> demand.ClassDemand:
        """Demand for the devices request ``request`` (``spec``) can use, over every pod of the dry-run."""
        key = demand.request_key(spec)
        found = self._demands.get((key, request))
        if found is None:
            ids = {ident for ident, _ in self.devices(key)}
            placements = self.analysis.simulation.placements
            found = demand.class_demand(placements, self.competing, key, request, ids)
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

    def parties(self, name: str) -> tuple[tuple[KubeObject, ...], tuple[KubeObject, ...]]:
        """What a finding about the devices of DeviceClass ``name`` involves: the workloads whose placed pods
        hold some of them, then those whose pods ask for the class; and the class with the objects publishing
        them (every slice's when none does)."""
        found = self._parties.get(name)
        if found is None:
            matching = {ident for ident, _ in self.devices((name, ()))}
            analysis = self.analysis
            holders = [
                p.pod.template.owner
                for p in analysis.simulation.placements
                if any((r.driver, r.pool, r.device) in matching for _, a in p.allocations for r in a.results)
            ]
            askers = [
                pod.template.owner
                for pod in analysis.pods
                if any(
                    part.spec.device_class_name == name
                    for use in pod.claims
                    if use.claim is not None
                    for request in use.claim.spec.requests
                    for part in request.parts()
                )
            ]
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
