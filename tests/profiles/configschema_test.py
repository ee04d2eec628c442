"""A configuration schema of a user's profile is checked when the profile loads (``dralint/profiles/configschema.py``).

A schema that claims could not be validated with (a reference that loops in place, points nowhere
or into another document, a pattern RE2 cannot match) is exit 2 at its position; recursive types
are fine, and validate nested parameters to the bottom.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.profiles.configschema import SchemaDefect, check
from testing.run import ROOT, in_root
from tests.conftest import FIXTURES

CASES: list[dict[str, Any]] = YAML(typ="safe").load((FIXTURES / "profile_config" / "schema_cases.yaml").read_text())
CLAIM = "tests/fixtures/profile_config/schemas/claim.yaml"
PROFILE = "tests/fixtures/profile_config/schemas/tree.example.com.yaml"
WHY = "(ResourceClaim/hw/trees); the driver refuses these parameters when it prepares the device, after the pod was scheduled"


@pytest.mark.parametrize("case", CASES, ids=[case["case"] for case in CASES])
def test_a_schema_claims_could_not_be_validated_with_is_exit_2_at_its_position(
    case: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(case["text"])
    code, output = in_root("check", CLAIM, "--no-config", "--profile", str(path))
    assert (code, output.replace(str(path), "p.yaml")) == (2, f"dralint: error: {case['error']}\n")


def test_recursive_schemas_validate_nested_parameters_to_the_bottom() -> None:
    code, output = in_root("check", CLAIM, "-f", "concise", "--select", "DRA9", "--no-config", "--profile", PROFILE)
    assert (code, output.splitlines()) == (
        1,
        [
            f"{CLAIM}:31:20: error DRA910 root.children[1].children[0].children[0].name: 'Deep' does not match "
            f"'^[a-z]+$' (Tree (tree.example.com/v1) of driver tree.example.com) {WHY}",
            f"{CLAIM}:45:21: error DRA910 trees[0].forest.trees[0].forest.trees[0].size: 0 is less than the minimum "
            f"of 1 (Forest (tree.example.com/v1) of driver tree.example.com) {WHY}",
            f"{CLAIM}:52:11: error DRA910 name: '{'a' * 48}!' does not match '^(a+)+$' "
            f"(Names (tree.example.com/v1) of driver tree.example.com) {WHY}",
            f"{CLAIM}:54:13: error DRA910 labels.{'x' * 49}!: unknown key '{'x' * 49}!' "
            f"(Names (tree.example.com/v1) of driver tree.example.com) {WHY}",
            "1 file, 1 object: 4 errors, 0 warnings, 0 info",
        ],
    )


def test_a_pattern_that_backtracks_does_not_hang_the_run() -> None:
    # ^(a+)+$ on 48 a's and a ! takes a backtracking engine 2**48 steps: in a subprocess, to time it out.
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DRALINT_")} | {"PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "dralint", "check", CLAIM, "--no-config", "--profile", PROFILE, "--select", "DRA9"]
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "does not match '^(a+)+$'" in done.stdout


@pytest.mark.parametrize(
    "schema",
    [
        {"$defs": {"node": {"properties": {"children": {"items": {"$ref": "#/$defs/node"}}}}}, "$ref": "#/$defs/node"},
        {"properties": {"next": {"$ref": "#"}}},
        {"additionalProperties": {"$ref": "#"}},
        {"propertyNames": {"$ref": "#"}},  # a key is a string: no keys below it
        {"$defs": {"a": {"$anchor": "a", "anyOf": [{"type": "string"}, {"items": {"$ref": "#a"}}]}}},
        {"$id": "http://example.com/root.json", "$defs": {"s": {"$id": "s.json"}}, "$ref": "s.json"},
        {"$dynamicAnchor": "meta", "properties": {"a": {"$dynamicRef": "#meta"}}},
        {"$ref": "#/$defs/t", "$defs": {"t": True}},
        {"allOf": [True, {"not": False}], "if": True, "then": False, "dependentSchemas": {"a": True}},
        {"properties": {"a": {"pattern": "^(?<word>[a-z]+)\\u0041$"}}},  # ECMA-262 that Python's re refuses
    ],
)
def test_a_recursive_or_local_reference_is_fine(schema: dict[str, Any]) -> None:
    check(schema)


@pytest.mark.parametrize(
    ("schema", "path", "message"),
    [
        (
            {"$defs": {"a": {"not": {"$ref": "#/$defs/b"}}, "b": {"if": {"$ref": "#/$defs/a"}}}},
            ("$defs", "a", "not", "$ref"),
            "$ref '#/$defs/b' leads back here (#/$defs/a/not -> #/$defs/b -> #/$defs/b/if -> #/$defs/a -> "
            "#/$defs/a/not)",
        ),
        (
            {"$id": "http://example.com/r.json", "$defs": {"s": {"$id": "s.json", "$ref": "r.json"}}, "$ref": "s.json"},
            ("$ref",),
            "$ref 's.json' leads back here (# -> #/$defs/s -> #)",
        ),
        ({"$defs": {"s": {"$id": "s.json", "$ref": "#/$defs/s"}}}, ("$defs", "s", "$ref"), "points nowhere"),
        ({"$ref": "#/allOf/x", "allOf": [{}]}, ("$ref",), "$ref '#/allOf/x' points nowhere in the schema"),
        ({"$ref": "#/maxLength/0", "maxLength": 3}, ("$ref",), "$ref '#/maxLength/0' points nowhere in the schema"),
        ({"$ref": "#/type", "type": "object"}, ("$ref",), "$ref '#/type' points at something that is not a schema"),
    ],
)
def test_a_reference_claims_could_not_be_validated_with_is_a_defect_at_its_keyword(
    schema: dict[str, Any], path: tuple[str, ...], message: str
) -> None:
    with pytest.raises(SchemaDefect) as raised:
        check(schema)
    assert raised.value.path == path and message in raised.value.message
