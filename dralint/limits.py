"""The bounds that keep hostile or accidental input from exhausting time or memory.

Each is set under ``limits:`` in the configuration (the camel-case name in the comment) and
documented in the README. Reaching one is a finding (DRA005 for input, DRA008 for the dry-run),
never a crash or a hang.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields

from dralint.dataclass import dataclass

__all__ = ["CONFIG_KEYS", "Limits", "from_config"]


@dataclass(frozen=True, slots=True)
class Limits:
    max_file_bytes: int = 16 * 1024 * 1024  # maxFileBytes: larger files are not read
    max_documents_per_file: int = 10_000  # maxDocumentsPerFile: files with more are not checked
    max_values_per_document: int = 2_000_000  # maxValuesPerDocument: constructed values, counting YAML aliases
    max_depth: int = 256  # maxDepth: nesting of mappings and lists
    max_search_steps: int = 1_000_000  # maxSearchSteps: allocator search steps for one pod on one node
    max_dry_run_steps: int = 10_000_000  # maxDryRunSteps: allocator search steps of the whole dry-run
    max_selector_evaluations: int = 2_000_000  # maxSelectorEvaluations: selectors evaluated on devices for DRA420


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.title() for part in rest)


CONFIG_KEYS: dict[str, str] = {_camel(f.name): f.name for f in fields(Limits)}  # maxFileBytes -> max_file_bytes


def from_config(values: Mapping[str, int]) -> Limits:
    """The limits with the configured ones (by their configuration names) in place of the defaults."""
    return Limits(**{CONFIG_KEYS[key]: value for key, value in values.items() if key in CONFIG_KEYS})
