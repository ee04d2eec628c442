"""Random structural mutations of decoded documents, for tests that compare two validators on them."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

WEIRD: list[Any] = [
    None, True, False, 0, -1, 2**31, 2**63, 1.5, 1.0, float("nan"), float("inf"), "", "x", "1Gi", "1.5 Gi",
    "2025-01-31T12:00:00Z", [], [1], {}, {"a": 1}, "\u202e\x00", "é" * 3,
]  # fmt: skip


def mutate(value: Any, rnd: random.Random, keys: Sequence[str] = ("extra", "Name", "count", "spec", "devices")) -> Any:
    """A copy of ``value`` with a few values replaced, removed or added (under one of ``keys``) at random places."""
    value = copy.deepcopy(value)
    for _ in range(rnd.randint(1, 5)):
        holder, key = pick(value, rnd)
        if holder is None:
            continue
        action = rnd.random()
        if action < 0.5:
            holder[key] = rnd.choice(WEIRD)
        elif action < 0.7 and isinstance(holder, dict):
            del holder[key]
        elif isinstance(holder, dict):
            holder[rnd.choice(keys)] = rnd.choice(WEIRD)
    return value


def pick(value: Any, rnd: random.Random) -> tuple[Any, Any]:
    """A random (container, key or index) on a path from the root, or (None, None) for a scalar."""
    holder, key = None, None
    node = value
    for _ in range(rnd.randint(1, 8)):
        if isinstance(node, dict) and node:
            holder, key = node, rnd.choice(list(node))
        elif isinstance(node, list) and node:
            holder, key = node, rnd.randrange(len(node))
        else:
            break
        node = holder[key]
    return holder, key
