"""DRA900-DRA904: selectors read against the profiles of the drivers they name, where the inventory has no devices.

With an inventory, its devices are the truth (the selector hints, DRA420 and the dry-run say what
they publish); a driver without devices in the inventory is checked against its profile: names
the driver never publishes (DRA900), comparisons with values of another type (DRA901), selectors
no kind of the driver's devices can satisfy, alone or beside their DeviceClass (DRA902), and,
in selectors that can match, a comparison with a value the driver never publishes (DRA904).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from dralint.apimachinery.fieldpath import Path
from dralint.checks.rule_ids import RuleId
from dralint.dataclass import dataclass
from dralint.findings import Replacement, Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:
    from dralint.api import model
    from dralint.api.objects import KubeObject
    from dralint.diagnose.profile_selectors import Readings, SelectorReading
    from dralint.profiles.model import Published


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.profiles:
        return
    written, classes = _selectors(ctx)
    if not written:
        return
    readings = ctx.profile_readings
    for selector in written:
        reading = readings.of(selector.expression)
        yield from _names_and_types(selector, reading)
        matches_none = list(_kinds(selector, reading, readings, classes))
        yield from matches_none
        if not matches_none:  # the clause that excludes every device is that finding's, not a second one
            yield from _values(selector, reading)


@dataclass(frozen=True, slots=True)
class Written:
    """One selector as written: its object, path, expression, and the request it belongs to (None: a class's)."""

    obj: KubeObject
    path: Path
    expression: str
    request: str | None = None  # "ResourceClaim ns/name request gpu"
    device_class: str | None = None  # the request's deviceClassName


def _selectors(ctx: CheckContext) -> tuple[list[Written], dict[str, list[str]]]:
    """Every selector of the inputs, and the expressions of each DeviceClass by name (the first definition)."""
    from dralint.api import model
    from dralint.api.requests import claim_specs, written_requests

    written: list[Written] = []
    classes: dict[str, list[str]] = {}
    for normalised in ctx.normalised.values():
        typed = normalised.typed
        if isinstance(typed, model.DeviceClass):
            expressions = expressions_of(typed.selectors)
            classes.setdefault(typed.name, [e for _, e in expressions])
            for index, expression in expressions:
                written.append(Written(normalised.obj, ("spec", "selectors", index, "cel", "expression"), expression))
    for request in written_requests(claim_specs(ctx.normalised.values())):
        for index, expression in expressions_of(request.spec.selectors):
            path = (*request.path, "selectors", index, "cel", "expression")
            written.append(Written(request.obj, path, expression, request.owner, request.spec.device_class_name))
    return written, classes


def expressions_of(selectors: Sequence[model.DeviceSelector]) -> list[tuple[int, str]]:
    """(index, expression) of the CEL selectors written."""
    return [(i, s.cel.expression) for i, s in enumerate(selectors) if s.cel is not None and s.cel.expression]


def _names_and_types(written: Written, reading: SelectorReading) -> Iterator[Violation]:
    from dralint.diagnose.profile_selectors import describe, reformed

    for unknown in reading.unknown:
        what = "attribute" if unknown.table == "attributes" else "capacity"
        yield Violation(
            RuleId.ATTRIBUTE_NOT_PUBLISHED_BY_DRIVER,
            f"{what} {unknown.domain}/{unknown.name} is not published by driver {unknown.domain} (its profile lists "
            f"no such {what})",
            written.obj,
            written.path,
            hint=f"did you mean {unknown.suggestion}?" if unknown.suggestion else _NOT_IN_PROFILE,
            offset=unknown.offset,
            replacement=Replacement(unknown.name, unknown.suggestion) if unknown.suggestion else None,
        )
    for wrong in reading.mistyped:
        message, hint = describe(wrong)
        literal = wrong.literal
        form = reformed(wrong)
        replacement = None
        if form is not None and literal is not None:
            written_literal = f'"{literal.value}"' if isinstance(literal.value, str) else str(literal.value)
            replacement = Replacement(written_literal, form)
        yield Violation(
            RuleId.ATTRIBUTE_COMPARED_WITH_WRONG_TYPE,
            message,
            written.obj,
            written.path,
            hint=hint,
            offset=wrong.offset,
            replacement=replacement,
        )


def _values(written: Written, reading: SelectorReading) -> Iterator[Violation]:
    for value in reading.unpublished:
        attribute = value.attribute
        subject = f'device.attributes["{attribute.domain}"].{attribute.name}'
        shown = f'"{value.value}"' if isinstance(value.value, str) else str(value.value).lower()
        effect = "always true" if value.operator == "_!=_" else "never true"
        yield Violation(
            RuleId.VALUE_NOT_PUBLISHED_BY_DRIVER,
            f"{subject} is never {shown} on devices of {attribute.domain}: the comparison is {effect}",
            written.obj,
            written.path,
            hint=f'did you mean "{value.suggestion}"?' if value.suggestion else _values_hint(attribute),
            offset=value.offset,
            replacement=Replacement(shown, f'"{value.suggestion}"') if value.suggestion else None,
        )


def _values_hint(attribute: Published) -> str:
    shown = [f'"{v}"' if isinstance(v, str) else str(v) for v in (attribute.values or ())[:12]]
    more = len(attribute.values or ()) - len(shown)
    return f"the driver publishes {', '.join(shown)}" + (f" and {more} more" if more > 0 else "")


_NOT_IN_PROFILE = (
    "a driver release newer than its profile may publish it: check the driver's ResourceSlices "
    "(kubectl get resourceslices -o yaml) and extend the profile (dralint profile extract)"
)


def _kinds(
    written: Written, reading: SelectorReading, readings: Readings, classes: dict[str, list[str]]
) -> Iterator[Violation]:
    """DRA902: a selector no kind of its driver's devices can satisfy, alone or together with its class."""
    from dralint.diagnose.device_kinds import why_not

    if reading.expr is None or not reading.drivers:
        return
    alone = {driver: readings.kinds(driver, [written.expression]) for driver in reading.drivers}
    if all(kinds == () for kinds in alone.values()):
        reasons = "; ".join(
            why_not(reading.expr, profile) for d in alone if (profile := readings.profiles.get(d)) is not None
        )
        yield Violation(
            RuleId.SELECTOR_MATCHES_NO_DEVICE_KIND,
            f"no device of {' or '.join(f'driver {d}' for d in alone)} can satisfy this selector: {reasons}",
            written.obj,
            written.path,
            hint="compare with the values the driver publishes (see its profile), or drop the clause that "
            "excludes every kind",
        )
        return
    class_expressions = classes.get(written.device_class or "")
    if not class_expressions:
        return
    for driver, kinds in alone.items():
        of_class = readings.kinds(driver, class_expressions)
        if kinds and of_class and not set(kinds) & set(of_class):
            yield Violation(
                RuleId.SELECTOR_MATCHES_NO_DEVICE_KIND,
                f"{written.request} selects only {'/'.join(kinds)} devices of {driver}, and DeviceClass "
                f"{written.device_class} only {'/'.join(of_class)} devices: no device satisfies both",
                written.obj,
                written.path,
                hint="use a DeviceClass for the kind of device the request wants",
            )
