"""DRA001-DRA006: defects of the input itself (dralint/checks/input.py)."""

from __future__ import annotations

from dralint.api.versions import make_target
from dralint.checks.input import check
from dralint.findings import Location
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from dralint.read.yamldoc import Limits


def test_input_check_reports_every_decoding_defect_at_its_position() -> None:
    files = [
        "tests/fixtures/yamldoc/tabs.yaml",
        "tests/fixtures/sources/latin1.yaml",
        "tests/fixtures/templating/unquoted-non-helm.yaml",
        "tests/fixtures/yamldoc/duplicate-keys.yaml",
        "tests/fixtures/yamldoc/alias-bomb.yaml",
        "tests/fixtures/objects/incomplete.yaml",
    ]
    workspace = load(files, limits=Limits(max_values_per_document=10_000))
    violations = list(check(CheckContext(workspace, make_target())))
    assert [(v.rule, v.location, v.message) for v in violations] == [
        ("DRA001", Location("tests/fixtures/yamldoc/tabs.yaml", 6, 1),
         "invalid YAML: while scanning for the next token: found character that cannot start any token"),
        ("DRA002", Location("tests/fixtures/sources/latin1.yaml", 4, 12), "byte 0xe9 is not valid UTF-8"),
        ("DRA003", Location("tests/fixtures/templating/unquoted-non-helm.yaml", 6, 10),
         "unrendered template directive {{ placeholder }}; this document is not checked"),
        ("DRA004", Location("tests/fixtures/yamldoc/duplicate-keys.yaml", 9, 3), "mapping key 'selectors' already defined at line 6"),
        ("DRA005", Location("tests/fixtures/yamldoc/alias-bomb.yaml", 1, 1), "document is made mostly of YAML alias expansions (an alias bomb?)"),
        ("DRA006", Location("tests/fixtures/objects/incomplete.yaml", 1, 1), "object has kind but no apiVersion"),
        ("DRA006", Location("tests/fixtures/objects/incomplete.yaml", 5, 1), "object has apiVersion but no kind"),
        ("DRA006", Location("tests/fixtures/objects/incomplete.yaml", 10, 1), "apiVersion must be a non-empty string, not 1"),
        ("DRA006", Location("tests/fixtures/objects/incomplete.yaml", 16, 1), 'kind must be a non-empty string, not ""'),
    ]  # fmt: skip
    assert [v.hint for v in violations][-4:] == [
        "add apiVersion",
        "add kind",
        "write apiVersion as a string such as resource.k8s.io/v1",
        "write kind as a string such as ResourceClaim",
    ]
    assert all(v.obj is None for v in violations)


def test_input_check_reports_bare_lists_and_misspelt_type_fields() -> None:
    workspace = load(["tests/fixtures/objects/bare-list.yaml"])
    violations = list(check(CheckContext(workspace, make_target())))
    assert [(v.rule, v.location, v.message, v.hint) for v in violations] == [
        ("DRA006", Location("tests/fixtures/objects/bare-list.yaml", 12, 1),
         "object has kind but no apiVersion: field names are case-sensitive", "rename apiversion to apiVersion"),
        ("DRA007", Location("tests/fixtures/objects/bare-list.yaml", 1, 1),
         "document is a YAML list of 2 objects; kubectl expects one object per document",
         "separate the objects with --- lines, or wrap them in a List (kind: List, items: [...])"),
    ]  # fmt: skip
