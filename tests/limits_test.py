"""Hostile input ends in a finding at one of the limits, never in a crash or a hang (inputs from testing/hostile.py).

The tests use limits smaller than the defaults where the behaviour is the same, so that they
stay fast; ``benchmarks/hostile_bench.py`` runs the full-size inputs with the defaults.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dralint import limits
from dralint.config import schemacheck
from testing import hostile, hostile_cel
from testing.run import check


def _lines(tmp_path: Path, text: str, config: str | None = None, name: str = "hostile.yaml") -> list[str]:
    manifest = tmp_path / name
    manifest.write_text(text, encoding="utf-8")
    config_file = None
    if config is not None:
        config_file = tmp_path / ".dralint.yaml"
        config_file.write_text(config, encoding="utf-8")
    outcome = check([manifest], config=config_file)
    return [
        f"{f.location.line}:{f.location.column} {f.rule} {f.message}"
        for f in outcome.report.findings
        if f.rule in ("DRA005", "DRA008", "DRA100", "DRA403", "DRA420")
    ]


def test_limit_names_are_the_configuration_keys() -> None:
    schema = schemacheck.schema("config.schema.json")
    assert list(schema["properties"]["limits"]["properties"]) == list(limits.CONFIG_KEYS)
    assert limits.from_config({"maxDepth": 8, "maxSearchSteps": 9}) == limits.Limits(max_depth=8, max_search_steps=9)


def test_an_alias_bomb_is_not_expanded(tmp_path: Path) -> None:
    # A million values from eight lines: refused as kubectl refuses it, once most of the values
    # built come from aliases (go-yaml's "excessive aliasing"), long before dralint's limit.
    text = hostile.alias_bomb(levels=6, width=10)
    assert _lines(tmp_path, text, "limits:\n  maxValuesPerDocument: 10000\n") == [
        "1:1 DRA005 document is made mostly of YAML alias expansions (an alias bomb?)"
    ]


def test_a_document_of_too_many_values_is_not_built(tmp_path: Path) -> None:
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  list: [" + ", ".join(["1"] * 200) + "]\n"
    assert _lines(tmp_path, text, "limits:\n  maxValuesPerDocument: 100\n") == [
        "1:1 DRA005 document expands to more than 100 values (YAML aliases?)"
    ]


@pytest.mark.parametrize(("depth", "expected"), [
    (250, ['258:3 DRA100 unknown field "spec.extra"']),  # just inside the default limit: checked
    (252, ["263:257 DRA005 document nests deeper than 256 levels"]),
])  # fmt: skip
def test_deep_nesting_is_checked_up_to_the_limit_and_refused_beyond(
    tmp_path: Path, depth: int, expected: list[str]
) -> None:
    assert _lines(tmp_path, hostile.deep_nesting(depth), name="deep.json") == [
        line.replace("258:3", f"{depth * 2 + 18}:3") for line in expected
    ]


def test_nesting_limit_is_configurable(tmp_path: Path) -> None:
    config = "limits:\n  maxDepth: 40\n"
    assert _lines(tmp_path, hostile.deep_nesting(30), config, name="deep.json") == [
        '78:3 DRA100 unknown field "spec.extra"'
    ]
    assert _lines(tmp_path, hostile.deep_nesting(40), config, name="deep.json") == [
        "47:41 DRA005 document nests deeper than 40 levels"
    ]


def test_a_large_file_is_not_read(tmp_path: Path) -> None:
    text = hostile.big_file(300_000)
    assert len(text.encode()) > 200_000
    assert _lines(tmp_path, text, "limits:\n  maxFileBytes: 200000\n") == [
        "1:1 DRA005 file is larger than 200000 bytes; not checked"
    ]


def test_a_file_of_many_documents_is_not_checked(tmp_path: Path) -> None:
    config = "limits:\n  maxDocumentsPerFile: 100\n"
    assert _lines(tmp_path, hostile.many_documents(101), config) == [
        "1:1 DRA005 file holds more than 100 documents (List items count); not checked"
    ]
    assert _lines(tmp_path, hostile.many_documents(100), config) == []


def test_a_stream_of_many_json_documents_is_not_checked(tmp_path: Path) -> None:
    stream = "\n".join(
        json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"c{n}"}}) for n in range(11)
    )
    assert _lines(tmp_path, stream, "limits:\n  maxDocumentsPerFile: 10\n", name="stream.json") == [
        "1:1 DRA005 file holds more than 10 documents (List items count); not checked"
    ]


def test_a_selector_that_blows_up_the_cost_is_reported_and_not_run_on_the_inventory(tmp_path: Path) -> None:
    # 10**8 comprehension steps if evaluated: refused by the cost estimate (DRA403), as the API
    # server refuses it, so it is not evaluated on the inventory's devices (no DRA420 as well).
    inventory = hostile.exponential_search(2).replace(
        "count: 1}", "count: 1}\n      - name: costly\n        exactly: {deviceClassName: costly.example.com}"
    )
    text = inventory + "---\n" + hostile.costly_selector(8) + "\n"
    found = _lines(tmp_path, text)
    assert [line.split(" ", 2)[1] for line in found] == ["DRA403"]
    assert "estimated worst-case cost 455555551 is above 1000000" in found[0]


def test_an_exponential_search_is_given_up_at_the_step_limit(tmp_path: Path) -> None:
    # 10 + 11 of 20 devices: C(20, 10) ways to pick the first request, each tried.
    found = _lines(tmp_path, hostile.exponential_search(20), "limits:\n  maxSearchSteps: 2000\n")
    assert found == [
        "179:1 DRA008 the dry-run gave up on pod ml/greedy: allocating its claims on node node-000000 takes more "
        "than 2000 search steps (limits.maxSearchSteps)"
    ]


def test_the_generators_make_what_they_say() -> None:
    assert hostile.alias_bomb(levels=2, width=3).count("*a1") == 3
    assert hostile.many_documents(5).count("kind: ConfigMap") == 5
    assert hostile.resource_slices(3, devices=2).count("- name: gpu-") == 6
    assert json.loads(hostile.costly_selector(2))["spec"]["selectors"][0]["cel"]["expression"].count(".all(") == 2


def test_selector_evaluations_stop_at_their_limit(tmp_path: Path) -> None:
    # 30 claims with selectors of their own over 16 GPUs in 8 projections: 1 + 30 × 8 evaluations.
    text = hostile_cel.many_selectors(30, 2)
    assert _lines(tmp_path, text, "limits:\n  maxSelectorEvaluations: 241\n") == []
    found = _lines(tmp_path, text, "limits:\n  maxSelectorEvaluations: 100\n")
    assert [line.split(" ", 2)[1] for line in found] == ["DRA008"]
    assert found[0].endswith(
        "the check of CEL selectors on the inventory (DRA420) stopped after 100 evaluations "
        "(limits.maxSelectorEvaluations); 18 selector lists were not evaluated, the first of "
        "ResourceClaim ml/claim-12 request gpu"
    )
