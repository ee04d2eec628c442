"""``dralint migrate --check``: dry-run the workloads today, after the switch and after the rewrite, and compare.

Three dry-runs of one inventory (see :mod:`dralint.migrate.roads`): the workloads as they are with
``DRAExtendedResource`` off (the device plugin serves their resources through the nodes'
``status.allocatable``), the same with the release and gates as configured (DeviceClasses with
``extendedResourceName`` serve them), and the rewritten workloads (written to a temporary folder,
read like the originals). After either road a node has switched when the DRA driver a resource
stands for publishes ResourceSlices for it: its device plugin is gone; the other nodes keep theirs
(a mixed cluster), and there the scheduler still takes the device plugin's resource first. Exit
code 1 when a road places fewer pods of a workload than today.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TextIO

from dralint.api.versions import Target
from dralint.cluster.inventory import NodeEntry
from dralint.commands.simulate import SimulateSettings
from dralint.dryrun.analysis import Analysis
from dralint.errors import InputError
from dralint.migrate import roads, why
from dralint.migrate.classes import GATE
from dralint.migrate.resolve import Mapped, Unmapped, is_device_plugin_resource
from dralint.pipeline import run as pipeline
from dralint.report import migrate as report

__all__ = ["run"]


def run(
    base: SimulateSettings,
    plan: pipeline.Plan,
    rewritten: Sequence[tuple[str, str]],
    left: Mapping[str, Sequence[str]],
    lookup: Callable[[str], Mapped | Unmapped],
    fmt: str,
    out: TextIO,
) -> int:
    """Dry-run ``base``'s paths on the three roads (``rewritten``: the files' texts rewritten) and render them."""
    target = plan.target
    today = _dry_run(base, plan, lookup, device_plugins=True)
    switch = _dry_run(base, plan, lookup, device_plugins=False)
    with tempfile.TemporaryDirectory(prefix="dralint-migrate-") as folder:
        paths = []
        for number, (path, text) in enumerate(rewritten):
            copy = os.path.join(folder, f"{number:04d}-{os.path.basename(path)}")
            with open(copy, "w", encoding="utf-8") as handle:
                handle.write(text)
            paths.append(copy)
        after = _dry_run(replace(base, paths=tuple(paths)), plan, lookup, device_plugins=False)
    found = roads.compare(today, switch, after, target, left, lookup, plan.profiles)
    report.render(fmt, found, target.release, target.enabled(GATE), out)
    fewer = any(w.roads[r].placed < w.roads["today"].placed for w in found for r in ("switch", "rewrite"))
    return 1 if fewer else 0


def _dry_run(
    settings: SimulateSettings,
    plan: pipeline.Plan,
    lookup: Callable[[str], Mapped | Unmapped],
    *,
    device_plugins: bool,
) -> Analysis:
    """The dry-run of ``settings``' paths with the device plugins (today) or without them (after either road).

    Today no DeviceClass serves an extended resource: the gate is turned off in the plan itself,
    since 1.37 locks it on (there the scheduler still takes a resource a node's device plugin
    advertises before any class). After the switch the device plugins are gone from the nodes
    the resources' DRA drivers publish slices for: those list the resources at 0, as the kubelet
    keeps doing for an uninstalled device plugin's resource (kubernetes#133488).
    """
    if device_plugins:
        plan = replace(
            plan, target=Target(plan.target.release, {**plan.target.gates, GATE: False}, plan.target.overrides)
        )
    ctx = pipeline.read(plan, plan.inputs(settings.paths), options=plan.options())
    inventory = ctx.inventory
    if not inventory.has_inventory:
        raise InputError(
            "no inventory to dry-run against: give ResourceSlices or an Inventory document "
            "(--inventory, or inventory: in .dralint.yaml)"
        )
    if not device_plugins:
        switched = why.driver_nodes(inventory)
        inventory.nodes[:] = [_without_device_plugins(entry, switched, lookup) for entry in inventory.nodes]
    return pipeline.dry_run(ctx)


def _without_device_plugins(
    entry: NodeEntry, switched: Mapping[str, frozenset[str]], lookup: Callable[[str], Mapped | Unmapped]
) -> NodeEntry:
    """The node with the device-plugin resources whose DRA driver runs there at 0 (``switched``: driver -> nodes)."""
    allocatable = entry.node.allocatable
    if allocatable is None:
        return entry
    name = entry.node.name

    def replaced(resource: str) -> bool:
        driver = lookup(resource).driver if is_device_plugin_resource(resource) else None
        return driver is not None and name in switched.get(driver, ())

    listed = {resource: "0" if replaced(resource) else value for resource, value in allocatable.items()}
    return replace(entry, node=replace(entry.node, allocatable=listed))
