"""Say why a road leaves a workload's pods unplaced where the dry-run's own reason is generic.

Two causes a migration meets that the scheduler's reasons do not name: a node selector (or
required node affinity) that only nodes without the driver's devices satisfy, where the device
plugin served the workload; and a resource whose devices the inventory does not hold at all (a
MIG profile on GPUs published whole, with no MIG devices and no counters to partition them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import dralint.cel
from dralint.api import model
from dralint.api.workloads import PodSpec
from dralint.cel import CelCompileError, CelRuntimeError
from dralint.cluster.inventory import Inventory, NodeEntry
from dralint.dryrun.eligibility import affinity_exclusion
from dralint.migrate.resolve import Mapped
from dralint.profiles.model import DriverProfile

__all__ = ["driver_nodes", "missing_devices", "selector_reason"]

_NAMED = 3  # nodes named in a reason; the others are counted


def driver_nodes(inventory: Inventory) -> dict[str, frozenset[str]]:
    """Per driver, the nodes it publishes node-local ResourceSlices for (the nodes that run its DRA driver)."""
    found: dict[str, set[str]] = {}
    for entry in inventory.slices:
        if entry.slice.node_name:
            found.setdefault(entry.slice.driver, set()).add(entry.slice.node_name)
    return {driver: frozenset(nodes) for driver, nodes in found.items()}


def selector_reason(
    spec: PodSpec, entries: Sequence[NodeEntry], mapped: Mapped, with_devices: frozenset[str]
) -> str | None:
    """Why ``spec``'s node selection keeps it off every node with ``mapped``'s driver, if it does.

    ``with_devices`` are the nodes the driver publishes devices for; the reason names the term
    that refuses the first of them and the nodes the selection admits instead. A node only a
    slice names has unknown labels: the selection may admit it, and nothing is said.
    """
    if any(e.origin is None and e.node.name in with_devices for e in entries):
        return None
    nodes = [e.node for e in entries]
    refused = [(n, affinity_exclusion(n, spec)) for n in nodes if n.name in with_devices]
    admitted = [n.name for n in nodes if affinity_exclusion(n, spec) is None]
    if not refused or not admitted or any(why is None for _, why in refused):
        return None
    term = next(why for _, why in refused if why is not None)
    selection = term.detail
    if term.reason == "node affinity" and spec.required_affinity is not None:
        selection = "required node affinity " + " or ".join(
            f"nodeSelectorTerms[{i}] ({_term(t)})" for i, t in enumerate(spec.required_affinity.terms)
        )
    return (
        f"{selection} admits only {_names(admitted)}, where {mapped.driver} publishes no devices; "
        f"it refuses every node with them ({_names(sorted(with_devices))}), so {mapped.resource} "
        f"has no DRA node to go to"
    )


def missing_devices(mapped: Mapped, profile: DriverProfile | None, slices: Iterable[model.ResourceSlice]) -> str | None:
    """Why no device in ``slices`` can serve ``mapped`` (None when one can, or its selector does not compile)."""
    own = [s for s in slices if s.driver == mapped.driver]
    devices = [d for s in own for d in s.devices]
    try:
        selector = dralint.cel.compile_selector(mapped.class_selector)
        if any(_matches(selector, mapped.driver, d) for d in devices):
            return None
    except CelCompileError:
        return None
    driver = mapped.driver
    held = (
        f"none of the {len(devices)} {driver} devices in the inventory's ResourceSlices matches {mapped.class_selector}"
        if devices
        else f"{driver} publishes no device in the inventory's ResourceSlices"
    )
    # A resource of one profile (a MIG profile, a partition style) could also come from devices the
    # driver partitions on demand, which consume the counters of their GPU's slice.
    profiled = bool(devices) and bool(mapped.entry.match)
    counters = any(s.shared_counters for s in own)
    partitions = f", and no {driver} slice declares sharedCounters" if profiled and not counters else ""
    kinds = [k for k in profile.device_kinds if k.name in (mapped.entry.device_kinds or ())] if profile else []
    expected = " or ".join(f"{k.name} ({k.description})" for k in kinds)
    expects = f": the driver publishes {mapped.entry.description} as devices of kind {expected}" if expected else ""
    return f"{mapped.resource}: {held}{partitions}{expects}"


def _matches(selector: dralint.cel.Selector, driver: str, device: model.Device) -> bool:
    try:
        return selector.matches(dralint.cel.device_value(driver, device))
    except CelRuntimeError:
        return False


def _term(term: model.NodeSelectorTerm) -> str:
    """``gpu-stack In [device-plugin], zone Exists``: a term's requirements as the API writes them."""
    shown = [
        f"{r.key} {r.operator}" + (f" [{', '.join(r.values)}]" if r.values else "")
        for r in (*term.match_expressions, *term.match_fields)
    ]
    return ", ".join(shown)


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(names[:_NAMED])
    return shown if len(names) <= _NAMED else f"{shown} and {len(names) - _NAMED} more"
