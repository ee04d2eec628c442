"""SARIF 2.1.0 for code scanning (GitHub, GitLab, Azure DevOps), valid against the OASIS schema.

Every result carries a stable ``partialFingerprints`` entry (so alerts are not duplicated
across runs), the object and field path as a logical location, and suppressed findings carry
``suppressions`` (``inSource`` for annotations and comments, ``external`` otherwise). No empty
objects are ever emitted: strict consumers reject them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, TextIO
from urllib.parse import quote

from dralint import __version__
from dralint.findings import Finding
from dralint.report import Report, help_uri
from dralint.rules import Rule
from dralint.rules import render as rule_docs
from dralint.suppress.fingerprint import fingerprint

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/dralint/dralint"
SRCROOT = "%SRCROOT%"
STDIN_URI = "stdin"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _rule(rule: Rule) -> dict[str, Any]:
    descriptor: dict[str, Any] = {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": str(rule.docs.get("what") or rule.summary).strip()},
        "help": {"text": rule.summary, "markdown": rule_docs.markdown(rule)},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": ["dralint", rule.category]},
    }
    uri = help_uri(rule)
    if uri:
        descriptor["helpUri"] = uri
        descriptor["help"]["text"] = f"{rule.summary}. Documentation: {uri}"
    return descriptor


def _artifact(file: str, relative: Mapping[str, str]) -> dict[str, Any]:
    if file == "-":
        return {"uri": STDIN_URI}
    if file in relative:
        return {"uri": quote(relative[file]), "uriBaseId": SRCROOT}
    path = file.replace(os.sep, "/")
    if os.path.isabs(file):
        return {"uri": "file://" + quote(path if path.startswith("/") else "/" + path)}
    return {"uri": quote(path), "uriBaseId": SRCROOT}


def _result(finding: Finding, index: int | None, relative: Mapping[str, str]) -> dict[str, Any]:
    text = finding.message + (f"; {finding.hint}" if finding.hint else "")
    location: dict[str, Any] = {
        "physicalLocation": {
            "artifactLocation": _artifact(finding.location.file, relative),
            "region": {"startLine": finding.location.line, "startColumn": finding.location.column},
        }
    }
    if finding.object is not None:
        display = finding.object.display()
        qualified = f"{display}:{finding.path_text}" if finding.path else display
        location["logicalLocations"] = [{"name": display, "fullyQualifiedName": qualified, "kind": "resource"}]
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "level": _LEVEL[finding.severity],
        "message": {"text": text},
        "locations": [location],
        "partialFingerprints": {"dralint/v2": fingerprint(finding)},
    }
    if index is not None:
        result["ruleIndex"] = index
    if finding.suppressed is not None:
        suppression: dict[str, Any] = {"kind": "inSource" if finding.suppressed.in_source else "external"}
        if finding.suppressed.reason:
            suppression["justification"] = finding.suppressed.reason
        result["suppressions"] = [suppression]
    return result


def _prune(value: Any) -> Any:
    """``value`` without empty mappings and lists (SARIF consumers reject empty objects)."""
    if isinstance(value, dict):
        pruned = {k: _prune(v) for k, v in value.items()}
        return {k: v for k, v in pruned.items() if v not in ({}, [])}
    return value


def document(report: Report) -> dict[str, Any]:
    """The SARIF log as a JSON-ready dict.

    ``rules`` describes the rules of the results only (with their documentation, which code
    scanning shows beside an alert): the whole catalogue made 270 KB of SARIF for six findings.
    """
    reported = {finding.rule for finding in report.findings}
    rules = sorted((rule for rule in report.rules.values() if rule.id in reported), key=lambda r: r.id)
    index = {rule.id: n for n, rule in enumerate(rules)}
    driver: dict[str, Any] = {"name": "dralint", "version": __version__, "informationUri": INFORMATION_URI}
    if rules:
        driver["rules"] = [_rule(rule) for rule in rules]
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "invocations": [{"executionSuccessful": True}],
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, index.get(f.rule), report.relative_paths) for f in report.findings],
    }
    if report.source_root:
        run["originalUriBaseIds"] = {SRCROOT: {"uri": report.source_root}}
    target = _prune(report.target)
    if target:
        run["properties"] = {"target": target}
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(report: Report, stream: TextIO) -> None:
    json.dump(document(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
