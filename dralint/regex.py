"""Regular expressions compiled when first used: a run meets few of those dralint defines
(CEL's string formats, Helm markers, suppression comments), and compiling them all at import
was a noticeable share of a one-file check."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

__all__ = ["compiled_on_first_use"]


def compiled_on_first_use(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A function returning ``re.compile(pattern, flags)``, compiled on its first call."""
    return functools.cache(lambda: re.compile(pattern, flags))
