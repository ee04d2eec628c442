"""Output formats of ``dralint plan``. Each module renders a finished
:class:`~dralint.report.plan.model.PlanReport` and decides nothing."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TextIO

from dralint.report import escape
from dralint.report.plan.model import PlanReport
from dralint.report.simulation import ESCAPES

FORMATS: dict[str, str] = {
    "html": "dralint.report.plan.html",
    "json": "dralint.report.plan.json_format",
    "text": "dralint.report.plan.text",
}

Renderer = Callable[[PlanReport, TextIO], None]


def renderer(name: str) -> Renderer:
    """The format's ``render``, given the report with its input text escaped as the format needs."""
    module = importlib.import_module(FORMATS[name])
    function: Renderer = module.render
    treat = ESCAPES[name]

    def render(report: PlanReport, stream: TextIO) -> None:
        function(escape.strings(report, treat), stream)

    return render
