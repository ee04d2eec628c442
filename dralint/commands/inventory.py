"""``dralint inventory expand``: print the Nodes and ResourceSlices a compact Inventory document stands for."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from dralint.api.objects import KubeObject
from dralint.cluster import compact, compact_schema
from dralint.cluster.inventory import is_inventory_document
from dralint.dataclass import dataclass
from dralint.errors import InputError
from dralint.pipeline import run as pipeline
from dralint.read.load import inputs
from dralint.report.yamlout import dump_all


@dataclass(frozen=True, slots=True)
class ExpandSettings:
    path: str
    stdin_name: str = "-"
    config: str | None = None
    no_config: bool = False


def reject_invalid(documents: Sequence[KubeObject]) -> None:
    """Exit 2 (raised) with the first defect of the Inventory documents, at its file, line and column."""
    problems = sorted(
        (obj.file, *obj.position(error.path), error.message)
        for obj in documents
        for error in compact_schema.validate(obj.raw)
    )
    if problems:
        file, line, column, message = problems[0]
        more = f" (and {len(problems) - 1} more; dralint check {file} lists them)" if len(problems) > 1 else ""
        raise InputError(f"invalid Inventory document: {file}:{line}:{column}: {message}{more}")


def expand(settings: ExpandSettings) -> int:
    """Print the expansion as multi-document YAML; 2 (with the defects) when a document is invalid."""
    plan = pipeline.configure(pipeline.Request(config=settings.config, no_config=settings.no_config))
    ctx = pipeline.read(plan, inputs([settings.path]), options=plan.options(), stdin_name=settings.stdin_name)
    documents = [obj for obj in ctx.objects if is_inventory_document(obj)]
    if not documents:
        raise InputError(
            f"{settings.path}: no Inventory document (apiVersion {compact_schema.API_VERSION}, kind Inventory)"
        )
    reject_invalid(documents)
    objects: list[Any] = []
    budget = compact_schema.ExpansionBudget()
    for obj in documents:
        refused = budget.take(obj.raw)
        if refused is not None:
            line, column = obj.position(refused.path)
            raise InputError(f"invalid Inventory document: {obj.file}:{line}:{column}: {refused.message}")
        expansion = compact.expand(obj.raw)
        objects.extend(node.data for node in expansion.nodes)
        objects.extend(item.data for item in expansion.slices)
    sys.stdout.write(dump_all(objects))
    return 0
