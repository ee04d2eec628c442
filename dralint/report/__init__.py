"""Output formats. Each module renders a finished :class:`Report` and decides nothing.

The registry is explicit; modules are imported only when their format is asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from dralint.findings import Finding

FORMATS: dict[str, str] = {
    "json": "dralint.report.json_format",
    "text": "dralint.report.text",
}


@dataclass(frozen=True, slots=True)
class Summary:
    files: int
    documents: int
    objects: int
    other_documents: int


@dataclass(frozen=True, slots=True)
class Report:
    """What a ``check`` run produced, ready to render."""

    findings: tuple[Finding, ...]
    summary: Summary
    target: dict[str, Any] = field(default_factory=dict)  # release and gates, for machine formats
    color: bool = False


Renderer = Callable[[Report, TextIO], None]


def renderer(name: str) -> Renderer:
    module = importlib.import_module(FORMATS[name])
    function: Renderer = module.render
    return function
