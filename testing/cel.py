"""Shared helpers of the CEL part tests: cases read from ``tests/fixtures/cel/<part>/*.yaml``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "cel"


def cases(name: str) -> list[dict[str, Any]]:
    """The cases of one fixture file (a YAML list of mappings)."""
    loaded = YAML(typ="safe").load((FIXTURES / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, list)
    return loaded
