"""``dralint simulate``: dry-run every pod against the inventory and report placements and utilisation.

The target cluster and inventory paths come from the flags, the environment and ``.dralint.yaml``
exactly as for ``dralint check``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
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
    format: str = "text"
    output: str | None = None
    release: str | None = None  # None: from the configuration, else the newest release
    feature_gates: Mapping[str, bool] | None = None
    strategy: Strategy = "pack"
    stdin_name: str = "-"
    config: str | None = None
    no_config: bool = False


def run(settings: SimulateSettings) -> int:
    """0 when every pod was placed, 1 when some were not."""
    if settings.format not in simulation.FORMATS:
        raise UsageError(f"unknown format {settings.format!r}; known: {', '.join(sorted(simulation.FORMATS))}")
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
    # The inventory is context, as for check: where the paths redefine one of its objects, theirs is applied.
    workspace = load(settings.paths, effective.inventory, stdin_name=settings.stdin_name)
    ctx = CheckContext(workspace, target)
    result = report.build(analysis.analyse(ctx, strategy=settings.strategy))
    render = simulation.renderer(settings.format)
    if settings.output is None:
        render(result, sys.stdout)
    else:
        try:
            stream: TextIO
            with open(settings.output, "w", encoding="utf-8", newline="\n") as stream:
                render(result, stream)
        except OSError as error:
            raise UsageError(f"cannot write {settings.output}: {error.strerror or error}") from None
    return 1 if result.unplaced else 0
