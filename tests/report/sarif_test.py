"""SARIF output is valid SARIF 2.1.0, complete for code scanning, and never contains empty objects."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from dralint.report import Report
from testing.run import check, in_root
from tests.conftest import SHARED, require_shared
from tests.report.conftest import REPORT


def _sarif(render: Callable[[str, Report], str], report: Report) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(render("sarif", report))
    schema = json.loads(require_shared(SHARED / "schemas" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(document)
    return document


def _empties(value: Any, path: str = "$") -> Iterator[str]:
    if value in ({}, [], "", None):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _empties(item, f"{path}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _empties(item, f"{path}[{n}]")


def test_sarif_is_valid_and_has_no_empty_values(mixed: Report, render: Callable[[str, Report], str]) -> None:
    document = _sarif(render, mixed)
    assert list(_empties(document)) == []
    assert document["version"] == "2.1.0" and document["$schema"].endswith("sarif-schema-2.1.0.json")
    (run,) = document["runs"]
    assert run["invocations"] == [{"executionSuccessful": True}]
    assert run["properties"]["target"]["kubernetesVersion"] == "1.37"


def test_sarif_rules_carry_metadata_and_help(mixed: Report, render: Callable[[str, Report], str]) -> None:
    driver = _sarif(render, mixed)["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["informationUri"]) == ("dralint", "https://github.com/dralint/dralint")
    ids = [rule["id"] for rule in driver["rules"]]
    # the rules of the results only, not every rule that ran
    assert ids == sorted({f.rule for f in mixed.findings}) == ["ACME100", "DRA001", "DRA200"]
    dra200 = driver["rules"][ids.index("DRA200")]
    assert dra200["name"] == "api-version-not-served"
    assert dra200["shortDescription"] == {
        "text": "the target Kubernetes release does not serve this resource.k8s.io version"
    }
    assert dra200["fullDescription"]["text"].startswith("Reports DRA objects whose `apiVersion`")
    assert dra200["helpUri"] == "https://github.com/dralint/dralint/blob/main/docs/rules/DRA200.md"
    assert dra200["help"]["markdown"].startswith("# DRA200 api-version-not-served\n")
    assert dra200["defaultConfiguration"] == {"level": "error"}
    assert dra200["properties"] == {"tags": ["dralint", "skew"]}
    acme = driver["rules"][ids.index("ACME100")]
    assert "helpUri" not in acme and acme["defaultConfiguration"] == {"level": "note"}


def test_sarif_results_locations_and_suppressions(mixed: Report, render: Callable[[str, Report], str]) -> None:
    run = _sarif(render, mixed)["runs"][0]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    results = run["results"]
    assert [(r["ruleId"], r["level"], r.get("suppressions")) for r in results] == [
        ("DRA200", "error", [{"kind": "inSource", "justification": "the 1.33 cluster still serves it"}]),
        ("DRA200", "error", [{"kind": "external", "justification": "migrated next sprint"}]),
        ("ACME100", "note", None),
        ("DRA001", "error", None),
    ]
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    policy = results[2]
    assert policy["message"] == {
        "text": "allocationMode: All takes 100% of the matching devices, every one: say how many"
    }
    assert policy["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": "tests/fixtures/report/mixed.yaml", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 37, "startColumn": 5},
            },
            "logicalLocations": [
                {
                    "name": "ResourceClaim/ml/greedy",
                    "fullyQualifiedName": "ResourceClaim/ml/greedy:spec.devices.requests",
                    "kind": "resource",
                }
            ],
        }
    ]
    assert "logicalLocations" not in results[3]["locations"][0]  # a syntax error has no object


def test_sarif_fingerprints_survive_moved_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, render: Callable[[str, Report], str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(REPORT / "policies.yaml", "policies.yaml")
    shutil.copy(REPORT / "config.yaml", "config.yaml")
    Path("mixed.yaml").write_text((REPORT / "mixed.yaml").read_text())
    before = _sarif(render, check(["mixed.yaml"], config="config.yaml").report)["runs"][0]["results"]
    Path("mixed.yaml").write_text("# moved\n\n\n" + (REPORT / "mixed.yaml").read_text())
    after = _sarif(render, check(["mixed.yaml"], config="config.yaml").report)["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in after] == [
        r["locations"][0]["physicalLocation"]["region"]["startLine"] + 3 for r in before
    ]
    assert [r["partialFingerprints"] for r in after] == [r["partialFingerprints"] for r in before]
    assert len({r["partialFingerprints"]["dralint/v2"] for r in after}) == len(after)


def test_sarif_uris_for_stdin_and_absolute_paths(mixed: Report, render: Callable[[str, Report], str]) -> None:
    finding = mixed.findings[3]
    stdin = replace(mixed, findings=(replace(finding, location=replace(finding.location, file="-")),))
    absolute = replace(
        mixed, findings=(replace(finding, location=replace(finding.location, file="/srv/my repo/a.yaml")),)
    )
    uri = lambda r: _sarif(render, r)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]  # noqa: E731
    assert uri(stdin) == {"uri": "stdin"}
    assert uri(absolute) == {"uri": "file:///srv/my%20repo/a.yaml"}


def test_sarif_of_a_clean_run_is_valid(tmp_path: Path, render: Callable[[str, Report], str]) -> None:
    clean = tmp_path / "clean.yaml"
    clean.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    document = _sarif(render, check([clean]).report)
    assert document["runs"][0]["results"] == []


def test_sarif_uris_are_relative_to_the_repository_for_every_checked_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, render: Callable[[str, Report], str]
) -> None:
    repository, outside = tmp_path / "repo", tmp_path / "elsewhere"
    (repository / ".git").mkdir(parents=True)
    (repository / "apps").mkdir()
    outside.mkdir()
    for folder in (repository, repository / "apps", outside):
        shutil.copy(REPORT / "mixed.yaml", folder / "m.yaml")
    monkeypatch.chdir(repository / "apps")

    def located(paths: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        (run,) = _sarif(render, check(paths).report)["runs"]
        artifacts = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
        return run["originalUriBaseIds"], sorted({a["uri"]: a for a in artifacts}.values(), key=lambda a: a["uri"])

    # within the repository: relative to its root, also for ../ paths
    bases, artifacts = located(["m.yaml", "../m.yaml"])
    assert bases == {"%SRCROOT%": {"uri": repository.as_uri() + "/"}}
    assert artifacts == [
        {"uri": "apps/m.yaml", "uriBaseId": "%SRCROOT%"},
        {"uri": "m.yaml", "uriBaseId": "%SRCROOT%"},
    ]
    # a file outside the repository widens the root to a common parent: still no ../ and no file://
    bases, artifacts = located(["m.yaml", str(outside / "m.yaml")])
    assert bases == {"%SRCROOT%": {"uri": tmp_path.as_uri() + "/"}}
    assert artifacts == [
        {"uri": "elsewhere/m.yaml", "uriBaseId": "%SRCROOT%"},
        {"uri": "repo/apps/m.yaml", "uriBaseId": "%SRCROOT%"},
    ]


def test_sarif_of_the_examples_describes_the_rules_it_reports_only() -> None:
    code, output = in_root("check", "--no-config", "examples/", "-f", "sarif")
    run = json.loads(output)["runs"][0]
    assert code == 1
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == sorted({r["ruleId"] for r in run["results"]})
    assert len(run["results"]) == 6 and len(output.encode()) < 40_000  # it was 270 KB: the whole catalogue
