"""DRA910-DRA913: opaque driver configuration read as the driver's profile says the driver reads it.

Every ``opaque`` entry of a DeviceClass's ``spec.config`` and of a claim's ``spec.devices.config``
whose driver has a profile that lists its configuration kinds: a kind the driver does not decode
(DRA912), parameters its schema refuses (DRA910), a rule of the driver they break (DRA911), and
a kind that the devices of the requests it applies to never accept (DRA913).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from dralint.apimachinery.fieldpath import Path
from dralint.checks.profile_selectors import expressions_of
from dralint.checks.rule_ids import RuleId
from dralint.findings import Replacement, Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:
    from dralint.api import model
    from dralint.api.objects import KubeObject
    from dralint.diagnose.profile_selectors import Readings
    from dralint.profiles.model import ConfigKind, DriverProfile
    from dralint.profiles.releases import Known
    from dralint.validate.opaque import InvalidParameter


def check(ctx: CheckContext) -> Iterator[Violation]:
    profiles = ctx.options.profiles
    if not profiles:
        return
    from dralint.api import model

    typed = [(n.obj, n.typed) for n in ctx.normalised.values()]
    classes = {t.name: t for _, t in reversed(typed) if isinstance(t, model.DeviceClass)}
    for obj, item in typed:
        if isinstance(item, model.DeviceClass):
            for index, entry in enumerate(item.config):
                at: Path = ("spec", "config", index, "opaque")
                yield from _opaque(ctx, obj, at, entry.opaque, partial(_class_kinds, ctx, item))
        elif isinstance(item, (model.ResourceClaim, model.ResourceClaimTemplate)):
            base: Path = ("spec", "devices") if isinstance(item, model.ResourceClaim) else ("spec", "spec", "devices")
            for index, claim_entry in enumerate(item.spec.config):
                kinds = partial(_request_kinds, ctx, item.spec.requests, claim_entry.requests, classes)
                yield from _opaque(ctx, obj, (*base, "config", index, "opaque"), claim_entry.opaque, kinds)


Targets = Callable[[str], list[tuple[str, tuple[str, ...]]]]  # driver -> (what, kinds) per set of devices


def _opaque(
    ctx: CheckContext, obj: KubeObject, at: Path, opaque: model.OpaqueDeviceConfiguration | None, kinds: Targets
) -> Iterator[Violation]:
    """The findings of one opaque entry; ``kinds(driver)`` gives (what, kinds) for each set of devices it applies to."""
    from dralint.validate.opaque import BrokenRule, InvalidParameter, UnknownConfigKind, config_kind, problems

    if opaque is None or not opaque.driver:
        return
    profile = ctx.options.profiles.get(opaque.driver)
    if profile is None or not profile.configs:
        return
    parameters = (*at, "parameters")
    known = ctx.driver_releases.of(profile.driver)
    releases = known.releases if known is not None and known.described else None
    # A user's profile that names no releases describes the driver as they run it: its word is final.
    certain = releases is not None or not (profile.versions or profile.shipped)
    for problem in problems(profile, opaque.parameters, releases):
        if isinstance(problem, UnknownConfigKind):
            yield _unknown_kind(profile, obj, parameters, problem)
        elif isinstance(problem, InvalidParameter) and problem.unknown is not None and not certain:
            yield _unknown_to_profile(profile, obj, parameters, problem, known)
        else:
            if isinstance(problem, BrokenRule):
                rule = RuleId.OPAQUE_CONFIG_BREAKS_DRIVER_RULE
                hint = "the driver checks this when it prepares the device"
                hint += f" ({problem.source})" if problem.source else ""
            else:
                rule = RuleId.OPAQUE_CONFIG_INVALID_PARAMETERS
                hint = "the driver refuses these parameters when it prepares the device, after the pod was scheduled"
            yield Violation(
                rule,
                f"{_field(problem.path)}{problem.message} ({problem.config.title} of driver {profile.driver}"
                f"{_running(known)})",
                obj,
                (*parameters, *problem.path),
                hint=hint,
            )
    config = config_kind(profile, opaque.parameters)
    if config is not None and config.device_kinds is not None:
        yield from _wrong_kind(profile, config, obj, parameters, kinds(profile.driver))


def _running(known: Known | None) -> str:
    """Which releases a certain finding is about, when dralint knows the cluster's."""
    if known is None or not known.described:
        return ""
    shown = known.releases[0] if len(known.releases) == 1 else f"{known.releases[0]} to {known.releases[-1]}"
    return f" {shown}, from {known.how}"


def _unknown_to_profile(
    profile: DriverProfile, obj: KubeObject, parameters: Path, problem: InvalidParameter, known: Known | None
) -> Violation:
    """DRA914: a name or value no described release takes, while the cluster may run a release the profile lacks."""
    newest = f" (up to {profile.newest})" if profile.newest else ""
    if problem.unknown == "field":
        what = f"field {problem.written!r}"
    else:
        what = f"the value {problem.written!r} (only {', '.join(problem.known)})"
    message = (
        f"{_field(problem.path)}no release of driver {profile.driver} that its profile describes{newest} takes "
        f"{what} ({problem.config.title})"
    )
    if known is not None and known.release is not None:
        message += f"; the cluster runs {known.release} ({known.how}), which the profile does not describe"
    elif known is not None:
        message += f"; {known.how} show a release the profile does not describe"
    driver = profile.driver
    hint = (
        "a newer release of the driver may take it: pin the release the cluster runs "
        f"(driverVersions: {{{driver}: <release>}} in .dralint.yaml) to check against it, or describe that "
        "release in a profile of your own (profiles: in .dralint.yaml)"
    )
    return Violation(RuleId.OPAQUE_CONFIG_UNKNOWN_TO_PROFILE, message, obj, (*parameters, *problem.path), hint=hint)


def _field(path: Path) -> str:
    from dralint.apimachinery.fieldpath import render

    return f"{render(path)}: " if path else ""


def _unknown_kind(profile: DriverProfile, obj: KubeObject, parameters: Path, problem: Any) -> Violation:
    known = ", ".join(problem.known)
    if problem.kind is None or problem.api_version is None:
        message = f"the parameters name no apiVersion and kind; driver {profile.driver} decodes {known}"
    else:
        message = f"driver {profile.driver} does not decode {problem.kind} ({problem.api_version}); it decodes {known}"
    replacement = None
    hint = "the driver fails to prepare the device when it cannot decode its configuration"
    if problem.suggestion is not None:
        version, kind = problem.suggestion
        if version != problem.api_version:
            hint, replacement = f"did you mean apiVersion {version}?", Replacement(problem.api_version, version)
        else:
            hint, replacement = f"did you mean kind {kind}?", Replacement(problem.kind, kind)
    return Violation(
        RuleId.OPAQUE_CONFIG_UNKNOWN_KIND,
        message,
        obj,
        (*parameters, *problem.path),
        hint=hint,
        replacement=replacement,
    )


def _wrong_kind(
    profile: DriverProfile,
    config: ConfigKind,
    obj: KubeObject,
    parameters: Path,
    targets: list[tuple[str, tuple[str, ...]]],
) -> Iterator[Violation]:
    accepted = config.device_kinds or frozenset()
    for what, kinds in targets:
        if kinds and not accepted & set(kinds):
            yield Violation(
                RuleId.OPAQUE_CONFIG_FOR_OTHER_DEVICE_KIND,
                f"{config.title} applies to {'/'.join(sorted(accepted))} devices of {profile.driver}, but {what} "
                f"gets only {'/'.join(kinds)} devices",
                obj,
                parameters,
                hint="use the configuration kind for those devices, or name only the requests it fits in requests",
            )


def _readings(ctx: CheckContext) -> Readings:
    return ctx.profile_readings


def _class_kinds(ctx: CheckContext, device_class: model.DeviceClass, driver: str) -> list[tuple[str, tuple[str, ...]]]:
    readings = _readings(ctx)
    expressions = [e for _, e in expressions_of(device_class.selectors)]
    kinds = readings.kinds(driver, expressions)
    return [] if kinds is None else [(f"DeviceClass {device_class.name}", kinds)]


def _request_kinds(
    ctx: CheckContext,
    requests: Sequence[model.DeviceRequest],
    names: Sequence[str],
    classes: dict[str, model.DeviceClass],
    driver: str,
) -> list[tuple[str, tuple[str, ...]]]:
    """For each request part the configuration applies to and that is about ``driver``: its label and kinds."""
    readings = _readings(ctx)
    out = []
    for request in requests:
        for part in request.parts():
            if names and part.label not in names and request.name not in names:
                continue
            device_class = classes.get(part.spec.device_class_name)
            class_exprs = [e for _, e in expressions_of(device_class.selectors)] if device_class else []
            expressions = class_exprs + [e for _, e in expressions_of(part.spec.selectors)]
            if driver not in readings.drivers(expressions):
                continue  # devices of another driver: the configuration is not theirs
            kinds = readings.kinds(driver, expressions)
            if kinds is not None:
                out.append((f"request {part.label}", kinds))
    return out
