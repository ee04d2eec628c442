"""Loading fixture bundles for the simulation tests."""

from __future__ import annotations

from collections.abc import Mapping

from dralint.api.versions import make_target
from dralint.cluster import inventory
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from testing.run import ROOT

SIMULATE = ROOT / "tests" / "fixtures" / "simulate"


def context(*names: str, gates: Mapping[str, bool] | None = None, release: str = "1.37") -> CheckContext:
    """A check context over fixture files or directories under tests/fixtures/simulate."""
    workspace = load([str(SIMULATE / name) for name in names])
    return CheckContext(workspace, make_target(release, gates))


def build_inventory(*names: str) -> inventory.Inventory:
    ctx = context(*names)
    return inventory.build(ctx.objects, ctx.normalised)
