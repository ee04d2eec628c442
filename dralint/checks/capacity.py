"""Capacity requests against the inventory (DRA502-DRA504, DRA603): larger than any matching device,
refused or rounded up by request policies, or aimed at devices that cannot be shared."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING

from dralint.api.requests import claim_specs, written_requests
from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext

if TYPE_CHECKING:
    from dralint.api import model
    from dralint.diagnose.candidates import CapacityKind, Offer


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return
    if not ctx.target.enabled("DRAConsumableCapacity"):
        return  # capacity requests are dropped or refused: the version-skew checks say so
    # Imported after the guard: a run without an inventory does not pay for the dry-run's modules.
    from dralint.diagnose import candidates as requests

    analysis = ctx.analysis
    fractional = ctx.target.enabled("DRAFractionalCapacityRange")
    # The devices of a class and selectors, and what they offer per capacity: the same for the
    # requests of every claim written alike (thousands of templates, tens of thousands of devices).
    matching: dict[tuple[str, tuple[object, ...]], tuple[list[tuple[str, model.Device]], dict[str, list[Offer]]]] = {}
    for request in written_requests(claim_specs(ctx.admission.stored.values())):
        if request.spec.capacity is None:
            continue
        key = (request.spec.device_class_name, request.spec.selectors)
        found = matching.get(key)
        if found is None:
            devices = requests.matching_devices(request, analysis.class_devices(request.spec.device_class_name))
            found = matching[key] = (devices, {})
        for problem in requests.capacity_problems(request, *found, fractional=fractional):
            yield Violation(rule_of_kind()[problem.kind], problem.message, request.obj, problem.path, problem.hint)


@cache
def rule_of_kind() -> Mapping[CapacityKind, RuleId]:
    """Each kind of capacity problem's rule (built on first use: the diagnosis is imported lazily)."""
    from dralint.diagnose.candidates import CapacityKind

    return {
        CapacityKind.TOO_LARGE: RuleId.CAPACITY_REQUEST_EXCEEDS_DEVICES,
        CapacityKind.POLICY_REFUSES: RuleId.CAPACITY_REQUEST_POLICY_VIOLATION,
        CapacityKind.POLICY_ROUNDS_UP: RuleId.CAPACITY_REQUEST_ROUNDED_UP,
        CapacityKind.NOT_SHAREABLE: RuleId.CAPACITY_REQUEST_ON_EXCLUSIVE_DEVICE,
    }
