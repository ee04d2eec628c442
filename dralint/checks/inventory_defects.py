"""Inventory defects (DRA700-DRA710): invalid Inventory documents and pools the scheduler cannot use as meant."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:
    from dralint.diagnose.defects import Kind


def check(ctx: CheckContext) -> Iterator[Violation]:
    inventory = ctx.written_inventory
    if not (inventory.documents or inventory.slices or inventory.allocated):
        return
    from dralint.diagnose import defects  # imported when there is an inventory to look at

    for obj in inventory.documents:
        for error in inventory.document_errors.get(obj, ()):
            yield Violation(RuleId.INVENTORY_DOCUMENT_INVALID, error.message, obj, error.path, error.hint)
    for obj, error in inventory.refused:
        yield Violation(RuleId.INVENTORY_DOCUMENT_INVALID, error.message, obj, error.path, error.hint)
    for defect in defects.find(inventory.slices, inventory.allocated):
        yield Violation(rule_of_kind()[defect.kind], defect.message, defect.origin.obj, defect.origin.path, defect.hint)


@cache
def rule_of_kind() -> Mapping[Kind, RuleId]:
    """Each kind of inventory defect's rule (built on first use: the diagnosis is imported lazily)."""
    from dralint.diagnose.defects import Kind

    return {
        Kind.INCOMPLETE_POOL: RuleId.RESOURCE_POOL_INCOMPLETE,
        Kind.MIXED_GENERATIONS: RuleId.RESOURCE_POOL_MIXED_GENERATIONS,
        Kind.DUPLICATE_DEVICE: RuleId.DUPLICATE_DEVICE_NAME,
        Kind.COUNTER_NOT_DECLARED: RuleId.COUNTER_NOT_DECLARED,
        Kind.CONSUMES_MORE_THAN_COUNTER: RuleId.DEVICE_CONSUMES_MORE_THAN_COUNTER,
        Kind.COUNTERS_OVERCOMMITTED: RuleId.COUNTERS_OVERCOMMITTED,
        Kind.ATTRIBUTE_TYPE_INCONSISTENT: RuleId.ATTRIBUTE_TYPE_INCONSISTENT,
        Kind.DUPLICATE_COUNTER_SET: RuleId.DUPLICATE_COUNTER_SET,
        Kind.POOL_NAME_SHARED_WITH_COUNTERS: RuleId.POOL_NAME_SHARED_BY_DRIVERS_WITH_COUNTERS,
        Kind.ATTRIBUTE_GIVEN_TWICE: RuleId.ATTRIBUTE_GIVEN_TWICE,
    }
