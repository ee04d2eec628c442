"""JSON: the stable machine-readable contract of DESIGN.md (``version`` 1)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, TextIO

from dralint.findings import Finding
from dralint.report import Report
from dralint.suppress.fingerprint import fingerprint


def finding_dict(finding: Finding) -> dict[str, Any]:
    obj = finding.object
    out: dict[str, Any] = {
        "rule": finding.rule,
        "name": finding.name,
        "severity": finding.severity,
        "message": finding.message,
        "file": finding.location.file,
        "line": finding.location.line,
        "column": finding.location.column,
        "object": {
            "apiVersion": obj.api_version,
            "kind": obj.kind,
            "namespace": obj.namespace,
            "name": obj.name,
        }
        if obj is not None
        else None,
        "path": finding.path_text,
        "fingerprint": fingerprint(finding),
    }
    if finding.hint:
        out["hint"] = finding.hint
    if finding.details:
        out["details"] = _plain(dict(finding.details))
    if finding.suppressed is not None:
        out["suppressed"] = {"kind": finding.suppressed.kind, "reason": finding.suppressed.reason}
    return out


def _plain(value: object) -> Any:
    """Details as JSON values: tuples become lists, recursively."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def render(report: Report, stream: TextIO) -> None:
    counts = Counter(f.severity for f in report.active)
    document = {
        "version": 1,
        "findings": [finding_dict(f) for f in report.shown],
        "summary": {
            "files": report.summary.files,
            "documents": report.summary.documents,
            "objects": report.summary.objects,
            "skippedDocuments": report.summary.other_documents,
            "skippedFiles": [{"file": name, "reason": why} for name, why in report.summary.skipped_files],
            "errors": counts["error"],
            "warnings": counts["warning"],
            "info": counts["info"],
            "suppressed": len(report.suppressed),
        },
        "target": report.target,
    }
    # One write: json.dump would write each of the encoder's (many thousand) chunks separately.
    stream.write(json.dumps(document, indent=2, sort_keys=False, ensure_ascii=False) + "\n")
