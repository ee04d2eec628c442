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
    from dralint.allocator.devices import SliceInfo
    from dralint.allocator.prepare import TaintRuleMatcher

    inventory = ctx.inventory
    matcher = TaintRuleMatcher({name: entry.device_class for name, entry in inventory.classes.items()})
    infos = [SliceInfo(item.slice) for item in inventory.slices]
    for entry in inventory.taint_rules:
        selector = entry.rule.selector
        if selector is None or any(matcher.devices(entry.rule, info) for info in infos):
            continue
        wanted = [
            f"{name} {value}"
            for name, value in (
                ("driver", selector.driver),
                ("pool", selector.pool),
                ("device", selector.device),
                ("class", selector.device_class_name),
            )
            if value is not None
        ]
        if selector.selectors:
            wanted.append(f"{len(selector.selectors)} CEL selector" + ("s" if len(selector.selectors) > 1 else ""))
        hint = (
            f"DeviceClass {selector.device_class_name} does not exist"
            if not matcher.applies(entry.rule)
            else _hint(ctx, selector.driver, selector.pool, selector.device)
        )
        yield Violation(
            RuleId.TAINT_RULE_MATCHES_NO_DEVICE,
            f"DeviceTaintRule {entry.rule.meta.name} matches no device of the inventory ({', '.join(wanted)}): "
            "its taint applies to nothing",
            entry.origin.obj,
            ("spec", "deviceSelector"),
            hint,
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
