"""Compile comprehensions (the macros' folds) with cel-go's semantics.

The accumulator may hold an error as a value (a later step can still absorb it); ``map``,
``filter`` and the transforms build their results in place, as cel-go's mutable builders do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dralint.cel.errors import CelRuntimeError
from dralint.cel.parser.nodes import Call, Comprehension, CreateList, CreateMap, Expr, Ident, Literal
from dralint.cel.runtime import semantics as runtime
from dralint.cel.runtime.closures import NOT_CONSTANT, Compiles, ErrorValue, Fn, add_cost

__all__ = ["comprehension"]


def comprehension(compiler: Compiles, e: Comprehension) -> tuple[Fn, Any]:
    """A fold: the range evaluated once, the accumulator and iteration variables in frame slots."""
    iter_range = compiler.value(e.iter_range)
    accu_slot = compiler.slot()
    init_fn, init_const = compiler.compile(e.accu_init)
    compiler.scopes.append({e.accu_var: (accu_slot, True)})
    var_slot = compiler.slot()
    scope = {e.iter_var: (var_slot, False)}
    var2_slot = 0
    if e.iter_var2 is not None:
        var2_slot = compiler.slot()
        scope[e.iter_var2] = (var2_slot, False)
    compiler.scopes.append(scope)
    condition_const = _literal_bool(e.loop_condition)
    condition = compiler.value(e.loop_condition)
    builder = _builder_step(compiler, e)
    step = compiler.value(e.loop_step) if builder is None else None
    compiler.scopes.pop()
    result = compiler.value(e.result)
    compiler.scopes.pop()
    two_var = e.iter_var2 is not None
    fresh = builder is not None

    def run(f: list[Any]) -> Any:
        collection = iter_range(f)
        if fresh:
            f[accu_slot] = [] if isinstance(e.accu_init, CreateList) else {}
        elif init_const is not NOT_CONSTANT:
            f[accu_slot] = init_const
        else:
            try:
                f[accu_slot] = init_fn(f)
            except CelRuntimeError as error:
                f[accu_slot] = ErrorValue(error)
        if type(collection) is list or type(collection) is tuple:
            items: Any = enumerate(collection) if two_var else collection
        elif isinstance(collection, Mapping):
            items = list(collection.items()) if two_var else list(collection)
        else:
            runtime.not_iterable(collection, two_variables=two_var)
        for item in items:
            if two_var:
                f[var_slot], f[var2_slot] = item
            else:
                f[var_slot] = item
            if condition_const is False or (condition_const is None and condition(f) is False):
                break
            if builder is not None:
                builder(f, f[accu_slot])
                continue
            assert step is not None
            try:
                f[accu_slot] = step(f)
            except CelRuntimeError as error:
                f[accu_slot] = ErrorValue(error)
        return result(f)

    return run, NOT_CONSTANT


def _builder_step(compiler: Compiles, e: Comprehension) -> Callable[[list[Any], Any], None] | None:
    """In-place steps for map/filter/transform* (cel-go also builds these results mutably).

    Recognises ``@result + [x]`` and ``cel.@mapInsert(@result, ...)``, optionally under
    ``p ? ... : @result``, on a fresh empty accumulator; the first error is final (the
    accumulator could never absorb it) so it is raised at once.
    """
    init = e.accu_init
    if not ((isinstance(init, CreateList) and not init.elements) or (isinstance(init, CreateMap) and not init.entries)):
        return None
    step = e.loop_step
    predicate: Fn | None = None
    if isinstance(step, Call) and step.function == "_?_:_":
        condition, taken, other = step.args
        if not (isinstance(other, Ident) and other.name == e.accu_var):
            return None
        predicate = compiler.value(condition)
        step = taken
    if not isinstance(step, Call) or not step.args:
        return None
    accu = step.args[0]
    if not (isinstance(accu, Ident) and accu.name == e.accu_var):
        return None
    limit = compiler.limit
    track = compiler.track
    if step.function == "_+_" and isinstance(step.args[1], CreateList) and len(step.args[1].elements) == 1:
        if step.args[1].optional_indices:
            return None
        element, element_const = compiler.compile(step.args[1].elements[0])
        # cel-go folds a constant [x] into a constant list: no list-creation cost then.
        append_cost = 2 if element_const is not NOT_CONSTANT else 12

        def append(f: list[Any], accumulator: Any) -> None:
            if predicate is not None:
                keep = predicate(f)
                if keep is False:
                    if track:
                        add_cost(f, 1, limit)
                    return
                if keep is not True:
                    runtime.no_such_overload()
            accumulator.append(element(f))
            if track:
                add_cost(f, append_cost, limit)

        return append
    if step.function == "cel.@mapInsert" and len(step.args) in (2, 3):
        parts = [compiler.value(a) for a in step.args[1:]]

        def insert(f: list[Any], accumulator: Any) -> None:
            if predicate is not None:
                keep = predicate(f)
                if keep is False:
                    return
                if keep is not True:
                    runtime.no_such_overload()
            runtime.map_insert(accumulator, [p(f) for p in parts])
            if track:
                add_cost(f, 2, limit)

        return insert
    return None


def _literal_bool(e: Expr) -> bool | None:
    if isinstance(e, Literal) and e.kind == "bool":
        return bool(e.value)
    return None
