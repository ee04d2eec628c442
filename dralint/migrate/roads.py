"""Sum up, per workload, where the dry-runs of the three roads put the pods that ask for device-plugin resources.

The roads: today (the device plugin: the nodes' ``status.allocatable``), after the switch (the
workloads as they are, served by DeviceClasses with ``extendedResourceName``), and after the
rewrite (claims from ResourceClaimTemplates). Each is one :class:`~dralint.dryrun.analysis.Analysis`
of the same inventory; a workload is matched across them by its name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from dralint.api.versions import Target
from dralint.dataclass import dataclass
from dralint.dryrun.analysis import Analysis
from dralint.dryrun.placement import Placement
from dralint.migrate.classes import GATE, gate_note
from dralint.migrate.resolve import is_device_plugin_resource

__all__ = ["Road", "Workload", "compare"]

ROADS = ("today", "switch", "rewrite")


@dataclass(frozen=True, slots=True)
class Road:
    placed: int
    reasons: tuple[str, ...]  # why the others were not, each once, in the order met


@dataclass(frozen=True, slots=True)
class Workload:
    name: str  # "Deployment ml/infer"
    resources: tuple[str, ...]  # the device-plugin resources its containers ask for
    pods: int
    roads: Mapping[str, Road]


def compare(
    today: Analysis, switch: Analysis, rewrite: Analysis, target: Target, left: Mapping[str, Sequence[str]]
) -> list[Workload]:
    """The workloads of ``today`` that ask for device-plugin resources, in document order.

    ``left`` gives, by workload, why the rewrite left some of its requests as they are.
    """
    asked: dict[str, tuple[str, ...]] = {}
    for pod in today.pods:
        if pod.workload not in asked:
            names = {r for c in pod.template.spec.containers for r in (*c.limits, *c.requests)}
            asked[pod.workload] = tuple(sorted(n for n in names if is_device_plugin_resource(n)))
    wanted = [name for name, resources in asked.items() if resources]
    by_road = {
        "today": _by_workload(_device_plugin(today)),
        "switch": _by_workload(_all(switch)),
        "rewrite": _by_workload(_all(rewrite)),
    }
    out = []
    for name in wanted:
        resources = asked[name]
        roads = {}
        for road in ROADS:
            placements = by_road[road].get(name, [])
            extra = _switch_reasons(resources, switch, target) if road == "switch" else ()
            if road == "rewrite":
                extra = tuple(left.get(name, ()))
            roads[road] = _road(placements, extra)
        out.append(Workload(name, resources, len(by_road["today"].get(name, [])), roads))
    return out


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


def _road(placements: Sequence[Placement], extra: Iterable[str]) -> Road:
    reasons: list[str] = []
    for reason in (*extra, *(p.reason for p in placements if p.outcome != "placed")):
        if reason and reason not in reasons:
            reasons.append(reason)
    return Road(sum(1 for p in placements if p.outcome == "placed"), tuple(reasons))


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
