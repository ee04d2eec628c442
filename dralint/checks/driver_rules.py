"""DRA915-DRA917: requests a driver refuses or mishandles when it prepares them, as its profile's requestRules say.

A rule holds for a request when all its conditions do: the request's admin access, an opaque
configuration of the driver that applies to it (from the claim or the DeviceClass), the kinds of
device it can get, and a condition on those devices. The devices are the inventory's when it has
some of the driver: every device the request can get (DRA915, error), some of them (DRA916,
warning); without them the finding says "if your devices are ..." (DRA917, info). A rule that
holds only for some of the releases the cluster may run is a warning too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from dralint.apimachinery.fieldpath import Path
from dralint.checks.rule_ids import RuleId
from dralint.dataclass import dataclass
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:
    from dralint.api import model
    from dralint.api.objects import KubeObject
    from dralint.api.requests import ClaimSpec, WrittenRequest
    from dralint.diagnose.profile_selectors import Readings
    from dralint.profiles.model import DriverProfile, RequestRule

Certainty = Literal["certain", "partly", "conditional"]
_RULES: dict[Certainty, RuleId] = {
    "certain": RuleId.REQUEST_BREAKS_DRIVER_RULE,
    "partly": RuleId.REQUEST_MAY_BREAK_DRIVER_RULE,
    "conditional": RuleId.REQUEST_BREAKS_DRIVER_RULE_ON_SOME_HARDWARE,
}


@dataclass(frozen=True, slots=True)
class _Applied:
    """An opaque configuration of the driver that applies to a request: its parameters and where they are."""

    parameters: object
    obj: KubeObject  # the object that holds it
    path: Path


def check(ctx: CheckContext) -> Iterator[Violation]:
    profiles = ctx.options.profiles
    specs = claim_specs_of(ctx)
    if not profiles or not specs:
        return
    from dralint.api import model
    from dralint.api.requests import written_requests
    from dralint.cel.dra import selector_environment
    from dralint.diagnose.claim_sharing import selectors_of
    from dralint.diagnose.profile_selectors import Readings

    readings = Readings(selector_environment(target=ctx.target), profiles)
    classes: dict[str, model.DeviceClass] = {}
    class_objects: dict[str, KubeObject] = {}
    for normalised in ctx.normalised.values():
        if isinstance(normalised.typed, model.DeviceClass) and normalised.typed.name not in classes:
            classes[normalised.typed.name] = normalised.typed
            class_objects[normalised.typed.name] = normalised.obj
    devices = _devices_by_driver(ctx)
    for spec, obj, base in specs:
        parts = list(written_requests([(spec, obj, base)]))
        for request, (_, expressions) in zip(parts, selectors_of(spec, classes), strict=True):
            for driver in readings.drivers(expressions):
                profile = profiles.get(driver)
                if profile is None or not profile.request_rules:
                    continue
                applied = _configs(spec, base, obj, request, driver)
                applied += _class_configs(classes, class_objects, request.spec.device_class_name, driver)
                for rule in profile.request_rules:
                    yield from _judge(ctx, profile, rule, request, expressions, applied, readings, devices)


def claim_specs_of(ctx: CheckContext) -> list[ClaimSpec]:
    """The claim specs of the inputs' ResourceClaims and ResourceClaimTemplates that have requests."""
    from dralint.api.requests import claim_specs

    return [item for item in claim_specs(ctx.normalised.values()) if item[0].requests]


def _judge(
    ctx: CheckContext,
    profile: DriverProfile,
    rule: RequestRule,
    request: WrittenRequest,
    expressions: Sequence[str],
    applied: Sequence[_Applied],
    readings: Readings,
    devices: Mapping[str, list[model.Device]],
) -> Iterator[Violation]:
    """The finding of one rule on one request, when the rule may hold."""
    from dralint.profiles.rules import holds

    certainty: Certainty = "certain"
    known = ctx.driver_releases.of(profile.driver)
    running = set(known.releases if known is not None and known.described else profile.versions)
    covered = set(profile.releases(rule.span))
    if running and not running & covered:
        return
    if not running <= covered:
        certainty = "partly"
    if rule.admin_access is not None and bool(getattr(request.spec, "admin_access", None)) != rule.admin_access:
        return
    where: tuple[KubeObject, Path] = (request.obj, request.path)
    if rule.config is not None:
        matching = [a for a in applied if holds(rule.config, a.parameters) is True]
        if not matching:
            return
        where = (matching[0].obj, matching[0].path)
    offered = _offered(profile.driver, expressions, devices.get(profile.driver, []))
    if rule.device_kinds is not None:
        kinds = readings.kinds(profile.driver, list(expressions))
        if kinds is not None and not set(kinds) & rule.device_kinds:
            return
        # the inventory's devices settle a condition on the devices better than the kinds can
        if (kinds is None or not set(kinds) <= rule.device_kinds) and (rule.devices is None or offered is None):
            certainty = "partly"
    detail = ""
    if rule.devices is not None:
        if offered is None:
            certainty, detail = "conditional", f"if {request.owner} gets {rule.hardware or 'such devices'}: "
        else:
            hit = [d for d in offered if _matches(rule.devices, profile.driver, d)]
            if not hit:
                return
            if len(hit) < len(offered):
                certainty = "partly" if certainty != "conditional" else certainty
                detail = (
                    f"{len(hit)} of the {len(offered)} devices {request.owner} can get are {rule.hardware} "
                    f"({_names(hit)}): "
                )
            else:
                detail = f"{request.owner} can only get {rule.hardware} ({_names(hit)}): "
    elif rule.hardware:
        detail = f"{request.owner} gets {rule.hardware}: "
    else:
        detail = f"{request.owner}: "
    yield Violation(
        _RULES[certainty],
        f"{detail}{rule.message}{_releases(profile, running, covered)}",
        where[0],
        where[1],
        hint=f"the driver {profile.driver} does this when it prepares the claim ({rule.source})",
    )


def _releases(profile: DriverProfile, running: set[str], covered: set[str]) -> str:
    """Which releases do it, when not every release the cluster may run does."""
    if running <= covered or not covered:
        return ""
    listed = [v for v in profile.versions if v in covered]
    span = listed[0] if len(listed) == 1 else f"{listed[0]} to {listed[-1]}"
    return f" (driver {profile.driver} {span}; the cluster may run another release)"


def _names(devices: Sequence[model.Device]) -> str:
    shown = ", ".join(d.name for d in devices[:3])
    return shown + (f" and {len(devices) - 3} more" if len(devices) > 3 else "")


def _matches(expression: str, driver: str, device: model.Device) -> bool:
    from dralint.cel import CelError, compile_selector, device_value

    try:
        return compile_selector(expression).matches(device_value(driver, device)) is True
    except CelError:
        return False  # a device the condition cannot be evaluated on (an attribute it lacks) is not one


def _offered(driver: str, expressions: Sequence[str], devices: Sequence[model.Device]) -> list[model.Device] | None:
    """The driver's inventory devices the request's class and selectors accept (None: the inventory has none)."""
    if not devices:
        return None
    from dralint.api import model as api_model
    from dralint.diagnose.candidates import accepted_devices

    selectors = [api_model.DeviceSelector(api_model.CELDeviceSelector(e)) for e in expressions]
    return [d for _, d in accepted_devices(selectors, ((driver, d) for d in devices))]


def _devices_by_driver(ctx: CheckContext) -> dict[str, list[model.Device]]:
    """The inventory's devices of each driver (none without an inventory)."""
    from dralint.cluster.inventory import has_device_source

    out: dict[str, list[model.Device]] = {}
    if any(has_device_source(obj) for obj in ctx.objects):
        for entry in ctx.inventory.slices:
            out.setdefault(entry.slice.driver, []).extend(entry.slice.devices)
    return out


def _configs(
    spec: model.ResourceClaimSpec, base: Path, obj: KubeObject, request: WrittenRequest, driver: str
) -> list[_Applied]:
    """The claim's opaque configurations of ``driver`` that apply to the request (all, or those naming it)."""
    name = request.label.split("/", 1)[0]
    out = []
    for index, entry in enumerate(spec.config):
        opaque = entry.opaque
        if opaque is None or opaque.driver != driver:
            continue
        if entry.requests and request.label not in entry.requests and name not in entry.requests:
            continue
        at: Path = (*base[:-1], "config", index, "opaque", "parameters")
        out.append(_Applied(opaque.parameters, obj, at))
    return out


def _class_configs(
    classes: Mapping[str, model.DeviceClass], objects: Mapping[str, KubeObject], name: str, driver: str
) -> list[_Applied]:
    device_class = classes.get(name)
    if device_class is None or name not in objects:
        return []
    return [
        _Applied(entry.opaque.parameters, objects[name], ("spec", "config", index, "opaque", "parameters"))
        for index, entry in enumerate(device_class.config)
        if entry.opaque is not None and entry.opaque.driver == driver
    ]
