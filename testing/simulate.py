"""Loading fixture bundles for the simulation tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from dralint.api.versions import make_target
from dralint.cluster import inventory
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from testing.run import ROOT

if TYPE_CHECKING:
    from dralint.dryrun.analysis import Analysis

SIMULATE = ROOT / "tests" / "fixtures" / "simulate"


def context(*names: str, gates: Mapping[str, bool] | None = None, release: str = "1.37") -> CheckContext:
    """A check context over fixture files or directories under tests/fixtures/simulate."""
    workspace = load([str(SIMULATE / name) for name in names])
    return CheckContext(workspace, make_target(release, gates))


def build_inventory(*names: str) -> inventory.Inventory:
    ctx = context(*names)
    return inventory.build(ctx.objects, ctx.normalised)


def placement_rows(analysis: Analysis) -> list[tuple[str, str, str, str]]:
    """Each pod of the dry-run that needs devices: (pod, outcome, node or "-", its devices joined by ",")."""
    return [
        (
            p.pod.name,
            p.outcome,
            p.node or "-",
            ",".join(r.device for _, a in p.allocations for r in a.results),
        )
        for p in analysis.simulation.placements
    ]
