"""The registry of built-in checks: check name → the function that runs it, written out by hand.

A check takes the :class:`~dralint.pipeline.context.CheckContext` and yields
:class:`~dralint.findings.Violation` values for the rules (in ``rules/*.yaml``) that name it as
their ``check``. The functions are imported here, so readers and mypy follow the wiring; a
check module keeps its heavy imports (the dry-run, the CEL engine) inside its function, so
that importing the registry stays cheap and a run that needs no dry-run never loads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from dralint.checks import (
    admin_access,
    allocation,
    apiserver,
    capacity,
    cel_runtime,
    cel_selectors,
    contention,
    defaulting,
    driver_objects,
    driver_rules,
    duplicates,
    empty_all,
    gated_fields,
    input,
    inventory_defects,
    limits,
    node_skew,
    opaque_config,
    pending,
    profile_inventory,
    profile_selectors,
    references,
    scheduling,
    schema,
    served_versions,
    sharing,
    taint_rules,
)
from dralint.findings import Finding, Violation
from dralint.pipeline.context import CheckContext

__all__ = [
    "CHECKS",
    "ENGINE_CHECKS",
    "LATE_CHECKS",
    "LOCAL_CHECKS",
    "CheckFn",
    "LateCheckFn",
    "Scope",
    "in_scope",
    "is_engine",
    "known",
]

CheckFn = Callable[[CheckContext], Iterable[Violation]]
LateCheckFn = Callable[[CheckContext, Sequence[Finding]], Iterable[Violation]]

CHECKS: dict[str, CheckFn] = {
    "admin-access": admin_access.check,
    "allocation": allocation.check,
    "apiserver": apiserver.check,
    "capacity": capacity.check,
    "cel-runtime": cel_runtime.check,
    "cel-selectors": cel_selectors.check,
    "contention": contention.check,
    "defaulting": defaulting.check,
    "driver-objects": driver_objects.check,
    "driver-rules": driver_rules.check,
    "duplicates": duplicates.check,
    "empty-all": empty_all.check,
    "gated-fields": gated_fields.check,
    "input": input.check,
    "inventory-defects": inventory_defects.check,
    "limits": limits.check,
    "node-skew": node_skew.check,
    "opaque-config": opaque_config.check,
    "profile-inventory": profile_inventory.check,
    "profile-selectors": profile_selectors.check,
    "references": references.check,
    "scheduling": scheduling.check,
    "schema": schema.check,
    "served-versions": served_versions.check,
    "sharing": sharing.check,
    "taint-rules": taint_rules.check,
}

# Checks that run after every other one, with their findings (resolved and filtered to the checked
# files, not yet suppressed): they report what no other finding says. The engine calls them.
LATE_CHECKS: dict[str, LateCheckFn] = {
    "pending-pods": pending.check,
}

# Checks that look at one object (or one file) at a time, never at others: ``--jobs`` runs them
# in the worker processes that read the files. Every other check sees the whole input (objects
# referring to each other, the dry-run) and runs once, after the workers are done.
LOCAL_CHECKS: frozenset[str] = frozenset(
    {"apiserver", "cel-selectors", "defaulting", "gated-fields", "input", "schema", "served-versions"}
)

Scope = Literal["all", "local", "global"]

# Rules the engine reports itself, after the checks ran: they are about suppressions and the
# configuration (unused or broken suppressions, expired exceptions), not about the manifests.
ENGINE_CHECKS: frozenset[str] = frozenset({"suppressions"})


def known(name: str) -> bool:
    """Whether a rule may name ``name`` as its check."""
    return name in CHECKS or name in LATE_CHECKS or name in ENGINE_CHECKS


def is_engine(name: str | None) -> bool:
    """Whether ``name`` is reported by the engine rather than by a check function."""
    return name in ENGINE_CHECKS


def in_scope(name: str, scope: Scope) -> bool:
    """Whether the check ``name`` runs in ``scope`` (``all``, or the ``local`` or ``global`` half)."""
    return scope == "all" or (name in LOCAL_CHECKS) == (scope == "local")
