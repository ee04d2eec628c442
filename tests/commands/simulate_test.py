"""``dralint simulate`` end to end: text and JSON reports against goldens, exit codes, bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from dralint.cli import main
from testing.run import in_root
from testing.simulate import SIMULATE

EXPECTED = SIMULATE / "expected"


def _invoke(*args: str) -> tuple[int, str]:
    return in_root("simulate", *args)


def test_simulate_text_report_lists_placements_utilisation_and_unplaced_pods() -> None:
    code, output = _invoke(
        "tests/fixtures/simulate/workloads/mixed.yaml",
        "--inventory",
        "tests/fixtures/simulate/inventory/kubectl-list.yaml",
    )
    assert code == 1  # some pods stay unplaced
    assert output == (EXPECTED / "mixed.txt").read_text(encoding="utf-8")


def test_simulate_lists_a_rejected_pod_whose_claim_entries_cannot_be_read() -> None:
    code, output = _invoke("tests/fixtures/simulate/workloads/unreadable-claims.yaml")
    assert code == 1  # the rejected pod has no place
    assert output == (EXPECTED / "unreadable-claims.txt").read_text(encoding="utf-8")


def test_simulate_notes_an_invalid_inventory_document_it_did_not_expand() -> None:
    invalid = "tests/fixtures/simulate/inventory/compact-invalid.yaml"
    code, output = _invoke(invalid, "tests/fixtures/simulate/inventory/compact-gpu.yaml", "-f", "json")
    assert code == 0
    assert json.loads(output)["notes"] == [
        f"Inventory broken ({invalid}) is invalid and was not expanded; dralint check lists why"
    ]


def test_simulate_json_report_with_counters() -> None:
    code, output = _invoke("tests/fixtures/simulate/placement/partitions.yaml", "--format", "json")
    assert code == 0
    assert json.loads(output) == json.loads((EXPECTED / "partitions.json").read_text(encoding="utf-8"))


def test_simulate_writes_the_report_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    code, output = _invoke("tests/fixtures/simulate/placement/three-nodes.yaml", "-f", "json", "-o", str(out))
    assert (code, output) == (0, "")
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["summary"] == {"pods": 4, "placed": 4, "unplaced": 0, "nodes": 3}
    assert [p["node"] for p in report["placements"]] == ["node-0", "node-0", "node-1", "node-1"]


def test_simulate_spread_strategy() -> None:
    code, output = _invoke("tests/fixtures/simulate/placement/three-nodes.yaml", "-f", "json", "--strategy", "spread")
    assert code == 0
    assert [p["node"] for p in json.loads(output)["placements"]] == ["node-0", "node-1", "node-2", "node-0"]


def test_simulate_without_inventory_is_an_input_error() -> None:
    # A CI step must not pass when there was nothing to dry-run against.
    code, output = _invoke("tests/rules/DRA500/pass/no-inventory.yaml")
    assert (code, output) == (
        2,
        "dralint: error: no inventory to dry-run against: give ResourceSlices or an Inventory document "
        "(--inventory, or inventory: in .dralint.yaml)\n",
    )


def test_simulate_an_inventory_without_devices_leaves_the_pod_pending() -> None:
    # Node pools without devices are a cluster (two CPU nodes), not a missing inventory.
    code, output = _invoke("tests/rules/DRA500/fail/inventory-without-devices.yaml", "-f", "json")
    assert code == 1
    report = json.loads(output)
    assert report["summary"] == {"pods": 1, "placed": 0, "unplaced": 1, "nodes": 2}
    assert [(p["pod"], p["outcome"]) for p in report["placements"]] == [("default/train-0", "unsatisfiable")]


def test_simulate_missing_path_is_a_usage_error() -> None:
    code, output = _invoke("tests/fixtures/simulate/no-such-file.yaml")
    assert code == 2
    assert "no such file or directory" in output


def test_simulate_takes_inventory_and_target_from_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "cluster.yaml").write_text(
        (SIMULATE / "inventory/kubectl-list.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "apps.yaml").write_text(
        (SIMULATE / "workloads/mixed.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / ".dralint.yaml").write_text('kubernetesVersion: "1.35"\ninventory: [cluster.yaml]\n', encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(main, ["simulate", "apps.yaml", "-f", "json"])
    finally:
        os.chdir(cwd)
    report = json.loads(result.output)
    assert report["target"]["kubernetesVersion"] == "1.35"
    # 1.35 has no DRA-backed extended resources by default (extendedResourceName is dropped) and no
    # Node advertises example.com/gpu: the Job's pod stays pending
    last = report["placements"][-1]
    assert (last["pod"], last["outcome"]) == ("ml/batch-0", "no-resource")
    assert report["summary"]["nodes"] == 2


def test_simulate_json_has_a_version_and_the_targets_effective_gates_as_check_shows_them() -> None:
    inputs = ("tests/fixtures/simulate/placement/partitions.yaml", "--kubernetes-version", "1.34")
    gates = ("--feature-gates", "DRAConsumableCapacity=true")
    simulated = json.loads(_invoke(*inputs, *gates, "-f", "json")[1])
    checked = json.loads(in_root("check", "--no-config", *inputs, *gates, "-f", "json")[1])
    assert simulated["version"] == 1 and next(iter(simulated)) == "version"
    assert simulated["target"] == checked["target"]
    assert simulated["target"]["featureGates"]["DRAConsumableCapacity"] is True
    assert len(simulated["target"]["featureGates"]) > 1  # every gate of the release, not only those given
