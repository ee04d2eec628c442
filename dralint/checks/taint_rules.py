"""DeviceTaintRules whose selector matches no device of the inventory (DRA711)."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext
from dralint.suggest import similar


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.inventory.has_inventory:
        return  # without ResourceSlices there is nothing a rule could be matched against
    from dralint.allocator.prepare import selects_device, selects_slice

    inventory = ctx.inventory
    for entry in inventory.taint_rules:
        selector = entry.rule.selector
        matched = any(
            selects_device(selector, device)
            for item in inventory.slices
            if selects_slice(selector, item.slice)
            for device in item.slice.devices
        )
        if matched or selector is None:
            continue
        wanted = [
            f"{name} {value}"
            for name, value in (("driver", selector.driver), ("pool", selector.pool), ("device", selector.device))
            if value is not None
        ]
        yield Violation(
            RuleId.TAINT_RULE_MATCHES_NO_DEVICE,
            f"DeviceTaintRule {entry.rule.meta.name} matches no device of the inventory ({', '.join(wanted)}): "
            "its taint applies to nothing",
            entry.origin.obj,
            ("spec", "deviceSelector"),
            _hint(ctx, selector.driver, selector.pool, selector.device),
        )


def _hint(ctx: CheckContext, driver: str | None, pool: str | None, device: str | None) -> str:
    slices = [item.slice for item in ctx.inventory.slices]
    for name, value, known in (
        ("driver", driver, {s.driver for s in slices}),
        ("pool", pool, {s.pool.name for s in slices if driver is None or s.driver == driver}),
        ("device", device, {d.name for s in slices if pool is None or s.pool.name == pool for d in s.devices}),
    ):
        if value is not None and value not in known:
            if name == "device":  # device names differ by an index: a near name is no evidence of a typo
                return "the devices there are " + ", ".join(sorted(known)[:8]) + (", ..." if len(known) > 8 else "")
            near = similar(value, sorted(known))
            if near is not None:
                return f"did you mean {name} `{near}`?"
            return f"no device of the inventory has {name} `{value}`; check the selector against the ResourceSlices"
    return "check the selector against the ResourceSlices: no device has all of these together"
