"""Failure explanations (``Allocator.explain``) against expected data in YAML fixtures."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.allocator import Allocator
from testing import allocator_builders as builders

CASES = YAML(typ="safe").load(
    (Path(__file__).resolve().parent.parent / "fixtures" / "allocator" / "explain" / "explain.yaml").read_text()
)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_explain_counts_rejections_per_request(case: dict[str, Any]) -> None:
    classes = {c.name: c for c in map(builders.device_class, case.get("classes", []))}
    slices = [builders.resource_slice(s) for s in case.get("slices", [])]
    claims = [builders.claim(c) for c in case.get("claims", [])]
    allocator = Allocator(builders.features(case.get("features")), builders.allocated_state(case), classes, slices)
    node = builders.node(case.get("node"))
    explanation = dataclasses.asdict(allocator.explain(node, claims))
    wanted = case["explanation"]
    for request in wanted["requests"]:
        request["rejected"] = {k: v for k, v in request["rejected"].items() if v}
    explanation["pools"] = [dict(p) for p in explanation["pools"]]
    explanation["requests"] = [
        {**r, "rejected": dict(r["rejected"]), "taint_keys": list(r["taint_keys"])} for r in explanation["requests"]
    ]
    assert explanation == wanted
