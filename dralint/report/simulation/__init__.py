"""Output formats of ``dralint simulate``. Each module renders a finished
:class:`~dralint.report.simulation.model.SimulationReport` and decides nothing."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TextIO, TypeVar

from dralint.report import escape
from dralint.report.simulation.model import SimulationReport

FORMATS: dict[str, str] = {
    "html": "dralint.report.simulation.html",
    "json": "dralint.report.simulation.json_format",
    "text": "dralint.report.simulation.text",
}
# What each format needs done to text from the input (report/escape.py); HTML escapes markup itself.
ESCAPES: dict[str, Callable[[str], str]] = {
    "html": escape.for_unicode,
    "json": escape.for_unicode,
    "text": escape.for_terminal,
}

Renderer = Callable[[SimulationReport, TextIO], None]
T = TypeVar("T")


def renderer(name: str) -> Renderer:
    """The format's ``render``, given the report with its input text escaped as the format needs."""
    return escaped(FORMATS[name], ESCAPES[name])


def escaped(module_name: str, treat: Callable[[str], str]) -> Callable[[T, TextIO], None]:
    """The ``render`` of module ``module_name``, given its report with every string passed through ``treat``
    (for the reports of ``simulate`` and ``plan``)."""
    module = importlib.import_module(module_name)
    function: Callable[[T, TextIO], None] = module.render

    def render(report: T, stream: TextIO) -> None:
        function(escape.strings(report, treat), stream)

    return render


def percent(value: float) -> str:
    """``0.375`` → ``37.5%`` (one decimal, trailing ``.0`` dropped)."""
    text = f"{value * 100:.1f}"
    return (text[:-2] if text.endswith(".0") else text) + "%"
