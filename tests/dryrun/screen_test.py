"""The node screen: a dry-run that passes over full nodes reports what the allocator says on each of
them, and is charged the steps the allocator would have taken, to the step."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from dralint.allocator import Allocator
from dralint.api import model
from dralint.api.versions import make_target
from dralint.cli import main
from dralint.dryrun import screen
from dralint.dryrun.state import Cluster
from dralint.limits import Limits
from dralint.pipeline.context import CheckContext, Options
from dralint.read.load import load
from testing.manifests import gpu_cluster
from testing.oversubscribed import cluster as oversubscribed

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "dryrun" / "screen"
SCENARIOS = sorted(p.name for p in FIXTURES.glob("*.yaml") if not p.name.endswith(".dralint.yaml"))
GENERATED = {"oversubscribed": oversubscribed, "gpu-cluster": gpu_cluster}


def _scenario(name: str, tmp_path: Path) -> tuple[list[str], list[str]]:
    """(paths, options) of a fixture or of a small generated cluster (50 nodes)."""
    if name in GENERATED:
        inventory, workloads = GENERATED[name](0.005)
        (tmp_path / "inventory.yaml").write_text(inventory, encoding="utf-8")
        (tmp_path / "workloads.yaml").write_text(workloads, encoding="utf-8")
        return [str(tmp_path / "workloads.yaml"), "--inventory", str(tmp_path / "inventory.yaml")], ["--no-config"]
    config = FIXTURES / name.replace(".yaml", ".dralint.yaml")
    options = ["--config", str(config)] if config.exists() else ["--no-config"]
    return [str(FIXTURES / name)], options


def _outputs(paths: list[str], options: list[str]) -> list[tuple[int, str]]:
    runner = CliRunner()
    out = []
    for command in (["check", "-f", "json"], ["simulate", "-f", "json"], ["simulate", "--strategy", "spread"]):
        result = runner.invoke(main, [*command, *options, *paths])
        out.append((result.exit_code, result.output))
    return out


def _without_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Cluster, "first_request", lambda self, shape, claims: None)


@pytest.mark.parametrize("name", [*SCENARIOS, *GENERATED])
def test_outputs_are_the_same_without_the_screen(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths, options = _scenario(name, tmp_path)
    screened = _outputs(paths, options)
    _without_screen(monkeypatch)
    assert _outputs(paths, options) == screened


def _dry_run(paths: Sequence[str], limits: Limits) -> tuple[object, ...]:
    workspace = load([p for p in paths if p != "--inventory"])
    analysis = CheckContext(workspace, make_target("1.37", None), Options(limits=limits)).dry_run()
    outcomes = [(p.pod.name, p.outcome, p.node, p.reason) for p in analysis.simulation.placements]
    return outcomes, analysis.cluster.budget.used


@pytest.mark.parametrize(
    ("name", "steps"),
    [("first-available.yaml", 60), ("first-available.yaml", 97), ("first-available.yaml", 150)]
    + [("oversubscribed", steps) for steps in (1000, 1777, 2000, 2400)],  # the whole dry-run takes 2522
)
def test_the_budget_runs_out_at_the_same_pod_and_step(
    name: str, steps: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths, _ = _scenario(name, tmp_path)
    limits = Limits(max_dry_run_steps=steps)
    screened = _dry_run(paths, limits)
    _without_screen(monkeypatch)
    assert _dry_run(paths, limits) == screened


@pytest.mark.parametrize("name", [*SCENARIOS, *GENERATED])
def test_a_dead_node_is_one_where_the_allocator_finds_nothing_in_as_many_steps(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every node the screen calls dead, checked against the allocator as allocated at that moment."""
    checked: list[int] = []
    dead = Cluster.dead

    def verified(self: Cluster, first: screen.FirstRequest, node: model.Node, *args: object) -> bool:
        found = dead(self, first, node)
        if found:
            claims = self._probe[1]
            allocator: Allocator = self._allocator(node, 10**6)
            assert allocator.allocate(node, claims) is None
            assert allocator.last_steps == first.steps
            checked.append(first.steps)
        return found

    attempt = Cluster.attempt
    first_request = Cluster.first_request

    def probing(self: Cluster, node: model.Node, claims: Sequence[model.ResourceClaim]) -> object:
        self._probe = (node, claims)  # type: ignore[attr-defined]
        return attempt(self, node, claims)

    def remembered(self: Cluster, shape: object, claims: Sequence[model.ResourceClaim]) -> object:
        self._probe = (None, claims)  # type: ignore[attr-defined]
        return first_request(self, shape, claims)  # type: ignore[arg-type]

    monkeypatch.setattr(Cluster, "dead", verified)
    monkeypatch.setattr(Cluster, "attempt", probing)
    monkeypatch.setattr(Cluster, "first_request", remembered)
    paths, options = _scenario(name, tmp_path)
    CliRunner().invoke(main, ["simulate", *options, *paths], catch_exceptions=False)
    # (a selector that fails on a free device leaves every node to the allocator, and so do derived
    # attributes, which the search evaluates before it checks the capacity)
    assert bool(checked) is (name not in ("selector-error.yaml", "derived-attributes.yaml"))
