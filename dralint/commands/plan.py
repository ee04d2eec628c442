"""``dralint plan``: what the cluster autoscaler would add and remove for the manifests, offline.

Reads its inputs and configuration exactly as ``dralint simulate`` does (the same pipeline,
flags and ``.dralint.yaml``), plans from that dry-run (:mod:`dralint.plan`) and renders the plan.
"""

from __future__ import annotations

from dataclasses import field

from dralint.commands import simulate
from dralint.commands.inventory import reject_invalid
from dralint.dataclass import dataclass
from dralint.errors import UsageError
from dralint.plan import planner, scaleup
from dralint.report import plan as plan_report
from dralint.report.plan import model


@dataclass(frozen=True, slots=True)
class PlanSettings:
    inputs: simulate.SimulateSettings = field(default_factory=lambda: simulate.SimulateSettings(paths=()))
    expander: scaleup.Expander = "least-waste"
    threshold: float = planner.DEFAULT_THRESHOLD


def run(settings: PlanSettings) -> int:
    """0 when every pod fits (after scale-up), 1 when some fit no pool even at maxCount (2, raised, on bad input)."""
    simulate.check_formats(settings.inputs.outputs, plan_report.FORMATS)
    if not 0 <= settings.threshold <= 1:
        raise UsageError(f"--scale-down-utilization-threshold must be between 0 and 1, not {settings.threshold}")
    analysis = simulate.dry_run(settings.inputs)
    # The node pools are the plan's input: a pool left out because its document is invalid would
    # silently change the answer.
    reject_invalid(analysis.inventory.documents)
    decided = planner.plan(analysis, expander=settings.expander, threshold=settings.threshold)
    result = model.build(decided, analysis)
    simulate.write(settings.inputs.outputs, plan_report.renderer, result)
    return 1 if result.unplaceable else 0
