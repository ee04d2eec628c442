"""The registry of built-in checks: check name → the function that runs it.

Written out by hand (never discovered) and imported lazily, so that ``dralint --version`` and
a one-file pre-commit run do not pay for checks they do not need. A check takes the
:class:`~dralint.pipeline.context.CheckContext` and yields :class:`~dralint.findings.Violation` values
for the rules (in ``dralint/rules/*.yaml``) that name it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from dralint.findings import Violation
    from dralint.pipeline.context import CheckContext

CheckFn = Callable[["CheckContext"], Iterable["Violation"]]

CHECKS: dict[str, str] = {
    "admin-access": "dralint.checks.admin_access:check",
    "allocation": "dralint.checks.allocation:check",
    "apiserver": "dralint.checks.apiserver:check",
    "capacity": "dralint.checks.capacity:check",
    "cel-runtime": "dralint.checks.cel_runtime:check",
    "cel-selectors": "dralint.checks.cel_selectors:check",
    "duplicates": "dralint.checks.duplicates:check",
    "gated-fields": "dralint.checks.gated_fields:check",
    "input": "dralint.checks.input:check",
    "inventory-defects": "dralint.checks.inventory_defects:check",
    "limits": "dralint.checks.limits:check",
    "references": "dralint.checks.references:check",
    "schema": "dralint.checks.schema:check",
    "served-versions": "dralint.checks.served_versions:check",
    "sharing": "dralint.checks.sharing:check",
    "taint-rules": "dralint.checks.taint_rules:check",
}

# Checks that look at one object (or one file) at a time, never at others: ``--jobs`` runs them
# in the worker processes that read the files. Every other check sees the whole input (objects
# referring to each other, the dry-run) and runs once, after the workers are done.
LOCAL_CHECKS: frozenset[str] = frozenset(
    {"apiserver", "cel-selectors", "gated-fields", "input", "schema", "served-versions"}
)

Scope = Literal["all", "local", "global"]

# Rules the engine reports itself, after the checks ran: they are about suppressions and the
# configuration (unused or broken suppressions, expired exceptions), not about the manifests.
ENGINE_CHECKS: frozenset[str] = frozenset({"suppressions"})


def known(name: str) -> bool:
    """Whether a rule may name ``name`` as its check."""
    return name in CHECKS or name in ENGINE_CHECKS


def is_engine(name: str | None) -> bool:
    """Whether ``name`` is reported by the engine rather than by a check function."""
    return name in ENGINE_CHECKS


def in_scope(name: str, scope: Scope) -> bool:
    """Whether the check ``name`` runs in ``scope`` (``all``, or the ``local`` or ``global`` half)."""
    return scope == "all" or (name in LOCAL_CHECKS) == (scope == "local")


def load(name: str) -> CheckFn:
    """The check function registered as ``name``."""
    module_name, _, attribute = CHECKS[name].partition(":")
    function: CheckFn = getattr(importlib.import_module(module_name), attribute)
    return function
