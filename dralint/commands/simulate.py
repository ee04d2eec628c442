"""``dralint simulate``: dry-run every pod against the inventory and report placements and utilisation.

The target cluster, inventory and context paths, ``exclude`` and the limits come from the flags,
the environment and ``.dralint.yaml`` through the same :func:`dralint.pipeline.run.configure` as
``dralint check``. Without any ResourceSlice or Inventory there is nothing to dry-run: exit 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import field
from typing import TYPE_CHECKING, Literal, TextIO, TypeVar

from dralint import progress
from dralint.config.resolve import Layer
from dralint.dataclass import dataclass
from dralint.errors import InputError, UsageError
from dralint.pipeline import run as pipeline
from dralint.report import open_output, refuse_replacing_manifests, simulation
from dralint.report.simulation import model as report

if TYPE_CHECKING:
    from dralint.dryrun.analysis import Analysis

Strategy = Literal["pack", "spread"]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SimulateSettings:
    paths: tuple[str, ...]
    inventory: tuple[str, ...] = ()
    outputs: tuple[tuple[str, str | None], ...] = (("text", None),)  # (format, file or None for stdout)
    flags: Layer = field(default_factory=Layer)  # settings given on the command line
    strategy: Strategy = "pack"
    stdin_name: str = "-"
    config: str | None = None
    no_config: bool = False
    environment: Mapping[str, str] | None = None  # None: os.environ
    freeze_loaded: bool = False  # gc.freeze() after loading: a process-wide effect the command line asks for
    progress: bool = False  # a progress line on standard error when it is a terminal (the command line asks)
    # Shortcuts for programmatic callers (tests): the same as the flags.
    release: str | None = None
    feature_gates: Mapping[str, bool] | None = None

    def request(self) -> pipeline.Request:
        layer = pipeline.with_shortcuts(
            self.flags, release=self.release, feature_gates=self.feature_gates, inventory=self.inventory
        )
        return pipeline.Request(layer, self.config, self.no_config, self.environment)


def run(settings: SimulateSettings) -> int:
    """0 when every pod was placed, 1 when some were not (2, raised, without an inventory)."""
    check_formats(settings.outputs, simulation.FORMATS)
    result = report.build(dry_run(settings))
    write(settings.outputs, simulation.renderer, result)
    return 1 if result.unplaced else 0


def check_formats(outputs: Sequence[tuple[str, str | None]], known: Mapping[str, str]) -> None:
    for name, _ in outputs:
        if name not in known:
            raise UsageError(f"unknown format {name!r}; known: {', '.join(sorted(known))}")


def dry_run(settings: SimulateSettings) -> Analysis:
    """The dry-run of the settings' inputs through the pipeline (exit 2, raised, without an inventory)."""
    plan = pipeline.configure(settings.request())
    files = plan.inputs(settings.paths)
    with progress.shown(sys.stderr, enabled=settings.progress):  # files read, pods placed
        ctx = pipeline.read(
            plan, files, options=plan.options(), stdin_name=settings.stdin_name, freeze=settings.freeze_loaded
        )
        refuse_replacing_manifests([path for _, path in settings.outputs if path], {o.file for o in ctx.objects})
        analysis = pipeline.dry_run(ctx, strategy=settings.strategy)
    if not analysis.active:
        raise InputError(
            "no inventory to dry-run against: give ResourceSlices or an Inventory document "
            "(--inventory, or inventory: in .dralint.yaml)"
        )
    return analysis


def write(
    outputs: Sequence[tuple[str, str | None]], renderer: Callable[[str], Callable[[T, TextIO], None]], result: T
) -> None:
    """Render ``result`` in each (format, file) of ``outputs`` (None: standard output)."""
    with ExitStack() as stack:
        for name, path in outputs:
            stream: TextIO = sys.stdout
            if path is not None:
                stream = open_output(stack, path)
            renderer(name)(result, stream)
