"""``dralint plan`` end to end on the scenarios under tests/fixtures/plan.

Each scenario is a folder with ``manifests.yaml`` and ``inventory.yaml``; each file in its
``expected/`` folder is the exact output of one run, named ``<expander>.<format>`` (``txt``,
``json`` or ``html``). The exit code is 1 exactly when the JSON of that run lists unplaceable pods.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testing.run import in_root
from tests.conftest import ROOT

PLAN = Path(ROOT) / "tests" / "fixtures" / "plan"
FORMATS = {"txt": "text", "json": "json", "html": "html"}


def invoke(*args: str) -> tuple[int, str]:
    return in_root("plan", *args)


def run(scenario: str, expander: str, fmt: str) -> tuple[int, str]:
    folder = f"tests/fixtures/plan/{scenario}"
    return invoke(
        f"{folder}/manifests.yaml", "-i", f"{folder}/inventory.yaml", "--expander", expander, "-f", FORMATS[fmt]
    )


CASES = sorted(
    (folder.name, path.stem, path.suffix[1:]) for folder in PLAN.iterdir() for path in (folder / "expected").iterdir()
)


@pytest.mark.parametrize(("scenario", "expander", "fmt"), CASES)
def test_plan_output_matches_the_golden(scenario: str, expander: str, fmt: str) -> None:
    expected = (PLAN / scenario / "expected" / f"{expander}.{fmt}").read_text(encoding="utf-8")
    code, output = run(scenario, expander, fmt)
    assert output == expected
    unplaceable = json.loads((PLAN / scenario / "expected" / f"{expander}.json").read_text(encoding="utf-8"))
    assert code == (1 if unplaceable["unplaceable"] else 0)


def test_plan_every_scenario_has_a_json_golden_per_run() -> None:
    for scenario, expander, _ in CASES:
        assert (PLAN / scenario / "expected" / f"{expander}.json").is_file()


@pytest.mark.parametrize("scenario", sorted(p.parent.name for p in PLAN.glob("*/check.txt")))
def test_check_hints_say_whether_scaling_up_helps(scenario: str) -> None:
    """With maxCount declared, DRA500/DRA501/DRA506 say which node pool's new nodes place the pods, or that none can."""
    folder = f"tests/fixtures/plan/{scenario}"
    code, output = in_root("check", f"{folder}/manifests.yaml", "-i", f"{folder}/inventory.yaml", "-f", "concise")
    assert code == 1
    assert output == (PLAN / scenario / "check.txt").read_text(encoding="utf-8")


def test_plan_stops_on_an_invalid_node_pool_with_its_position() -> None:
    code, output = invoke(
        "tests/fixtures/plan/two-pools/manifests.yaml",
        "-i",
        "tests/fixtures/plan/two-pools/inventory.yaml",
        "-i",
        "tests/fixtures/simulate/inventory/compact-bounds.yaml",
    )
    assert code == 2
    assert output == (
        "dralint: error: invalid Inventory document: tests/fixtures/simulate/inventory/compact-bounds.yaml:10:5: "
        "maxCount 1 of node pool inverted is below its minCount 3 (and 2 more; dralint check "
        "tests/fixtures/simulate/inventory/compact-bounds.yaml lists them)\n"
    )


def test_plan_refuses_a_threshold_outside_zero_to_one() -> None:
    code, output = invoke("tests/fixtures/plan/two-pools/manifests.yaml", "--scale-down-utilization-threshold", "1.5")
    assert code == 2
    assert output == "dralint: error: --scale-down-utilization-threshold must be between 0 and 1, not 1.5\n"
