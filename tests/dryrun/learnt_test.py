"""Clusters over the same inputs share what they learn: the outputs are those of clusters that learn alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dralint.cli import main
from dralint.dryrun.learnt import Learnt
from testing.oversubscribed import cluster as oversubscribed

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "dryrun" / "screen"


def _outputs(paths: list[str]) -> list[tuple[int, str]]:
    runner = CliRunner()
    commands = (["check", "-f", "json"], ["simulate", "-f", "json"], ["simulate", "--strategy", "spread"])
    return [(r.exit_code, r.output) for r in (runner.invoke(main, [*c, "--no-config", *paths]) for c in commands)]


@pytest.mark.parametrize("name", ["oversubscribed", "capacity.yaml", "taints.yaml", "first-available.yaml"])
def test_outputs_are_the_same_when_each_cluster_learns_alone(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if name == "oversubscribed":  # 50 nodes: workloads fail, so the dry-run is replayed in other orders
        inventory, workloads = oversubscribed(0.005)
        (tmp_path / "inventory.yaml").write_text(inventory, encoding="utf-8")
        (tmp_path / "workloads.yaml").write_text(workloads, encoding="utf-8")
        paths = [str(tmp_path / "workloads.yaml"), "--inventory", str(tmp_path / "inventory.yaml")]
    else:
        paths = [str(FIXTURES / name)]
    shared = _outputs(paths)
    served: list[bool] = []
    serves = Learnt.serves

    def counted(self: Learnt, *args: object) -> bool:
        served.append(serves(self, *args))  # type: ignore[arg-type]
        return False

    monkeypatch.setattr(Learnt, "serves", counted)
    assert _outputs(paths) == shared
    assert any(served)  # (the base cluster, the empty one, the replays would have shared)
