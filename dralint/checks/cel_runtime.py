"""DRA420: selectors that raise CEL runtime errors on inventory devices (scheduling of the pod aborts)."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_devices:
        return
    # Imported after the guard: a run without an inventory does not pay for the dry-run's modules.
    from dralint.api.requests import claim_specs
    from dralint.diagnose import hints, selector_errors

    inventory = ctx.inventory
    classes = [(entry.device_class, entry.origin.obj) for entry in inventory.classes.values()]
    claims = claim_specs(ctx.admission.stored.values())
    slices = [entry.slice for entry in inventory.slices]
    vocab = hints.vocabulary(slices)
    for error in selector_errors.find(classes, claims, slices):
        guess = hints.did_you_mean(error.expression, vocab) if "no such key" in error.message else []
        of = f" of {error.evaluated}" if error.evaluated != error.failing else ""
        yield Violation(
            RuleId.SELECTOR_RUNTIME_ERROR,
            f"selector #{error.index} of {error.owner} raises a CEL runtime error on {error.failing}{of} inventory "
            f"device{'s' if error.evaluated != 1 else ''}, first {error.device}: {error.message}",
            error.obj,
            error.path,
            "; ".join(guess)
            if guess
            else 'the scheduler stops trying to place any pod using it; test device.driver == "..." first, '
            "or guard the access with has(...) or .?name.orValue(...)",
        )
