"""The CEL error family: compile errors (with a source offset) and runtime errors, in cel-go's words."""

from __future__ import annotations

__all__ = ["CelCompileError", "CelError", "CelRuntimeError", "CostLimitExceeded"]


class CelError(Exception):
    """Any CEL failure; ``message`` is the text cel-go (or Kubernetes around it) reports."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CelCompileError(CelError):
    """The expression does not compile (parse, type-check, validation or program instantiation).

    ``offset`` is the 0-based character offset of the first reported error in the expression,
    or ``None`` when cel-go reports no location (size and recursion limits).
    """

    def __init__(
        self,
        message: str,
        offset: int | None = None,
        issues: tuple[tuple[int | None, str], ...] = (),
        stage: str = "compile",
    ) -> None:
        super().__init__(message)
        self.offset = offset
        # "compile" (parse, check, validators), "result-type" (Kubernetes' bool check) or
        # "instantiate" (constant folding when the program is built).
        self.stage = stage
        # Each reported error on its own: (offset or None, cel-go's text without location).
        self.issues = issues or ((offset, message),)


class CelRuntimeError(CelError):
    """Evaluation failed; ``message`` is cel-go's error text (no such key, no such overload, ...)."""


class CostLimitExceeded(CelRuntimeError):
    """The runtime cost limit was exceeded (cel-go cancels the evaluation)."""

    def __init__(self) -> None:
        super().__init__("operation cancelled: actual cost limit exceeded")
