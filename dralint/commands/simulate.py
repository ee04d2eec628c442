"""``dralint simulate``: dry-run every pod against the inventory and report placements and utilisation.

The target cluster and inventory paths come from the flags, the environment and ``.dralint.yaml``
exactly as for ``dralint check``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Literal, TextIO

from dralint.commands import check
from dralint.dryrun import analysis
from dralint.errors import UsageError
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from dralint.report import simulation
from dralint.report.simulation import model as report

Strategy = Literal["pack", "spread"]


@dataclass(frozen=True, slots=True)
class SimulateSettings:
    paths: tuple[str, ...]
    inventory: tuple[str, ...] = ()
    outputs: tuple[tuple[str, str | None], ...] = (("text", None),)  # (format, file or None for stdout)
    release: str | None = None  # None: from the configuration, else the newest release
    feature_gates: Mapping[str, bool] | None = None
    strategy: Strategy = "pack"
    stdin_name: str = "-"
    config: str | None = None
    no_config: bool = False


def run(settings: SimulateSettings) -> int:
    """0 when every pod was placed, 1 when some were not."""
    for name, _ in settings.outputs:
        if name not in simulation.FORMATS:
            raise UsageError(f"unknown format {name!r}; known: {', '.join(sorted(simulation.FORMATS))}")
    effective, _ = check.configuration(
        check.CheckSettings(
            paths=settings.paths,
            config=settings.config,
            no_config=settings.no_config,
            release=settings.release,
            feature_gates=settings.feature_gates,
            inventory=settings.inventory,
        ),
        os.environ,
    )
    target = check.target(effective)
    workspace = load(settings.paths + effective.inventory, stdin_name=settings.stdin_name)
    ctx = CheckContext(workspace, target)
    result = report.build(analysis.analyse(ctx, strategy=settings.strategy))
    with ExitStack() as stack:
        for name, path in settings.outputs:
            stream: TextIO = sys.stdout
            if path is not None:
                try:
                    stream = stack.enter_context(open(path, "w", encoding="utf-8", newline="\n"))
                except OSError as error:
                    raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
            simulation.renderer(name)(result, stream)
    return 1 if result.unplaced else 0
