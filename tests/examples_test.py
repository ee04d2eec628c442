"""The shipped examples/ (see examples/README.md): valid where meant to be, with the deliberate mistakes found."""

from __future__ import annotations

import re
import shlex
from collections import Counter

import pytest
from click.testing import CliRunner

from dralint import cli
from dralint.api.versions import make_target
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from dralint.rules import builtin_rules
from tests.conftest import ROOT


def test_examples_load_cleanly_and_the_foundation_finds_the_unserved_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    workspace = load(["examples"])
    assert workspace.issues == [] and workspace.broken == []
    assert Counter(o.kind for o in workspace.objects) == Counter(
        {"ResourceSlice": 5, "Namespace": 4, "Node": 3, "DeviceClass": 3, "ResourceClaimTemplate": 4, "ResourceClaim": 3,
         "Deployment": 2, "Job": 2, "Pod": 2}
    )  # fmt: skip
    ctx = CheckContext(workspace, make_target())
    assert sum(len(s.typed.devices) for s in ctx.of_kind("ResourceSlice") if s.typed is not None) == 20
    assert [(t.owner.name, t.replicas) for t in ctx.pod_templates] == [
        ("chat-inference", 3), ("embeddings", 3), ("gpu-benchmark", 1), ("notebook", 1), ("scaling-study", 1), ("llm-finetune", 2),
    ]  # fmt: skip
    rules = builtin_rules()
    foundation = frozenset(i for i, rule in rules.items() if rule.check in ("input", "served-versions"))
    findings = engine.run(ctx, rules, engine.Selection(foundation))
    assert [(f.location.file, f.location.line, f.location.column, f.rule, f.message) for f in findings] == [
        ("examples/apps/legacy/benchmark.yaml", 3, 1, "DRA200",
         "Kubernetes 1.37 does not serve resource.k8s.io/v1alpha3 ResourceClaimTemplate (served in 1.31-1.33)"),
    ]  # fmt: skip


_BLOCK = re.compile(r"^```sh exit=(\d+)\n(.*?)^```\n\n```text output\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def test_examples_readme_commands_print_what_it_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ``sh exit=N`` block of examples/README.md, run in examples/, exits with N and prints the lines of the
    ``text output`` block after it, in order (``...`` skips lines)."""
    monkeypatch.chdir(ROOT / "examples")
    for variable in ("NO_COLOR", "GITHUB_ACTIONS"):
        monkeypatch.delenv(variable, raising=False)
    blocks = _BLOCK.findall((ROOT / "examples" / "README.md").read_text(encoding="utf-8"))
    assert blocks, "examples/README.md shows no command with its output"
    for code, command, expected in blocks:
        result = CliRunner().invoke(cli.main, shlex.split(command.strip())[1:])
        assert result.exit_code == int(code), f"{command.strip()}: exit {result.exit_code}\n{result.output}"
        remaining = result.output.splitlines()
        for line in expected.splitlines():
            if line == "...":
                continue
            assert line in remaining, f"{command.strip()}: the output lacks (or misorders) {line!r}:\n{result.output}"
            remaining = remaining[remaining.index(line) + 1 :]
