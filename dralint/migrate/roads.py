"""Sum up, per workload, where the dry-runs of the three roads put the pods that ask for device-plugin resources.

The roads: today (the device plugin: the nodes' ``status.allocatable``), after the switch (the
workloads as they are, served by DeviceClasses with ``extendedResourceName``), and after the
rewrite (claims from ResourceClaimTemplates). Each is one :class:`~dralint.dryrun.analysis.Analysis`
of the same inventory; a workload is matched across them by its name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from dralint.api.versions import Target
from dralint.api.workloads import PodSpec
from dralint.dataclass import dataclass
from dralint.dryrun import resources as dryrun_resources
from dralint.dryrun.analysis import Analysis
from dralint.dryrun.placement import Placement
from dralint.migrate import why
from dralint.migrate.classes import GATE, gate_note
from dralint.migrate.resolve import Mapped, Unmapped, is_device_plugin_resource
from dralint.profiles.load import Profiles

__all__ = ["Road", "Workload", "compare"]

ROADS = ("today", "switch", "rewrite")


@dataclass(frozen=True, slots=True)
class Road:
    placed: int
    reasons: tuple[str, ...]  # why the others were not, each once, in the order met
    device_plugin: int = 0  # of the placed, those a device plugin still serves (a node that kept it)


@dataclass(frozen=True, slots=True)
class Workload:
    name: str  # "Deployment ml/infer"
    resources: tuple[str, ...]  # the device-plugin resources its containers ask for
    pods: int
    roads: Mapping[str, Road]


def compare(
    today: Analysis,
    switch: Analysis,
    rewrite: Analysis,
    target: Target,
    left: Mapping[str, Sequence[str]],
    lookup: Callable[[str], Mapped | Unmapped],
    profiles: Profiles,
) -> list[Workload]:
    """The workloads of ``today`` that ask for device-plugin resources, in document order.

    ``left`` gives, by workload, why the rewrite left some of its requests as they are; ``lookup``
    what each resource stands for, whose driver's ``profiles`` say what its devices look like.
    """
    asked: dict[str, tuple[str, ...]] = {}
    specs: dict[str, PodSpec] = {}
    for pod in today.pods:
        if pod.workload not in asked:
            names = {r for c in pod.template.spec.containers for r in (*c.limits, *c.requests)}
            asked[pod.workload] = tuple(sorted(n for n in names if is_device_plugin_resource(n)))
            specs[pod.workload] = pod.template.spec
    wanted = [name for name, resources in asked.items() if resources]
    by_road = {
        "today": _by_workload(_device_plugin(today)),
        "switch": _by_workload(_all(switch)),
        "rewrite": _by_workload(_all(rewrite)),
    }
    after = {"switch": switch, "rewrite": rewrite}
    out = []
    for name in wanted:
        resources = asked[name]
        pods = len(by_road["today"].get(name, []))
        roads = {}
        for road in ROADS:
            placements = by_road[road].get(name, [])
            extra: tuple[str, ...] = ()
            if road == "switch":
                extra = _switch_reasons(resources, switch, target)
            elif road == "rewrite":
                extra = tuple(left.get(name, ()))
            if road in after and sum(p.outcome == "placed" for p in placements) < pods:
                extra += _listed_at_zero(resources, switch, target) if road == "switch" else ()
                extra += _dedicated(resources, specs[name], after[road], lookup, profiles)
            served = sum(1 for p in placements if _by_device_plugin(p)) if road == "switch" else 0
            roads[road] = _road(placements, extra, served)
        out.append(Workload(name, resources, pods, roads))
    return out


def _dedicated(
    resources: Sequence[str],
    spec: PodSpec,
    analysis: Analysis,
    lookup: Callable[[str], Mapped | Unmapped],
    profiles: Profiles,
) -> tuple[str, ...]:
    """The reasons of :mod:`dralint.migrate.why` for the resources a road leaves unplaced."""
    inventory = analysis.inventory
    with_devices = why.driver_nodes(inventory)
    slices = [entry.slice for entry in inventory.slices]
    found = []
    for resource in resources:
        mapped = lookup(resource)
        if not isinstance(mapped, Mapped):
            continue
        reason = why.selector_reason(spec, inventory.nodes, mapped, with_devices.get(mapped.driver, frozenset()))
        missing = why.missing_devices(mapped, profiles.get(mapped.driver), slices)
        found += [r for r in (reason, missing) if r is not None]
    return tuple(found)


def _listed_at_zero(resources: Sequence[str], switch: Analysis, target: Target) -> tuple[str, ...]:
    """Why 1.34 serves none of ``resources`` through DRA on the nodes that list them at 0 after the switch."""
    if not dryrun_resources.listed_at_zero_is_device_plugins(target.release):
        return ()
    listed = [e.node.allocatable for e in switch.inventory.nodes if e.node.allocatable is not None]
    zero = [r for r in resources if any(r in a and not dryrun_resources.amounts(a).get(r) for a in listed)]
    return tuple(
        f"the kubelet keeps listing {r} at 0 in status.allocatable after its device plugin is uninstalled "
        f"(kubernetes#133488), and Kubernetes {target.release} leaves a resource a node lists to the device "
        "plugin, so DRA serves it on no such node (from 1.35 on it does: kubernetes#133784)"
        for r in zero
    )


def _by_device_plugin(placement: Placement) -> bool:
    """Whether a placed pod asking for DRA-backed extended resources got none of them through DRA (a
    node's device plugin served them: KEP-5004 leaves a resource the node advertises to it)."""
    if placement.outcome != "placed":
        return False
    asks = any(use.kind == "extended" for use in placement.pod.claims)
    return asks and not any(use.kind == "extended" for use, _ in placement.allocations)


def _all(analysis: Analysis) -> list[Placement]:
    return [*analysis.simulation.placements, *analysis.simulation.others]


def _device_plugin(analysis: Analysis) -> list[Placement]:
    """Today's placements, where a node that does not advertise a resource the pod asks for holds none.

    (The dry-run treats a node without ``status.allocatable`` as having room for anything.)
    """
    nodes = {entry.node.name: entry.node.allocatable for entry in analysis.inventory.nodes}
    out = []
    for placement in _all(analysis):
        if placement.outcome == "placed" and placement.node is not None:
            advertised = nodes.get(placement.node) or {}
            missing = [
                r
                for c in placement.pod.template.spec.containers
                for r in sorted({*c.limits, *c.requests})
                if is_device_plugin_resource(r) and r not in advertised
            ]
            if missing:
                reason = f"node {placement.node} does not advertise {missing[0]} in status.allocatable"
                placement = Placement(placement.pod, "no-node", reason=reason)
        out.append(placement)
    return out


def _by_workload(placements: Iterable[Placement]) -> dict[str, list[Placement]]:
    out: dict[str, list[Placement]] = {}
    for placement in placements:
        out.setdefault(placement.pod.workload, []).append(placement)
    return out


def _road(placements: Sequence[Placement], extra: Iterable[str], device_plugin: int) -> Road:
    reasons: list[str] = []
    for reason in (*extra, *(p.reason for p in placements if p.outcome != "placed")):
        if reason and reason not in reasons:
            reasons.append(reason)
    return Road(sum(1 for p in placements if p.outcome == "placed"), tuple(reasons), device_plugin)


def _switch_reasons(resources: Sequence[str], switch: Analysis, target: Target) -> tuple[str, ...]:
    """Why the scheduler would not serve ``resources`` through DRA after the switch, before any placement."""
    note = gate_note(target)
    if note is not None:
        return (note,)
    return tuple(
        f"no DeviceClass names {r} in extendedResourceName (dralint migrate --classes prints one; {GATE})"
        for r in resources
        if r not in switch.extended
    )
