"""Output formats of ``dralint simulate``. Each module renders a finished
:class:`~dralint.report.simulation.model.SimulationReport` and decides nothing."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TextIO

from dralint.report.simulation.model import SimulationReport

FORMATS: dict[str, str] = {
    "html": "dralint.report.simulation.html",
    "json": "dralint.report.simulation.json_format",
    "text": "dralint.report.simulation.text",
}

Renderer = Callable[[SimulationReport, TextIO], None]


def renderer(name: str) -> Renderer:
    module = importlib.import_module(FORMATS[name])
    function: Renderer = module.render
    return function


def percent(value: float) -> str:
    """``0.375`` → ``37.5%`` (one decimal, trailing ``.0`` dropped)."""
    text = f"{value * 100:.1f}"
    return (text[:-2] if text.endswith(".0") else text) + "%"
