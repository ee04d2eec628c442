"""Allocations carried over between nodes of one shape: each is what the allocator itself finds on that
node, as allocated at that moment, after as many steps."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from dralint.allocator import Allocator
from dralint.api import model
from dralint.cli import main
from dralint.dryrun import carry, state
from dralint.dryrun.state import Cluster
from testing.manifests import gpu_cluster
from testing.oversubscribed import cluster as oversubscribed

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "dryrun" / "screen"
SCENARIOS = sorted(p.name for p in FIXTURES.glob("*.yaml") if not p.name.endswith(".dralint.yaml"))
GENERATED = {"oversubscribed": oversubscribed, "gpu-cluster": gpu_cluster}


def _scenario(name: str, tmp_path: Path) -> list[str]:
    """The command line's options and paths for a fixture or a small generated cluster (50 nodes)."""
    if name in GENERATED:
        inventory, workloads = GENERATED[name](0.005)
        (tmp_path / "inventory.yaml").write_text(inventory, encoding="utf-8")
        (tmp_path / "workloads.yaml").write_text(workloads, encoding="utf-8")
        return ["--no-config", str(tmp_path / "workloads.yaml"), "--inventory", str(tmp_path / "inventory.yaml")]
    config = FIXTURES / name.replace(".yaml", ".dralint.yaml")
    return [*(["--config", str(config)] if config.exists() else ["--no-config"]), str(FIXTURES / name)]


@pytest.mark.parametrize("name", [*SCENARIOS, *GENERATED])
def test_a_carried_allocation_is_the_allocators_own(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[tuple[carry.Fitted, Sequence[model.ResourceClaim]]] = []
    probe: list[tuple[Cluster, model.Node]] = []  # the attempt under way
    carried = carry.carry
    attempt = Cluster.attempt

    def probing(self: Cluster, node: model.Node, claims: Sequence[model.ResourceClaim]) -> object:
        probe[:] = [(self, node)]
        return attempt(self, node, claims)

    def verified(
        fitted: carry.Fitted, node: str, claims: Sequence[model.ResourceClaim], pools: dict[carry.Rank, str]
    ) -> tuple[model.AllocationResult, ...]:
        found = carried(fitted, node, claims, pools)
        cluster, probed = probe[0]
        assert probed.name == node
        allocator: Allocator = cluster._allocator(probed, 10**6)
        assert tuple(allocator.allocate(probed, claims) or ()) == found
        assert allocator.last_steps == fitted.steps
        checked.append((fitted, claims))
        return found

    monkeypatch.setattr(Cluster, "attempt", probing)
    monkeypatch.setattr(state.carry, "carry", verified)
    for command in (["check"], ["simulate"], ["simulate", "--strategy", "spread"]):
        CliRunner().invoke(main, [*command, *_scenario(name, tmp_path)], catch_exceptions=False)
    if name in GENERATED:
        assert checked  # node pools of many alike nodes: most placements are carried
    if name == "oversubscribed":
        # NICs shared by consumable bandwidth: share IDs made again with their pool and claim, also for
        # claims of other namespaces (the allocator reads a claim's namespace only to name it)
        assert any(r.share_id is not None for f, _ in checked for a in f.results for r in a.results)
        assert any(f.claims[0].namespace != claims[0].namespace for f, claims in checked)
