"""DRA420: selectors that raise CEL runtime errors on inventory devices (scheduling of the pod aborts)."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.checks.rule_ids import RuleId
from dralint.findings import Violation
from dralint.pipeline.context import CheckContext


def check(ctx: CheckContext) -> Iterator[Violation]:
    if not ctx.options.simulate or not ctx.inventory.has_inventory:
        return
    # Imported after the guard: a run without an inventory does not pay for the dry-run's modules.
    from dralint.cel.dra import NO_SUCH_KEY_HINT
    from dralint.diagnose import hints

    vocab = hints.vocabulary([entry.slice for entry in ctx.inventory.slices])
    for error in ctx.selector_errors.errors:
        # The cause first: cel-go's error without Kubernetes' generic advice, which only fits a
        # missing key; then what would fix it.
        cause = error.message.removesuffix(NO_SUCH_KEY_HINT)
        missing_key = cause.startswith("no such key:")
        suggested = hints.suggestions(error.expression, vocab) if missing_key else []
        guess = list(dict.fromkeys(text for text, _ in suggested))
        if missing_key:
            guess.append(
                "where it may be missing, guard it with has(...) or .?name.orValue(...), "
                'or test device.driver == "..." first'
            )
        else:
            guess.append(
                "the scheduler stops trying to place any pod using it; make it valid on every device it runs on"
            )
        of = f" of {error.evaluated}" if error.evaluated != error.failing else ""
        yield Violation(
            RuleId.SELECTOR_RUNTIME_ERROR,
            f"selector #{error.index} of {error.owner} raises a CEL runtime error on {error.failing}{of} inventory "
            f"device{'s' if error.evaluated != 1 else ''}, first {error.device}: {cause}",
            error.obj,
            error.path,
            "; ".join(guess),
            offset=error.offset,
            replacement=suggested[0][1] if suggested else None,
        )
