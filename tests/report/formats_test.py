"""JUnit, GitHub annotations, text and JSON renderings of the same report (goldens beside the fixture)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import replace

from dralint.report import Report
from dralint.report.github import _escape_data, _escape_property
from tests.report.conftest import REPORT


def test_junit_matches_golden_and_every_element_has_a_time(mixed: Report, render: Callable[[str, Report], str]) -> None:
    output = render("junit", mixed)
    assert output == (REPORT / "mixed.junit.xml").read_text(encoding="utf-8")
    root = ET.fromstring(output)
    elements = [root, *root.iter("testsuite"), *root.iter("testcase")]
    assert all(e.get("time") == "0.000" for e in elements)
    assert [c.get("name") for c in root.iter("testcase")] == [
        "DeviceClass/gpu.example.com",
        "ResourceClaim/ml/legacy",
        "ResourceClaim/ml/fine",
        "ResourceClaim/ml/greedy",
        "mixed.yaml:44:1",
    ]


def test_junit_failures_follow_fail_on(mixed: Report, render: Callable[[str, Report], str]) -> None:
    root = ET.fromstring(render("junit", replace(mixed, fail_on="info")))
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("5", "2", "2")
    root = ET.fromstring(render("junit", replace(mixed, fail_on="never")))
    assert root.get("failures") == "0"


def test_github_annotations_match_golden(mixed: Report, render: Callable[[str, Report], str]) -> None:
    shown = replace(mixed, show_suppressed=True)
    assert render("github", shown) == (REPORT / "mixed.github.txt").read_text(encoding="utf-8")
    lines = render("github", mixed).splitlines()
    assert lines[1:3] == [
        "::notice file=mixed.yaml,line=37,col=5,title=ACME100 no-all-allocation::allocationMode: All takes 100%25 "
        "of the matching devices, every one: say how many (ResourceClaim/ml/greedy)",
        "::error file=mixed.yaml,line=44,col=1,title=DRA001 yaml-syntax::invalid YAML: while parsing a flow sequence: "
        "did not find expected ',' or ']'",
    ]


def test_github_escapes_workflow_command_syntax() -> None:
    assert _escape_data("50% a\r\nb: c, d") == "50%25 a%0D%0Ab: c, d"
    assert _escape_property("dir,x/a:b.yaml") == "dir%2Cx/a%3Ab.yaml"


def test_text_matches_golden_with_suppressed_findings(mixed: Report, render: Callable[[str, Report], str]) -> None:
    assert render("text", replace(mixed, show_suppressed=True)) == (REPORT / "mixed.text.txt").read_text()
    assert render("text", mixed).splitlines() == [
        "mixed.yaml:37:5: info ACME100 allocationMode: All takes 100% of the matching devices, every one: say how "
        "many (ResourceClaim/ml/greedy)",
        "mixed.yaml:44:1: error DRA001 invalid YAML: while parsing a flow sequence: did not find expected ',' or ']'",
        "1 file, 4 objects: 1 error, 0 warnings, 1 info (2 suppressed)",
    ]


def test_text_colour_only_when_asked(mixed: Report, render: Callable[[str, Report], str]) -> None:
    assert "\033[" not in render("text", mixed)
    coloured = render("text", replace(mixed, color=True, show_suppressed=True)).splitlines()
    assert coloured[3] == (
        "\033[1mmixed.yaml:44:1\033[0m: \033[31merror\033[0m DRA001 invalid YAML: while parsing a flow sequence: "
        "did not find expected ',' or ']'"
    )
    assert coloured[0].endswith("\033[2m[suppressed by comment: the 1.33 cluster still serves it]\033[0m")


def test_json_counts_suppressed_and_lists_them_only_when_shown(
    mixed: Report, render: Callable[[str, Report], str]
) -> None:
    document = json.loads(render("json", mixed))
    assert document["version"] == 1
    assert [f["rule"] for f in document["findings"]] == ["ACME100", "DRA001"]
    assert document["summary"] == {
        "files": 1,
        "documents": 4,
        "objects": 4,
        "skippedDocuments": 0,
        "skippedFiles": [],
        "errors": 1,
        "warnings": 0,
        "info": 1,
        "suppressed": 2,
    }
    shown = json.loads(render("json", replace(mixed, show_suppressed=True)))["findings"]
    assert [f.get("suppressed") for f in shown] == [
        {"kind": "comment", "reason": "the 1.33 cluster still serves it"},
        {"kind": "config", "reason": "migrated next sprint"},
        None,
        None,
    ]
    assert len({f["fingerprint"] for f in shown}) == 4


def test_full_shows_each_finding_with_its_source_line(mixed: Report, render: Callable[[str, Report], str]) -> None:
    shown = replace(mixed, show_suppressed=True)
    assert render("full", shown) == (REPORT / "mixed.full.txt").read_text(encoding="utf-8")
    # concise is the one-line form, and text its older name
    assert render("concise", shown) == render("text", shown) == (REPORT / "mixed.text.txt").read_text()
