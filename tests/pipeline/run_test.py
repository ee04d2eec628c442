"""The pipeline's owner: every command reads the same configuration (limits, exclude, context, target)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from click.testing import CliRunner

from dralint.cli import main
from tests.conftest import FIXTURES

CASES = FIXTURES / "pipeline"


@contextmanager
def _inside(directory: Path) -> Iterator[None]:
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(cwd)


def _invoke(directory: Path, *args: str) -> tuple[int, str]:
    with _inside(directory):
        result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _placements(output: str) -> list[tuple[str, str | None, str]]:
    return [(p["pod"], p["node"], p["outcome"]) for p in json.loads(output)["placements"]]


def test_simulate_honours_the_configured_search_limit_as_check_does() -> None:
    code, output = _invoke(CASES / "limits", "check", "-f", "json", "pair.yaml")
    assert code == 0
    assert [(f["rule"], f["message"]) for f in json.loads(output)["findings"]] == [
        (
            "DRA008",
            "the dry-run gave up on pod ml/pair: allocating its claims on node node-0 takes more than 1 search "
            "steps (limits.maxSearchSteps)",
        )
    ]
    code, output = _invoke(CASES / "limits", "simulate", "-f", "json", "pair.yaml")
    assert code == 1
    assert [(p["pod"], p["outcome"], p["reason"]) for p in json.loads(output)["placements"]] == [
        ("ml/pair", "error", "search budget exhausted after 1 steps")
    ]


def test_simulate_without_the_configuration_places_the_pod() -> None:
    code, output = _invoke(CASES / "limits", "simulate", "-f", "json", "--no-config", "-i", "../cluster.yaml", ".")
    assert code == 0
    assert _placements(output) == [("ml/pair", "node-0", "placed")]


def test_simulate_skips_excluded_files() -> None:
    code, output = _invoke(CASES / "exclude", "simulate", "-f", "json", ".")
    assert code == 0
    assert _placements(output) == [("default/app-0", "node-0", "placed"), ("default/app-1", "node-0", "placed")]


def test_simulate_places_the_pods_of_context_files_in_path_order_with_the_checked_ones() -> None:
    code, output = _invoke(CASES / "context", "simulate", "-f", "json", "app.yaml")
    assert code == 1
    assert _placements(output) == [
        ("default/app-0", "node-0", "placed"),
        ("default/app-1", "node-0", "placed"),
        ("default/batch-0", "node-1", "placed"),
        ("default/batch-1", "node-1", "placed"),
        ("default/batch-2", "node-2", "placed"),
        ("default/batch-3", "node-2", "placed"),
        ("default/batch-4", None, "unsatisfiable"),
    ]


def test_allocate_takes_its_search_budget_from_the_configuration(tmp_path: Path) -> None:
    scenario = FIXTURES / "allocator" / "scenarios" / "small.scenario.json"
    (tmp_path / ".dralint.yaml").write_text("limits:\n  maxSearchSteps: 1\n", encoding="utf-8")
    code, output = _invoke(tmp_path, "allocate", str(scenario))
    assert code == 0
    outcomes = [(r["node"], r["outcome"], r["error"]) for r in json.loads(output)["results"]]
    assert outcomes == [("node-1", "error", "search budget exhausted after 1 steps"), ("node-2", "unsatisfiable", None)]
    code, output = _invoke(tmp_path, "allocate", "--no-config", str(scenario))
    assert [r["outcome"] for r in json.loads(output)["results"]] == ["allocated", "unsatisfiable"]


def _streams(directory: Path, *args: str) -> tuple[int, str, str]:
    with _inside(directory):
        result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_convert_skips_excluded_files_and_fits_the_configured_release() -> None:
    code, out, err = _streams(CASES / "convert", "convert", "--to", "v1beta2", ".")
    assert (code, err) == (0, "dralint: converted 1 object in 1 file to resource.k8s.io/v1beta2\n")
    assert out == (CASES / "convert.to-v1beta2.yaml").read_text(encoding="utf-8")
    # The configured cluster (1.33) does not serve v1: nothing is written, exit 2.
    code, out, err = _streams(CASES / "convert", "convert", "--to", "v1", ".")
    assert (code, out) == (2, "")
    assert err == (
        "dralint: error: apps/claim.yaml:2: Kubernetes 1.33 does not serve resource.k8s.io/v1 ResourceClaim "
        "(served in 1.34-1.37)\n"
    )


def test_convert_without_the_configuration_converts_every_file_for_the_newest_release() -> None:
    code, _, err = _streams(CASES / "convert", "convert", "--to", "v1", "--no-config", ".")
    assert (code, err) == (0, "dralint: converted 2 objects in 2 files to resource.k8s.io/v1\n")


def test_convert_reads_files_within_the_configured_size_limit(tmp_path: Path) -> None:
    (tmp_path / ".dralint.yaml").write_text("limits:\n  maxFileBytes: 100\n", encoding="utf-8")
    (tmp_path / "claim.yaml").write_bytes((CASES / "convert" / "apps" / "claim.yaml").read_bytes())
    code, out, err = _streams(tmp_path, "convert", "--to", "v1", "-w", "claim.yaml")
    assert (code, out) == (2, "")
    assert err == "dralint: error: claim.yaml: file is larger than 100 bytes (limits.maxFileBytes); nothing converted\n"
    assert (tmp_path / "claim.yaml").read_bytes() == (CASES / "convert" / "apps" / "claim.yaml").read_bytes()


def test_plan_honours_the_configured_search_limit_and_exclude() -> None:
    code, output = _invoke(CASES / "limits", "plan", "-f", "json", "pair.yaml")
    assert code == 1
    assert json.loads(output)["unplaceable"] == [
        {"pod": "ml/pair", "workload": "Pod ml/pair", "reason": "search budget exhausted after 1 steps"}
    ]
    code, output = _invoke(CASES / "exclude", "plan", "-f", "json", ".")
    assert code == 0
    assert json.loads(output)["unplaceable"] == []
