"""Compile a checked CEL AST into nested Python closures with cel-go's evaluation semantics.

One closure builder per AST node kind (``closures.py`` describes the frame the closures share);
the operators with rules of their own are in ``compile_operators.py``, comprehensions in
``compile_comprehensions.py``, and which implementation a call runs in ``dispatch.py``. Like
cel-go's planner with ``OptOptimize``, literal lists and maps and type conversions of constants
are folded when the program is built (a failing fold is a compile error), and regular
expressions with constant patterns are compiled up front. With ``track_cost`` every node also
adds its runtime cost (cel-go's cost tracker) and evaluation stops past the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dralint.cel.checker.check import Checked
from dralint.cel.checker.decls import Environment, Overload
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib.strings import REGEX_FUNCTIONS, compile_pattern
from dralint.cel.parser.nodes import (
    Call,
    Comprehension,
    CreateList,
    CreateMap,
    CreateStruct,
    Expr,
    Ident,
    Literal,
    Select,
)
from dralint.cel.pricing import LIST_CREATE_COST, MAP_CREATE_COST, Pricing
from dralint.cel.runtime import semantics as runtime
from dralint.cel.runtime.closures import (
    NOT_CONSTANT,
    Cancelled,
    ErrorValue,
    Fn,
    FoldError,
    LocatedError,
    const,
    located,
)
from dralint.cel.runtime.comprehensions import comprehension
from dralint.cel.runtime.costs import call_cost, cost_before
from dralint.cel.runtime.dispatch import bind, direct_call
from dralint.cel.runtime.operators import SPECIAL
from dralint.cel.runtime.values import DefaultMap, Optional, TypeValue, UInt

__all__ = ["Cancelled", "CompiledProgram", "Compiler", "FoldError", "LocatedError", "compile_checked"]

# Functions whose calls on constant arguments cel-go evaluates when the program is built.
_CONVERSIONS = frozenset(("bool", "bytes", "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint"))
# Calls not worth evaluating at compile time (their results can be arbitrarily large).
_NOT_PRECOMPUTED = frozenset(("lists.range", "optional.none", "optional.of"))


class CompiledProgram:
    """A compiled expression: ``run(frame)``; :meth:`frame` builds the frame from variables."""

    __slots__ = ("fn", "size", "slots")

    def __init__(self, fn: Fn, slots: dict[str, int], size: int) -> None:
        self.fn = fn
        self.slots = slots
        self.size = size

    def frame(self, activation: Mapping[str, Any]) -> list[Any]:
        frame: list[Any] = [0] * self.size
        for name, slot in self.slots.items():
            frame[slot] = activation[name] if name in activation else _Missing(name)
        return frame


class _Missing:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


def compile_checked(checked: Checked, env: Environment, *, track_cost: bool, locate: bool = False) -> CompiledProgram:
    """The closures of ``checked``; with ``locate`` every runtime error names the node that raised
    it (:class:`LocatedError`), a slower program for explaining an error already seen."""
    compiler = Compiler(checked, env, track_cost, locate)
    fn, const = compiler.compile(checked.expr)
    if const is not NOT_CONSTANT:
        value = const

        def fn(f: list[Any], value: Any = value) -> Any:
            return value

    return CompiledProgram(fn, compiler.var_slots, compiler.next_slot)


class Compiler:
    def __init__(self, checked: Checked, env: Environment, track: bool, locate: bool = False) -> None:
        self.checked = checked
        self.env = env
        self.track = track
        self.locate = locate
        self.limit = env.cost_limit if env.cost_limit is not None else 2**64
        self.var_slots: dict[str, int] = {}
        self.next_slot = 1
        self.scopes: list[dict[str, tuple[int, bool]]] = []  # name -> (slot, may hold an error)

    def slot(self) -> int:
        self.next_slot += 1
        return self.next_slot - 1

    def charge(self, fn: Fn, cost: int) -> Fn:
        """Wrap ``fn`` so that it adds ``cost`` after evaluating (cel-go observes after eval)."""
        if not self.track or cost == 0:
            return fn
        limit = self.limit

        def run(f: list[Any]) -> Any:
            value = fn(f)
            f[0] += cost
            if f[0] > limit:
                raise Cancelled
            return value

        return run

    # --- dispatch ----------------------------------------------------------------------------
    def compile(self, e: Expr) -> tuple[Fn, Any]:
        fn, value = self._compile(e)
        if self.locate and value is NOT_CONSTANT:
            fn = located(fn, e.id)
        return fn, value

    def _compile(self, e: Expr) -> tuple[Fn, Any]:
        if isinstance(e, Literal):
            value = e.value
            return const(value), value
        if isinstance(e, Ident):
            return self.ident(e)
        if isinstance(e, Select):
            return self.select(e)
        if isinstance(e, Call):
            return self.call(e)
        if isinstance(e, CreateList):
            return self.create_list(e)
        if isinstance(e, CreateMap):
            return self.create_map(e)
        if isinstance(e, Comprehension):
            return comprehension(self, e)
        assert isinstance(e, CreateStruct)
        raise FoldError("unknown type")  # pragma: no cover - the checker rejects message literals

    def value(self, e: Expr) -> Fn:
        return self.compile(e)[0]

    # --- identifiers -------------------------------------------------------------------------
    def ident(self, e: Ident) -> tuple[Fn, Any]:
        for scope in reversed(self.scopes):
            if e.name in scope:
                slot, may_fail = scope[e.name]
                if may_fail:

                    def local_checked(f: list[Any], slot: int = slot) -> Any:
                        value = f[slot]
                        if type(value) is ErrorValue:
                            raise value.error
                        return value

                    return self.charge(local_checked, 1), NOT_CONSTANT

                def local(f: list[Any], slot: int = slot) -> Any:
                    return f[slot]

                return self.charge(local, 1), NOT_CONSTANT
        kind = self.checked.idents.get(e.id)
        if kind == "type":
            t = self.checked.types[e.id]
            inner = t.params[0] if t.params else t
            value = TypeValue(inner.name)
            return const(value), value
        found = self.var_slots.get(e.name)
        slot = found if found is not None else self.var_slots.setdefault(e.name, self.slot())

        def var(f: list[Any], slot: int = slot) -> Any:
            value = f[slot]
            if type(value) is _Missing:
                raise CelRuntimeError(f"no such attribute: {value.name}")
            return value

        return self.charge(var, 1), NOT_CONSTANT

    # --- selection ---------------------------------------------------------------------------
    def select(self, e: Select) -> tuple[Fn, Any]:
        operand = self.value(e.operand)
        name = e.field
        if e.test_only:

            def has(f: list[Any]) -> bool:
                value = operand(f)
                if isinstance(value, DefaultMap):
                    return True
                if isinstance(value, Mapping):
                    return name in value
                if type(value) is Optional:
                    return value.present and isinstance(value.value, Mapping) and name in value.value
                return runtime.field_of_non_map(value, name, presence=True)

            return has, NOT_CONSTANT
        operand_type = self.checked.types.get(e.operand.id)
        optional_operand = operand_type is not None and operand_type.name == "optional_type"
        if operand_type is not None and operand_type.kind == "struct" and not self.track:
            # Object fields (the DRA device's) are always present in the value.
            variable = e.operand.name if isinstance(e.operand, Ident) else ""
            slot = self.var_slots.get(variable)
            if slot is not None and not any(variable in scope for scope in self.scopes):

                def variable_field(f: list[Any], slot: int = slot) -> Any:
                    try:
                        return f[slot][name]
                    except (KeyError, TypeError):
                        raise CelRuntimeError(f"no such key: {name}") from None

                return variable_field, NOT_CONSTANT

            def field(f: list[Any]) -> Any:
                value = operand(f)
                try:
                    return value[name]
                except (KeyError, TypeError):
                    raise CelRuntimeError(f"no such key: {name}") from None

            return field, NOT_CONSTANT

        def select(f: list[Any]) -> Any:
            value = operand(f)
            if type(value) is dict or type(value) is DefaultMap:
                if name in value:
                    return value[name]
                if type(value) is DefaultMap:
                    return value[name]
                raise CelRuntimeError(f"no such key: {name}")
            if type(value) is Optional:
                return runtime.optional_select(value, name)
            if isinstance(value, Mapping):
                found, result = runtime.find(value, name)
                if not found:
                    raise CelRuntimeError(f"no such key: {name}")
                return result
            runtime.field_of_non_map(value, name, presence=False)

        if operand_type is not None and operand_type.kind == "map" and not self.track:

            def map_field(f: list[Any]) -> Any:
                value = operand(f)
                if type(value) is dict:
                    if name in value:
                        return value[name]
                    raise CelRuntimeError(f"no such key: {name}")
                return select(f)

            return map_field, NOT_CONSTANT
        if optional_operand:

            def select_optional(f: list[Any]) -> Any:
                value = operand(f)
                if type(value) is Optional:
                    return runtime.optional_select(value, name)
                return runtime.optional_select(Optional(True, value), name)

            return self.charge(select_optional, 1), NOT_CONSTANT
        return self.charge(select, 1), NOT_CONSTANT

    # --- calls -------------------------------------------------------------------------------
    def call(self, e: Call) -> tuple[Fn, Any]:
        name = e.function
        special = SPECIAL.get(name)
        if special is not None:
            return special(self, e)
        args = ([e.target] if e.target is not None else []) + list(e.args)
        compiled = [self.compile(a) for a in args]
        if not self.track:
            fast = _fast_path(name, compiled)
            if fast is not None:
                return fast, NOT_CONSTANT
        fns = [c[0] for c in compiled]
        candidates = self.checked.overloads.get(e.id, ())
        function = self.env.functions[name]
        impl = bind(name, function.singleton, candidates, function.no_guards)
        fn = self.tracked_call(name, function.pricing, candidates, impl, fns) if self.track else direct_call(impl, fns)
        optimised = self.optimise_regex(name, candidates, compiled)
        if optimised is not None:
            fn = optimised
        if name in _CONVERSIONS and len(compiled) == 1 and compiled[0][1] is not NOT_CONSTANT:
            try:
                value = impl(compiled[0][1])
            except CelRuntimeError as error:
                raise FoldError(error.message) from None
            return const(value), value
        if not self.track and name not in _NOT_PRECOMPUTED and all(c[1] is not NOT_CONSTANT for c in compiled):
            # Every CEL function is pure, so a call on constants can be evaluated once, now. Unlike
            # cel-go's folding this stays invisible: a failing call still fails at run time, and
            # the result does not count as a constant for folding conversions.
            try:
                value = impl(*[c[1] for c in compiled])
            except (CelRuntimeError, Cancelled):
                return fn, NOT_CONSTANT
            return const(value), NOT_CONSTANT
        return fn, NOT_CONSTANT

    def tracked_call(
        self,
        name: str,
        pricing: Pricing | None,
        candidates: tuple[Overload, ...],
        impl: Callable[..., Any],
        fns: list[Fn],
    ) -> Fn:
        limit = self.limit
        overload = candidates[0] if len(candidates) == 1 else None

        def run(f: list[Any]) -> Any:
            args = [fn(f) for fn in fns]
            before = cost_before(name, pricing, overload, args)
            if before:
                f[0] += before
                if f[0] > limit:
                    raise Cancelled
            result = impl(*args)
            f[0] += call_cost(name, pricing, overload, args, result) - before
            if f[0] > limit:
                raise Cancelled
            return result

        return run

    def optimise_regex(self, name: str, candidates: tuple[Overload, ...], compiled: list[tuple[Fn, Any]]) -> Fn | None:
        """Constant patterns of matches/find/findAll compile when the program is built."""
        position = REGEX_FUNCTIONS.get(name)
        if position is None or position >= len(compiled) or self.track:
            return None
        pattern = compiled[position][1]
        if type(pattern) is not str:
            return None
        try:
            regex = compile_pattern(pattern)
        except CelRuntimeError as error:
            raise FoldError(error.message) from None
        # The compiled pattern skips the type guards, so a receiver that is not a string takes the
        # guarded call with the pattern's text, which reports it the way cel-go does.
        fast = bind(name, None, candidates, True)
        function = self.env.functions[name]
        guarded = bind(name, function.singleton, candidates, function.no_guards)
        fns = [c[0] for c in compiled]
        if len(fns) == 2:
            left, _ = fns

            def two(f: list[Any]) -> Any:
                text = left(f)
                if type(text) is not str:
                    return guarded(text, pattern)
                return fast(text, regex)

            return two
        left, _, third = fns

        def three(f: list[Any]) -> Any:
            text = left(f)
            if type(text) is not str:
                return guarded(text, pattern, third(f))
            return fast(text, regex, third(f))

        return three

    # --- aggregates --------------------------------------------------------------------------
    def create_list(self, e: CreateList) -> tuple[Fn, Any]:
        compiled = [self.compile(x) for x in e.elements]
        optional = frozenset(e.optional_indices)
        if not optional and all(c[1] is not NOT_CONSTANT for c in compiled):
            value = [c[1] for c in compiled]
            return const(value), value
        fns = [c[0] for c in compiled]
        if not optional:

            def build(f: list[Any]) -> list[Any]:
                return [fn(f) for fn in fns]

        else:
            flags = [i in optional for i in range(len(fns))]

            def build(f: list[Any]) -> list[Any]:
                out = []
                for fn, is_optional in zip(fns, flags, strict=True):
                    value = fn(f)
                    if is_optional:
                        if type(value) is not Optional:
                            runtime.no_such_overload()
                        if value.present:
                            out.append(value.value)
                    else:
                        out.append(value)
                return out

        return self.charge(build, LIST_CREATE_COST), NOT_CONSTANT

    def create_map(self, e: CreateMap) -> tuple[Fn, Any]:
        entries = [(self.compile(x.key), self.compile(x.value), x.optional) for x in e.entries]
        if all(k[1] is not NOT_CONSTANT and v[1] is not NOT_CONSTANT and not opt for k, v, opt in entries):
            try:
                value = _build_map([(k[1], v[1], False) for k, v, _ in entries])
            except CelRuntimeError as error:
                raise FoldError(error.message) from None
            return const(value), value
        fns = [(k[0], v[0], opt) for k, v, opt in entries]

        def build(f: list[Any]) -> dict[Any, Any]:
            return _build_map([(k(f), v(f), opt) for k, v, opt in fns])

        return self.charge(build, MAP_CREATE_COST), NOT_CONSTANT


def _literal_bool(e: Expr) -> bool | None:
    if isinstance(e, Literal) and e.kind == "bool":
        return bool(e.value)
    return None


def _build_map(entries: list[tuple[Any, Any, bool]]) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for key, value, optional in entries:
        if type(key) not in (str, int, UInt, bool):
            raise CelRuntimeError(f"unsupported key type: {runtime.type_name(key)}")
        if optional:
            if type(value) is not Optional:
                runtime.no_such_overload()
            if not value.present:
                continue
            value = value.value
        if runtime.find(out, key)[0]:
            raise CelRuntimeError(f"Failed with repeated key: {runtime.format_key(key)}")
        out[key] = value
    return out


_ORDER_TESTS: dict[str, Callable[[Any, Any], bool]] = {
    "_<_": lambda a, b: a < b,
    "_<=_": lambda a, b: a <= b,
    "_>_": lambda a, b: a > b,
    "_>=_": lambda a, b: a >= b,
}


def _fast_path(name: str, compiled: list[tuple[Fn, Any]]) -> Fn | None:
    """Specialised closures for the shapes selectors are made of (same results, fewer calls)."""
    if len(compiled) != 2:
        return None
    left, right_const = compiled[0][0], compiled[1][1]
    if name == "_[_]" and type(right_const) is str:
        key = right_const

        def index_str(f: list[Any]) -> Any:
            container = left(f)
            if type(container) is dict:
                if key in container:
                    return container[key]
                raise CelRuntimeError(f"no such key: {key}")
            if type(container) is DefaultMap:
                return container[key]
            return runtime.index(container, key)

        return index_str
    if name in ("_==_", "_!=_") and right_const is not NOT_CONSTANT and type(right_const) in (str, int, bool):
        constant = right_const
        kind = type(constant)
        negate = name == "_!=_"
        slow = runtime.not_equal if negate else runtime.equal

        def equals_constant(f: list[Any]) -> bool:
            value = left(f)
            if type(value) is kind:
                return bool(value != constant) if negate else bool(value == constant)
            return slow(value, constant)

        return equals_constant
    if name in _ORDER_TESTS and type(right_const) is int:
        test = _ORDER_TESTS[name]
        bound = right_const
        generic = runtime.compare

        def order_constant(f: list[Any]) -> bool:
            value = left(f)
            if type(value) is int:
                return test(value, bound)
            return test(generic(value, bound, name), 0)

        return order_constant
    return None
