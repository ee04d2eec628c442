"""dralint's CEL engine: cel-go semantics over plain Python values, with Kubernetes' libraries.

Public API (other parts of dralint code against these names):

Errors
    ``CelError`` (``message``: cel-go's text), ``CelCompileError`` (``offset``: 0-based character
    offset of the first error, or ``None``), ``CelRuntimeError``.

DRA selectors (``dralint.cel.dra``)
    ``selector_environment(*, target=None, stored=False)``: ``None`` gives the allocator's
    StoredExpressions environment of the newest release (everything); a
    :class:`~dralint.api.versions.Target` gives the API server's NewExpressions environment for
    that release and gates (``stored``: that release's StoredExpressions one), each as the
    release's own ``cel/compile.go`` and ``base.go`` declare it.
    ``compile_selector(expression, env=None) -> Selector`` (cached by expression and environment)
    raises ``CelCompileError`` whose message is what follows ``CEL compile error: `` upstream
    (``compilation failed: ...``, ``must evaluate to bool ...``, ``program instantiation failed: ...``).
    ``Selector.expression``; ``Selector.matches(device) -> bool`` raises ``CelRuntimeError`` with
    the text after ``CEL runtime error: `` upstream, including the device's deferred
    attribute-conversion error.
    ``device_value(driver, device) -> DeviceValue`` never raises.
    ``compile_expression(expression, env=None) -> Selector``: a derived attribute's expression,
    whose ``Selector.value(device)`` is a string, int, bool, semver or a list of one of them.
    ``estimate_cost(expression, env=None) -> int``: the static worst-case cost estimate.

General programs (for CEL policies over whole objects)
    ``Environment`` (declared variables, functions, options); ``policy_environment(variables)``
    builds one with Kubernetes' libraries; ``compile(expression, env) -> Program``;
    ``Program.evaluate(activation) -> value`` over plain Python values (dicts, lists, str, int,
    float, bool, None).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dralint.cel.errors import CelCompileError, CelError, CelRuntimeError

if TYPE_CHECKING:
    from dralint.cel.checker.decls import Environment
    from dralint.cel.device import DeviceValue
    from dralint.cel.dra import Selector
    from dralint.cel.program import Program

__all__ = [
    "CelCompileError",
    "CelError",
    "CelRuntimeError",
    "DeviceValue",
    "Environment",
    "Program",
    "Selector",
    "compile",
    "compile_expression",
    "compile_selector",
    "device_value",
    "estimate_cost",
    "policy_environment",
    "selector_environment",
]

_LAZY = {
    "Environment": "dralint.cel.checker.decls",
    "DeviceValue": "dralint.cel.device",
    "Selector": "dralint.cel.dra",
    "compile_expression": "dralint.cel.dra",
    "compile_selector": "dralint.cel.dra",
    "device_value": "dralint.cel.dra",
    "estimate_cost": "dralint.cel.dra",
    "selector_environment": "dralint.cel.dra_environment",
    "Program": "dralint.cel.program",
    "compile": "dralint.cel.program",
    "policy_environment": "dralint.cel.policy",
}


def __getattr__(name: str) -> Any:
    """Import the engine lazily: a pre-commit run that never evaluates CEL does not pay for it."""
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(name)
    import importlib

    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value
