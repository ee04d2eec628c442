"""Output formats of ``dralint plan``. Each module renders a finished
:class:`~dralint.report.plan.model.PlanReport` and decides nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from dralint.report.plan.model import PlanReport
from dralint.report.simulation import ESCAPES, escaped

FORMATS: dict[str, str] = {
    "html": "dralint.report.plan.html",
    "json": "dralint.report.plan.json_format",
    "text": "dralint.report.plan.text",
}

Renderer = Callable[[PlanReport, TextIO], None]


def renderer(name: str) -> Renderer:
    """The format's ``render``, given the report with its input text escaped as the format needs."""
    return escaped(FORMATS[name], ESCAPES[name])
