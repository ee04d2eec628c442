"""Inventory defects (DRA700-DRA709): invalid Inventory documents and pools the scheduler cannot use as meant."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.findings import Violation
from dralint.pipeline.context import CheckContext


def check(ctx: CheckContext) -> Iterator[Violation]:
    inventory = ctx.inventory
    if not (inventory.documents or inventory.slices or inventory.allocated):
        return
    from dralint.cluster import compact_schema  # imported when there is an inventory to look at
    from dralint.diagnose import defects

    for obj in inventory.documents:
        for error in compact_schema.validate(obj.raw):
            yield Violation("DRA700", error.message, obj, error.path, error.hint)
    for obj, error in inventory.refused:
        yield Violation("DRA700", error.message, obj, error.path, error.hint)
    for defect in defects.find(inventory.slices, inventory.allocated):
        yield Violation(defect.rule, defect.message, defect.origin.obj, defect.origin.path, defect.hint)
