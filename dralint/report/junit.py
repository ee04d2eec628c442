"""JUnit XML for CI test dashboards: a suite per file, a test case per object and rule.

Objects without findings are one passing test case; each rule with findings on an object is
a test case whose ``failure`` (at or above ``--fail-on``) or ``system-out`` (below it) lists
the findings with their hints and documentation links. Suppressed findings are ``skipped``.
Findings outside any object (syntax errors, suppression problems) are test cases named after
their position. ``time`` attributes are always present (dralint does not time single
objects, so they are 0).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Sequence
from typing import TextIO

from dralint.findings import SEVERITY_RANK, Finding, ObjectRef
from dralint.report import Report, help_uri

_TIME = "0.000"


def _text(finding: Finding, report: Report) -> str:
    line = f"{finding.location.file}:{finding.location.line}:{finding.location.column}: {finding.message}"
    if finding.path:
        line += f" (at {finding.path_text})"
    if finding.hint:
        line += f"\n  hint: {finding.hint}"
    rule = report.rules.get(finding.rule)
    uri = help_uri(rule) if rule is not None else None
    if uri:
        line += f"\n  docs: {uri}"
    return line


def _fails(finding: Finding, report: Report) -> bool:
    return report.fail_on != "never" and SEVERITY_RANK[finding.severity] >= SEVERITY_RANK[report.fail_on]


def _case(suite: ET.Element, name: str, classname: str, findings: Sequence[Finding], report: Report) -> str:
    """Add one test case; returns its outcome: passed, failed, skipped or noted."""
    case = ET.SubElement(suite, "testcase", {"name": name, "classname": classname, "time": _TIME})
    active = [f for f in findings if f.suppressed is None]
    if not findings:
        return "passed"
    if not active:
        reasons = sorted({f"{s.kind}: {s.reason}" if s.reason else s.kind for f in findings if (s := f.suppressed)})
        ET.SubElement(case, "skipped", {"message": f"suppressed ({'; '.join(reasons)})"})
        return "skipped"
    body = "\n".join(_text(f, report) for f in active)
    if any(_fails(f, report) for f in active):
        worst = max(active, key=lambda f: SEVERITY_RANK[f.severity])
        message = worst.message if len(active) == 1 else f"{len(active)} findings, e.g. {worst.message}"
        ET.SubElement(case, "failure", {"message": message, "type": worst.severity}).text = body
        return "failed"
    ET.SubElement(case, "system-out").text = body
    return "noted"


def document(report: Report) -> ET.Element:
    by_file: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        by_file[finding.location.file].append(finding)
    objects: dict[str, dict[ObjectRef, int]] = defaultdict(dict)
    for obj in report.objects:
        objects[obj.file].setdefault(obj.ref, obj.line)
    root = ET.Element("testsuites", {"name": "dralint"})
    totals: dict[str, int] = defaultdict(int)
    for file in sorted(set(report.files) | set(by_file)):
        suite = ET.SubElement(root, "testsuite", {"name": file})
        outcomes: list[str] = []
        by_object: dict[ObjectRef | None, list[Finding]] = defaultdict(list)
        for finding in by_file[file]:
            known = finding.object is not None and finding.object in objects[file]
            by_object[finding.object if known else None].append(finding)
        for ref, _line in sorted(objects[file].items(), key=lambda item: (item[1], item[0])):
            mine = by_object.get(ref, [])
            if not mine:
                outcomes.append(_case(suite, ref.display(), "dralint", [], report))
            for rule_id in sorted({f.rule for f in mine}):
                of_rule = [f for f in mine if f.rule == rule_id]
                outcomes.append(_case(suite, ref.display(), f"dralint.{of_rule[0].name}", of_rule, report))
        for finding in by_object.get(None, []):
            name = f"{file}:{finding.location.line}:{finding.location.column}"
            outcomes.append(_case(suite, name, f"dralint.{finding.name}", [finding], report))
        if not outcomes:
            outcomes.append(_case(suite, file, "dralint", [], report))
        counts = {
            "tests": len(outcomes),
            "failures": outcomes.count("failed"),
            "errors": 0,
            "skipped": outcomes.count("skipped"),
        }
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", _TIME)
    for key in ("tests", "failures", "errors", "skipped"):
        root.set(key, str(totals[key]))
    root.set("time", _TIME)
    return root


def render(report: Report, stream: TextIO) -> None:
    tree = document(report)
    ET.indent(tree, space="  ")
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(tree, encoding="unicode"))
    stream.write("\n")
