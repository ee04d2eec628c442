"""The dry-run checks honour ``--no-simulate``; inventory defects are still reported without it."""

from __future__ import annotations

import os

from click.testing import CliRunner

from dralint.cli import main
from tests.conftest import ROOT


def _rules(*args: str) -> list[str]:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(main, ["check", "--no-config", "--color", "never", *args])
    finally:
        os.chdir(cwd)
    rules = [line.split(" ")[2] for line in result.output.splitlines() if line.startswith("tests/")]
    return [rule for rule in rules if rule[3] in "4567"]  # the dry-run and inventory rules


def test_check_reports_dry_run_findings_with_an_inventory_in_the_checked_paths() -> None:
    assert _rules("tests/rules/DRA500/fail/too-many-per-node.yaml") == ["DRA500"]
    assert _rules("tests/rules/DRA420/fail/mixed-fleet.yaml") == ["DRA420", "DRA420"]


def test_check_no_simulate_skips_the_dry_run_but_not_inventory_defects() -> None:
    assert _rules("--no-simulate", "tests/rules/DRA500/fail/too-many-per-node.yaml") == []
    assert _rules("--no-simulate", "tests/rules/DRA420/fail/mixed-fleet.yaml") == []
    assert _rules("--no-simulate", "tests/rules/DRA703/fail/split-pool.yaml") == ["DRA703", "DRA703"]


def test_check_reads_the_inventory_from_the_inventory_option() -> None:
    assert _rules(
        "tests/fixtures/simulate/workloads/mixed.yaml",
        "--inventory",
        "tests/fixtures/simulate/inventory/kubectl-list.yaml",
    ) == ["DRA600", "DRA501", "DRA500"]
