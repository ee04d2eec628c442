"""DRA903: inventory devices of a profiled driver that publish what the profile does not describe.

The inventory is the truth about a cluster; a difference from the profile usually means a driver
release newer (or older) than the profile, or a profile to extend: worth knowing, never wrong.
Reported once per driver and name, at the first device that shows it (a cluster's hundreds of
slices of one driver differ from the profile in the same way). The devices a compact Inventory
document expands to are checked like written ResourceSlices (``dralint inventory expand`` prints
the same devices), at their device group; like every finding, only for the checked files, not for
inventory given as context.
"""

from __future__ import annotations

from collections.abc import Iterator

from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext


def check(ctx: CheckContext) -> Iterator[Violation]:
    profiles = ctx.options.profiles
    if not profiles:
        return
    from dralint.cluster.inventory import has_device_source
    from dralint.diagnose.hints import qualified

    if not any(has_device_source(obj) for obj in ctx.objects):
        return
    seen: set[tuple[str, str, str, str]] = set()
    for entry in ctx.written_inventory.slices:
        resource_slice = entry.slice
        profile = profiles.get(resource_slice.driver)
        if profile is None:
            continue
        driver = resource_slice.driver
        unlisted = profile.may_publish_unlisted()  # names a plugin of the node may add
        for index, device in enumerate(resource_slice.devices):
            for key, attribute in device.attributes.items():
                name = qualified(key, driver)
                if not attribute.kind:
                    continue  # an attribute without a value is the API server's to reject (DRA12x)
                published = profile.attributes.get(name)
                if published is None and (name[0] != profile.driver or unlisted):
                    continue  # a standard or foreign domain the profile need not list, or a name added on the node
                problem = None
                if published is None:
                    problem = f"attribute {key} is not in the profile of {profile.driver}"
                elif attribute.kind != published.type:  # DeviceAttribute's field names are the profile's types
                    problem = (
                        f"attribute {key} is {attribute.kind} on the inventory's device, {published.type} in the "
                        f"profile of {profile.driver}"
                    )
                if problem and (driver, "attributes", key, problem) not in seen:
                    seen.add((driver, "attributes", key, problem))
                    at = entry.device_at(index, ("attributes", key))
                    yield _finding(at.obj, at.path, device.name, problem, profile.driver)
            for key in device.capacity:
                name = qualified(key, driver)
                if (
                    name[0] == profile.driver
                    and name not in profile.capacities
                    and (driver, "capacity", key, "") not in seen
                ):
                    seen.add((driver, "capacity", key, ""))
                    problem = f"capacity {key} is not in the profile of {profile.driver}"
                    at = entry.device_at(index, ("capacity", key))
                    yield _finding(at.obj, at.path, device.name, problem, profile.driver)


def _finding(obj: KubeObject, at: Path, device: str, problem: str, driver: str) -> Violation:
    return Violation(
        RuleId.INVENTORY_DIFFERS_FROM_PROFILE,
        f"{problem} (first on device {device})",
        obj,
        at,
        # The command, not the profile's file: a shipped profile's path is not where an installed copy keeps it.
        hint=f"the inventory is what the checks use for this driver; its profile (dralint profile show {driver}) "
        "may be older than the driver, extend it with dralint profile extract",
    )
