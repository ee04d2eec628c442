"""Environments for user CEL policies over whole objects (``object`` holds the raw manifest)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from dralint.cel.checker.decls import Environment
from dralint.cel.checker.types import DYN, Type
from dralint.cel.lib.environments import base_options, build

__all__ = ["policy_environment"]


@lru_cache(maxsize=16)
def _environment(names: tuple[tuple[str, Type], ...]) -> Environment:
    env = build("policy", base_options(), compatibility=None, honour_gates=False)
    env.macros = env.macros | {("bind", 3, True)}
    env.variables.update(dict(names))
    return env


def policy_environment(variables: Mapping[str, Type] | None = None) -> Environment:
    """Kubernetes' libraries plus ``variables`` (default: ``object`` of type ``dyn``)."""
    declared = dict(variables) if variables is not None else {"object": DYN}
    return _environment(tuple(sorted(declared.items(), key=lambda item: item[0])))
