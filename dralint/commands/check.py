"""``dralint check``: load, validate, analyse, report; returns the exit code."""

from __future__ import annotations

import io
import sys
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Literal, TextIO

from dralint import engine, report
from dralint.api.versions import DEFAULT_RELEASE, make_target
from dralint.context import CheckContext, Options
from dralint.errors import UsageError
from dralint.load import load
from dralint.rules import builtin_rules

FailOn = Literal["error", "warning", "info", "never"]


@dataclass(frozen=True, slots=True)
class CheckSettings:
    paths: tuple[str, ...]
    inventory: tuple[str, ...] = ()
    outputs: tuple[tuple[str, str | None], ...] = (("text", None),)  # (format, file or None for stdout)
    fail_on: FailOn = "error"
    release: str = DEFAULT_RELEASE
    feature_gates: Mapping[str, bool] = field(default_factory=dict)
    stdin_name: str = "-"
    simulate: bool = True
    color: bool = False


def run(settings: CheckSettings) -> int:
    for name, _ in settings.outputs:
        if name not in report.FORMATS:
            raise UsageError(f"unknown format {name!r}; known: {', '.join(sorted(report.FORMATS))}")
    target = make_target(settings.release, settings.feature_gates)
    workspace = load(settings.paths + settings.inventory, stdin_name=settings.stdin_name)
    ctx = CheckContext(workspace, target, Options(simulate=settings.simulate))
    rules = builtin_rules()
    selection = engine.Selection(enabled=frozenset(rules))
    findings = engine.run(ctx, rules, selection)
    result = report.Report(
        findings=tuple(findings),
        summary=report.Summary(
            files=len(workspace.files),
            documents=len(workspace.documents),
            objects=len(workspace.objects),
            other_documents=workspace.other_documents,
        ),
        target={"kubernetesVersion": target.release, "featureGates": dict(sorted(target.gates.items()))},
        color=settings.color,
    )
    write_outputs(result, settings.outputs)
    return engine.exit_code(findings, settings.fail_on)


def write_outputs(result: report.Report, outputs: tuple[tuple[str, str | None], ...]) -> None:
    with ExitStack() as stack:
        for name, path in outputs:
            stream: TextIO
            if path is None:
                stream = sys.stdout
                if isinstance(stream, io.TextIOWrapper) and (stream.encoding or "").lower().replace("-", "") != "utf8":
                    # A non-UTF-8 terminal must not turn a non-ASCII file name into a crash.
                    stream.reconfigure(errors="backslashreplace")
                rendered = result
            else:
                try:
                    stream = stack.enter_context(open(path, "w", encoding="utf-8", newline="\n"))
                except OSError as error:
                    raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
                rendered = report.Report(result.findings, result.summary, result.target, color=False)
            report.renderer(name)(rendered, stream)
