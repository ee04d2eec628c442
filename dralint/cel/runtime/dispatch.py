"""Which implementation a call runs: the function's singleton, its one overload behind type guards, or
a dispatcher over its overloads by the runtime types of the arguments (cel-go's ``decls`` bindings).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dralint.cel.checker.decls import Overload
from dralint.cel.checker.types import Type
from dralint.cel.runtime import semantics as runtime
from dralint.cel.runtime.closures import Fn
from dralint.cel.runtime.values import DefaultMap, TypeValue, UInt

__all__ = ["bind", "direct_call", "runtime_type_matches"]


# The Python classes of the values of each CEL type kind (maps: any Mapping, see runtime_type_matches).
_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "string": (str,),
    "bool": (bool,),
    "uint": (UInt,),
    "double": (float,),
    "bytes": (bytes,),
    "null": (type(None),),
    "list": (list, tuple),
    "map": (dict, DefaultMap),
    "type": (TypeValue,),
}


def _type_check(t: Type) -> Callable[[Any], bool] | None:
    """A fast predicate for ``runtime_type_matches(value, t)``, or None when anything matches."""
    if t.kind in ("dyn", "any", "param", "error"):
        return None
    exact = _PYTHON_TYPES.get(t.kind)
    if exact is not None and t.kind != "map":
        return lambda value: type(value) in exact
    classes = tuple(cls for cls, name in runtime.TYPE_NAMES.items() if name == t.name)
    if classes:
        return lambda value: type(value) in classes or runtime_type_matches(value, t)
    return lambda value: runtime_type_matches(value, t)


def runtime_type_matches(value: Any, t: Type) -> bool:
    """cel-go's ``IsAssignableRuntimeType``: the runtime kind of ``value`` fits ``t``."""
    kind = t.kind
    if kind in ("dyn", "any", "param", "error"):
        return True
    if kind == "map":
        return isinstance(value, Mapping)
    exact = _PYTHON_TYPES.get(kind)
    if exact is not None:
        return type(value) in exact
    return runtime.type_name(value) == t.name


def direct_call(impl: Callable[..., Any], fns: list[Fn]) -> Fn:
    if len(fns) == 1:
        (a,) = fns

        def one(f: list[Any]) -> Any:
            return impl(a(f))

        return one
    if len(fns) == 2:
        a, b = fns

        def two(f: list[Any]) -> Any:
            return impl(a(f), b(f))

        return two
    if len(fns) == 0:

        def zero(f: list[Any]) -> Any:
            return impl()

        return zero

    def many(f: list[Any]) -> Any:
        return impl(*[fn(f) for fn in fns])

    return many


def bind(
    name: str, singleton: Callable[..., Any] | None, candidates: tuple[Overload, ...], no_guards: bool
) -> Callable[..., Any]:
    """The implementation to call: the singleton, the one overload (guarded), or a dispatcher."""
    if singleton is not None:
        return singleton
    if len(candidates) == 1:
        overload = candidates[0]
        impl = overload.impl
        assert impl is not None, overload.id
        if no_guards or all(t.kind in ("dyn", "any", "param") for t in overload.args):
            return impl
        checks: list[tuple[int, Callable[[Any], bool]]] = []
        for position, t in enumerate(overload.args):
            check = _type_check(t)
            if check is not None:
                checks.append((position, check))

        def guarded(*args: Any) -> Any:
            for position, check in checks:
                if not check(args[position]):
                    runtime.no_such_overload(name, *args)
            return impl(*args)

        return guarded

    def dispatch(*args: Any) -> Any:
        for overload in candidates:
            if len(overload.args) == len(args) and all(
                runtime_type_matches(v, t) for v, t in zip(args, overload.args, strict=True)
            ):
                assert overload.impl is not None
                return overload.impl(*args)
        runtime.no_such_overload(name, *args)

    return dispatch
