"""Lint YAML files or text in-process with the built-in rules (no configuration, no dry-run) and return the findings."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from dralint.api.versions import make_target
from dralint.findings import Finding
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext, Options
from dralint.read.load import load
from dralint.rules import builtin_rules


def lint_files(
    paths: Sequence[str],
    *,
    release: str = "1.37",
    gates: Mapping[str, bool] | None = None,
    inventory: Sequence[str] = (),
    rules: Sequence[str] | None = None,
) -> list[Finding]:
    workspace = load(list(paths), list(inventory))
    ctx = CheckContext(workspace, make_target(release, gates), Options(simulate=False))
    catalogue = builtin_rules()
    enabled = frozenset(rules) if rules is not None else frozenset(catalogue)
    return engine.run(ctx, catalogue, engine.Selection(enabled=enabled))


def lint_text(text: str, **kwargs: object) -> list[Finding]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "manifest.yaml"
        path.write_text(text, encoding="utf-8")
        return lint_files([str(path)], **kwargs)  # type: ignore[arg-type]
