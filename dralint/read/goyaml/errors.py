"""The errors of go-yaml's reader, scanner, parser and decoder, and the text kubectl prints for them."""

from __future__ import annotations

from typing import Literal

__all__ = ["GoYamlError", "Mark", "Stage"]

Mark = tuple[int, int, int]  # (character index, line, column), 0-based, lines counted as go-yaml counts them
Stage = Literal["reader", "scanner", "parser", "decoder"]

_NO_MARK: Mark = (0, 0, 0)


class GoYamlError(Exception):
    """Why go-yaml refuses a text: the problem, where it was found, and the construct it was in."""

    def __init__(
        self,
        stage: Stage,
        problem: str,
        problem_mark: Mark | None = None,
        context: str = "",
        context_mark: Mark | None = None,
    ) -> None:
        super().__init__(problem)
        self.stage = stage
        self.problem = problem
        self.problem_mark = problem_mark
        self.context = context
        self.context_mark = context_mark

    @property
    def upstream(self) -> str:
        """The error as go-yaml words it (kubectl prints it after "error converting YAML to JSON: ").

        go-yaml names a line only when it is not the first: the problem's (one more for the
        scanner's, whose marks are 0-based), else the context's; reader and decoder errors
        name none.
        """
        line = 0
        problem_line = (self.problem_mark or _NO_MARK)[1]
        context_line = (self.context_mark or _NO_MARK)[1]
        if self.stage in ("scanner", "parser") and problem_line:
            line = problem_line + (self.stage == "scanner")
        elif self.stage in ("scanner", "parser") and context_line:
            line = context_line
        where = f"line {line}: " if line else ""
        return f"yaml: {where}{self.problem}"
