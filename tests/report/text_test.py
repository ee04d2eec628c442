"""The text format (dralint/report/text.py)."""

from __future__ import annotations

import io

from dralint.findings import Finding, Location, ObjectRef, Suppression
from dralint.report import Report, Summary
from dralint.report.text import render, summary_line

CLAIM = ObjectRef("resource.k8s.io/v1", "ResourceClaim", "ml", "gpu")
FINDINGS = (
    Finding("DRA001", "yaml-syntax", "error", "invalid YAML: x", Location("a.yaml", 3, 7)),
    Finding("DRA200", "api-version-not-served", "warning", "not served", Location("b.yaml", 1, 1), CLAIM, ("apiVersion",), "use v1"),
    Finding("DRA999", "hidden", "info", "suppressed one", Location("b.yaml", 2, 1), suppressed=Suppression("annotation", "accepted risk")),
    Finding("DRA998", "note", "info", "cluster-scoped", Location("c.yaml", 4, 2), ObjectRef("resource.k8s.io/v1", "DeviceClass", None, "gpu")),
)  # fmt: skip


def rendered(report: Report) -> str:
    stream = io.StringIO()
    render(report, stream)
    return stream.getvalue()


def test_text_one_line_per_finding_then_summary() -> None:
    report = Report(FINDINGS, Summary(files=3, documents=4, objects=2, other_documents=1))
    assert rendered(report) == (
        "a.yaml:3:7: error DRA001 invalid YAML: x\n"
        "b.yaml:1:1: warning DRA200 not served (ResourceClaim/ml/gpu); use v1\n"
        "c.yaml:4:2: info DRA998 cluster-scoped (DeviceClass/gpu)\n"
        "3 files, 2 objects: 1 error, 1 warning, 1 info (1 suppressed); 1 non-Kubernetes document skipped\n"
    )


def test_text_summary_uses_singular_forms() -> None:
    report = Report((), Summary(files=1, documents=1, objects=1, other_documents=2))
    assert summary_line(report) == "1 file, 1 object: 0 errors, 0 warnings, 0 info; 2 non-Kubernetes documents skipped"


def test_text_colours_position_and_severity() -> None:
    report = Report(FINDINGS[:1], Summary(1, 1, 0, 0), color=True)
    assert rendered(report).splitlines()[0] == "\033[1ma.yaml:3:7\033[0m: \033[31merror\033[0m DRA001 invalid YAML: x"
