"""Static worst-case cost estimate of a checked expression (cel-go's ``checker/cost.go``)."""

from __future__ import annotations

from dralint.cel.checker import Checked, walk
from dralint.cel.decls import Environment
from dralint.cel.nodes import Call, Comprehension

__all__ = ["estimate"]

_EXPENSIVE = frozenset(("lists.range", "distinct", "sort", "join", "split", "flatten", "reverse", "slice"))


def estimate(checked: Checked, env: Environment) -> int:
    """Upper bound of the runtime cost (interim: huge for anything that loops or allocates)."""
    for node in walk(checked.expr):
        if isinstance(node, Comprehension) or (isinstance(node, Call) and node.function in _EXPENSIVE):
            return 2**64 - 1
    return len(walk(checked.expr)) * 10
