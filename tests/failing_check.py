"""A check that raises, for the tests of internal-error handling (registered in a subprocess only)."""

from __future__ import annotations

from collections.abc import Iterator

from dralint.findings import Violation
from dralint.pipeline.context import CheckContext


def check(ctx: CheckContext) -> Iterator[Violation]:
    if ctx.objects:
        raise ZeroDivisionError("a check divided by zero\non two lines")
    yield from ()
