"""The range of each diagnostic: from the finding's position to the end of the offending value or token.

``tests/fixtures/lsp/ranges/manifests.yaml`` holds one finding of each shape (a key with its
value, a plain and a quoted scalar value, a token inside a CEL expression, a key holding a
mapping); ``manifests.expected`` lists, per finding, its rule, its 1-based range and the text
the editor underlines.
"""

from __future__ import annotations

import os

from dralint.lsp.ranges import finding_range
from dralint.pipeline import run as pipeline
from dralint.read.load import load
from tests.conftest import FIXTURES

CASE = FIXTURES / "lsp" / "ranges"


def test_finding_range_ends_with_the_offending_value_or_token() -> None:
    cwd = os.getcwd()
    os.chdir(CASE)
    try:
        outcome = pipeline.check(pipeline.Request(no_config=True), pipeline.CheckJob(paths=("manifests.yaml",), jobs=1))
        objects = {obj.ref(): obj for obj in load(["manifests.yaml"]).objects}
    finally:
        os.chdir(cwd)
    lines = (CASE / "manifests.yaml").read_text(encoding="utf-8").splitlines()
    out = []
    for finding in outcome.report.findings:
        text = lines[finding.location.line - 1]
        obj = objects.get(finding.object) if finding.object is not None else None
        (line, start), (end_line, end) = finding_range(finding, text, obj)
        assert end_line == line
        out.append(f"{finding.rule} {line + 1}:{start + 1}-{end + 1}: {text[start:end]}")
    assert "\n".join(out) + "\n" == (CASE / "manifests.expected").read_text(encoding="utf-8")
