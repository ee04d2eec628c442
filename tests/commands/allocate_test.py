"""``dralint allocate``: output shape, repeat timing fields, and exit 2 for bad scenario files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from dralint.cli import main
from tests.conftest import FIXTURES

SCENARIOS = FIXTURES / "allocator" / "scenarios"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["allocate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_allocate_prints_one_result_per_node_in_order() -> None:
    code, out, _ = _run(str(SCENARIOS / "small.scenario.json"))
    assert code == 0
    document = json.loads(out)
    assert [(r["node"], r["outcome"], r["error"]) for r in document["results"]] == [
        ("node-1", "allocated", None),
        ("node-2", "unsatisfiable", None),
    ]
    node_1 = document["results"][0]
    assert node_1["allocations"] == [
        {
            "claim": "default/train",
            "allocation": {
                "devices": {
                    "results": [
                        {
                            "request": "gpu",
                            "driver": "gpu.example.com",
                            "pool": "node-1",
                            "device": "gpu-1",
                            "tolerations": [{"key": "other", "operator": "Equal", "effect": "NoExecute"}],
                        }
                    ]
                },
                "nodeSelector": {
                    "nodeSelectorTerms": [
                        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}
                    ]
                },
            },
        }
    ]
    assert node_1["allocateOneInvocations"] == 4
    assert "seconds" not in node_1  # no timings unless asked for: the output is the same run to run
    assert "totalSeconds" not in document and "repeat" not in document
    assert _run(str(SCENARIOS / "small.scenario.json"))[1] == out


def test_allocate_repeat_adds_total_seconds_and_repeat() -> None:
    code, out, _ = _run("--repeat", "3", str(SCENARIOS / "small.scenario.json"))
    document = json.loads(out)
    assert code == 0
    assert document["repeat"] == 3
    assert all(r["seconds"] > 0 for r in document["results"])
    assert document["totalSeconds"] >= sum(r["seconds"] for r in document["results"])


def test_allocate_text_format() -> None:
    code, out, _ = _run("--format", "text", str(SCENARIOS / "small.scenario.json"))
    assert code == 0
    assert out == "node-1: allocated\n  default/train: gpu=gpu.example.com/node-1/gpu-1\nnode-2: unsatisfiable\n"


def test_allocate_budget_exhausted_is_an_error_outcome() -> None:
    code, out, _ = _run("--budget", "2", str(SCENARIOS / "small.scenario.json"))
    assert code == 0
    results = json.loads(out)["results"]
    assert [(r["outcome"], r["error"]) for r in results] == [
        ("error", "search budget exhausted after 2 steps"),
        ("unsatisfiable", None),
    ]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("bad-json", "is not valid JSON: Expecting value (line 2, column 1)"),
        ("not-an-object", ": a scenario must be a JSON object"),
        ("claims-not-a-list", ": claims must be a list of objects"),
    ],
)
def test_allocate_bad_scenario_exits_2_with_one_line(name: str, reason: str) -> None:
    path = SCENARIOS / f"{name}.scenario.json"
    code, out, err = _run(str(path))
    assert code == 2
    assert out == ""
    assert err == f"dralint: error: scenario {path}{' ' if reason[0] != ':' else ''}{reason}\n"


def test_allocate_missing_file_exits_2() -> None:
    code, _, err = _run(str(SCENARIOS / "missing.scenario.json"))
    assert code == 2
    assert err.startswith("dralint: error: cannot read scenario ") and err.count("\n") == 1


def test_allocate_refuses_a_fifo_and_a_device_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "scenario.fifo"
    os.mkfifo(fifo)  # opening it to read would block until a writer came
    assert _run(str(fifo)) == (
        2,
        "",
        f"dralint: error: cannot read scenario {fifo}: a FIFO, not a regular file; not read\n",
    )
    if os.path.exists("/dev/zero"):  # endless: reading it whole would exhaust memory
        assert _run("/dev/zero") == (
            2,
            "",
            "dralint: error: cannot read scenario /dev/zero: a character device, not a regular file; not read\n",
        )


def test_allocate_scenario_over_the_size_limit_or_nested_too_deeply_exits_2(tmp_path: Path) -> None:
    config = tmp_path / ".dralint.yaml"
    config.write_text("limits:\n  maxFileBytes: 1000\n", encoding="utf-8")
    large = tmp_path / "large.scenario.json"
    large.write_text(json.dumps({"claims": [], "nodes": [], "pad": "x" * 1000}), encoding="utf-8")
    code, out, err = _run(str(large), "--config", str(config))
    assert (code, out, err) == (
        2,
        "",
        f"dralint: error: cannot read scenario {large}: larger than 1000 bytes (limits.maxFileBytes)\n",
    )
    deep = tmp_path / "deep.scenario.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert _run(str(deep)) == (2, "", f"dralint: error: scenario {deep} is not valid JSON: it nests too deeply\n")


def test_allocate_reads_the_scenario_from_standard_input() -> None:
    path = SCENARIOS / "small.scenario.json"
    from_file = CliRunner().invoke(main, ["allocate", str(path), "--format", "json"])
    from_stdin = CliRunner().invoke(main, ["allocate", "-", "--format", "json"], input=path.read_bytes())
    assert (from_stdin.exit_code, from_stdin.stderr) == (0, "")
    assert [(r["node"], r["outcome"]) for r in json.loads(from_stdin.stdout)["results"]] == [
        (r["node"], r["outcome"]) for r in json.loads(from_file.stdout)["results"]
    ]
