"""The JSON format (dralint/report/json_format.py): the contract in DESIGN.md."""

from __future__ import annotations

import io
import json

from dralint.findings import Finding, Location, ObjectRef, Suppression
from dralint.report import Report, Summary
from dralint.report.json_format import render
from dralint.suppress.fingerprint import fingerprint


def test_json_document_has_findings_summary_and_target() -> None:
    findings = (
        Finding("DRA200", "api-version-not-served", "error", "not served", Location("b.yaml", 1, 1),
                ObjectRef("resource.k8s.io/v1beta1", "ResourceClaim", "ml", "gpu"), ("spec", "devices", "requests", 0, "name"), "use v1"),
        Finding("DRA001", "yaml-syntax", "warning", "café", Location("a.yaml", 3, 7), suppressed=Suppression("comment", "known")),
    )  # fmt: skip
    target = {"kubernetesVersion": "1.37", "featureGates": {"X": True}}
    report = Report(findings, Summary(2, 3, 1, 0), target=target, show_suppressed=True)
    stream = io.StringIO()
    render(report, stream)
    text = stream.getvalue()
    assert text.endswith("}\n")
    assert "café" in text  # not escaped
    assert json.loads(text) == {
        "version": 1,
        "findings": [
            {
                "rule": "DRA200",
                "name": "api-version-not-served",
                "severity": "error",
                "message": "not served",
                "file": "b.yaml",
                "line": 1,
                "column": 1,
                "object": {
                    "apiVersion": "resource.k8s.io/v1beta1",
                    "kind": "ResourceClaim",
                    "namespace": "ml",
                    "name": "gpu",
                },
                "path": "spec.devices.requests[0].name",
                "fingerprint": fingerprint(findings[0]),
                "hint": "use v1",
            },
            {
                "rule": "DRA001",
                "name": "yaml-syntax",
                "severity": "warning",
                "message": "café",
                "file": "a.yaml",
                "line": 3,
                "column": 7,
                "object": None,
                "path": "",
                "fingerprint": fingerprint(findings[1]),
                "suppressed": {"kind": "comment", "reason": "known"},
            },
        ],
        "summary": {
            "files": 2,
            "documents": 3,
            "objects": 1,
            "skippedDocuments": 0,
            "skippedFiles": [],
            "errors": 1,
            "warnings": 0,
            "info": 0,
            "suppressed": 1,
        },
        "target": {"kubernetesVersion": "1.37", "featureGates": {"X": True}},
    }


def test_json_oversubscription_carries_the_numbers_in_details() -> None:
    from click.testing import CliRunner

    from dralint.cli import main

    fixture = "tests/rules/DRA501/fail/many-workloads.yaml"
    result = CliRunner().invoke(main, ["check", "--no-config", "--select", "DRA501", "-f", "json", fixture])
    findings = json.loads(result.output)["findings"]
    assert [f["object"]["name"] for f in findings] == ["f", "g"]
    # the message names five of the seven workloads; the details count all of them, and stay
    # bounded (the five largest by name), since every failing workload's finding carries them
    assert "and 2 more workloads (2 pods)" in findings[0]["message"]
    assert findings[0]["details"] == {
        "unplacedPods": 2,
        "pods": 2,
        "deviceClass": "gpu.example.com",
        "supply": 8,
        "demand": 11,
        "demandingWorkloads": 7,
        "demandingPods": 11,
        "largestDemands": [
            {"workload": f"Deployment default/{name}", "pods": pods, "devices": pods, "perPod": 1}
            for name, pods in (("a", 1), ("b", 2), ("c", 1), ("d", 3), ("f", 2))
        ],
    }
    assert findings[1]["details"]["unplacedPods"] == 1
