"""Compile a checked CEL AST into nested Python closures with cel-go's evaluation semantics.

A closure takes the *frame* (a list: slot 0 is the running cost, then one slot per variable and
per comprehension variable) and returns a value or raises :class:`CelRuntimeError`. ``&&``, ``||``
and ``?:`` absorb errors the way cel-go does; comprehension accumulators hold errors as values.
Like cel-go's planner with ``OptOptimize``, literal lists and maps and type conversions of
constants are folded when the program is built (a failing fold is a compile error), and regular
expressions with constant patterns are compiled up front. With ``track_cost`` every node also
adds its runtime cost (cel-go's cost tracker) and evaluation stops past the limit.

Longer than 500 lines on purpose: one closure builder per AST node kind and per operator with
its own evaluation rule, plus the specialised closures of the hot selector shapes; they share
the frame layout, the scopes and the cost accounting of one compilation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dralint.cel import runtime
from dralint.cel.checker import Checked
from dralint.cel.cost_factors import LIST_CREATE_COST, MAP_CREATE_COST
from dralint.cel.costs import call_cost
from dralint.cel.decls import Environment, Overload
from dralint.cel.errors import CelRuntimeError
from dralint.cel.nodes import (
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
from dralint.cel.types import Type
from dralint.cel.values import NONE, DefaultMap, Optional, TypeValue, UInt

__all__ = ["Cancelled", "CompiledProgram", "FoldError", "compile_checked", "runtime_type_matches"]

Fn = Callable[[list[Any]], Any]
_NO = object()  # "not a constant"

# Functions whose calls on constant arguments cel-go evaluates when the program is built.
_CONVERSIONS = frozenset(("bool", "bytes", "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint"))
# Calls not worth evaluating at compile time (their results can be arbitrarily large).
_NOT_PRECOMPUTED = frozenset(("lists.range", "optional.none", "optional.of"))


class Cancelled(Exception):
    """The runtime cost limit was exceeded; never absorbed by ``&&``, ``||`` or comprehensions."""


class FoldError(Exception):
    """Folding a constant failed: cel-go reports it as ``program instantiation failed``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _ErrorValue:
    """An error held as a value in a comprehension accumulator or a ``cel.bind`` variable."""

    __slots__ = ("error",)

    def __init__(self, error: CelRuntimeError) -> None:
        self.error = error


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


def compile_checked(checked: Checked, env: Environment, *, track_cost: bool) -> CompiledProgram:
    compiler = _Compiler(checked, env, track_cost)
    fn, const = compiler.compile(checked.expr)
    if const is not _NO:
        value = const

        def fn(f: list[Any], value: Any = value) -> Any:
            return value

    return CompiledProgram(fn, compiler.var_slots, compiler.next_slot)


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
    vt = type(value)
    if kind == "int":
        return vt is int
    if kind == "string":
        return vt is str
    if kind == "bool":
        return vt is bool
    if kind == "uint":
        return vt is UInt
    if kind == "double":
        return vt is float
    if kind == "bytes":
        return vt is bytes
    if kind == "null":
        return value is None
    if kind == "list":
        return vt is list or vt is tuple
    if kind == "map":
        return isinstance(value, Mapping)
    if kind == "type":
        return vt is TypeValue
    return runtime.type_name(value) == t.name


class _Compiler:
    def __init__(self, checked: Checked, env: Environment, track: bool) -> None:
        self.checked = checked
        self.env = env
        self.track = track
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
        if isinstance(e, Literal):
            value = e.value
            return _const(value), value
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
            return self.comprehension(e)
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
                        if type(value) is _ErrorValue:
                            raise value.error
                        return value

                    return self.charge(local_checked, 1), _NO

                def local(f: list[Any], slot: int = slot) -> Any:
                    return f[slot]

                return self.charge(local, 1), _NO
        kind = self.checked.idents.get(e.id)
        if kind == "type":
            t = self.checked.types[e.id]
            inner = t.params[0] if t.params else t
            value = TypeValue(inner.name)
            return _const(value), value
        found = self.var_slots.get(e.name)
        slot = found if found is not None else self.var_slots.setdefault(e.name, self.slot())

        def var(f: list[Any], slot: int = slot) -> Any:
            value = f[slot]
            if type(value) is _Missing:
                raise CelRuntimeError(f"no such attribute: {value.name}")
            return value

        return self.charge(var, 1), _NO

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
                return runtime.qualify_other(value, name, presence=True)

            return has, _NO
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

                return variable_field, _NO

            def field(f: list[Any]) -> Any:
                value = operand(f)
                try:
                    return value[name]
                except (KeyError, TypeError):
                    raise CelRuntimeError(f"no such key: {name}") from None

            return field, _NO

        def select(f: list[Any]) -> Any:
            value = operand(f)
            if type(value) is dict or type(value) is DefaultMap:
                if name in value:
                    return value[name]
                if type(value) is DefaultMap:
                    return value[name]
                raise CelRuntimeError(f"no such key: {name}")
            if type(value) is Optional:
                return _optional_select(value, name)
            if isinstance(value, Mapping):
                found, result = runtime.find(value, name)
                if not found:
                    raise CelRuntimeError(f"no such key: {name}")
                return result
            runtime.qualify_other(value, name, presence=False)

        if operand_type is not None and operand_type.kind == "map" and not self.track:

            def map_field(f: list[Any]) -> Any:
                value = operand(f)
                if type(value) is dict:
                    if name in value:
                        return value[name]
                    raise CelRuntimeError(f"no such key: {name}")
                return select(f)

            return map_field, _NO
        if optional_operand:

            def select_optional(f: list[Any]) -> Any:
                value = operand(f)
                if type(value) is Optional:
                    return _optional_select(value, name)
                return _optional_select(Optional(True, value), name)

            return self.charge(select_optional, 1), _NO
        return self.charge(select, 1), _NO

    # --- calls -------------------------------------------------------------------------------
    def call(self, e: Call) -> tuple[Fn, Any]:
        name = e.function
        special = _SPECIAL.get(name)
        if special is not None:
            return special(self, e)
        args = ([e.target] if e.target is not None else []) + list(e.args)
        compiled = [self.compile(a) for a in args]
        if not self.track:
            fast = _fast_path(name, compiled)
            if fast is not None:
                return fast, _NO
        fns = [c[0] for c in compiled]
        candidates = self.checked.overloads.get(e.id, ())
        function = self.env.functions[name]
        impl = _bind(name, function.singleton, candidates, function.no_guards)
        fn = self.tracked_call(name, candidates, impl, fns) if self.track else _direct_call(impl, fns)
        optimised = self.optimise_regex(name, candidates, compiled)
        if optimised is not None:
            fn = optimised
        if name in _CONVERSIONS and len(compiled) == 1 and compiled[0][1] is not _NO:
            try:
                value = impl(compiled[0][1])
            except CelRuntimeError as error:
                raise FoldError(error.message) from None
            return _const(value), value
        if not self.track and name not in _NOT_PRECOMPUTED and all(c[1] is not _NO for c in compiled):
            # Every CEL function is pure, so a call on constants can be evaluated once, now. Unlike
            # cel-go's folding this stays invisible: a failing call still fails at run time, and
            # the result does not count as a constant for folding conversions.
            try:
                value = impl(*[c[1] for c in compiled])
            except CelRuntimeError:
                return fn, _NO
            return _const(value), _NO
        return fn, _NO

    def tracked_call(self, name: str, candidates: tuple[Overload, ...], impl: Callable[..., Any], fns: list[Fn]) -> Fn:
        limit = self.limit
        overload = candidates[0] if len(candidates) == 1 else None

        def run(f: list[Any]) -> Any:
            args = [fn(f) for fn in fns]
            result = impl(*args)
            f[0] += call_cost(name, overload, args, result)
            if f[0] > limit:
                raise Cancelled
            return result

        return run

    def optimise_regex(self, name: str, candidates: tuple[Overload, ...], compiled: list[tuple[Fn, Any]]) -> Fn | None:
        """Constant patterns of matches/find/findAll compile when the program is built."""
        from dralint.cel.lib_strings import REGEX_FUNCTIONS, compile_pattern

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
        fast = _bind(name, None, candidates, True)
        function = self.env.functions[name]
        guarded = _bind(name, function.singleton, candidates, function.no_guards)
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
        if not optional and all(c[1] is not _NO for c in compiled):
            value = [c[1] for c in compiled]
            return _const(value), value
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

        return self.charge(build, LIST_CREATE_COST), _NO

    def create_map(self, e: CreateMap) -> tuple[Fn, Any]:
        entries = [(self.compile(x.key), self.compile(x.value), x.optional) for x in e.entries]
        if all(k[1] is not _NO and v[1] is not _NO and not opt for k, v, opt in entries):
            try:
                value = _build_map([(k[1], v[1], False) for k, v, _ in entries])
            except CelRuntimeError as error:
                raise FoldError(error.message) from None
            return _const(value), value
        fns = [(k[0], v[0], opt) for k, v, opt in entries]

        def build(f: list[Any]) -> dict[Any, Any]:
            return _build_map([(k(f), v(f), opt) for k, v, opt in fns])

        return self.charge(build, MAP_CREATE_COST), _NO

    # --- comprehensions ----------------------------------------------------------------------
    def comprehension(self, e: Comprehension) -> tuple[Fn, Any]:
        iter_range = self.value(e.iter_range)
        accu_slot = self.slot()
        init_fn, init_const = self.compile(e.accu_init)
        self.scopes.append({e.accu_var: (accu_slot, True)})
        var_slot = self.slot()
        scope = {e.iter_var: (var_slot, False)}
        var2_slot = 0
        if e.iter_var2 is not None:
            var2_slot = self.slot()
            scope[e.iter_var2] = (var2_slot, False)
        self.scopes.append(scope)
        condition_const = _literal_bool(e.loop_condition)
        condition = self.value(e.loop_condition)
        builder = self.builder_step(e)
        step = self.value(e.loop_step) if builder is None else None
        self.scopes.pop()
        result = self.value(e.result)
        self.scopes.pop()
        two_var = e.iter_var2 is not None
        fresh = builder is not None

        def run(f: list[Any]) -> Any:
            collection = iter_range(f)
            if fresh:
                f[accu_slot] = [] if isinstance(e.accu_init, CreateList) else {}
            elif init_const is not _NO:
                f[accu_slot] = init_const
            else:
                try:
                    f[accu_slot] = init_fn(f)
                except CelRuntimeError as error:
                    f[accu_slot] = _ErrorValue(error)
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
                    f[accu_slot] = _ErrorValue(error)
            return result(f)

        return run, _NO

    def builder_step(self, e: Comprehension) -> Callable[[list[Any], Any], None] | None:
        """In-place steps for map/filter/transform* (cel-go also builds these results mutably).

        Recognises ``@result + [x]`` and ``cel.@mapInsert(@result, ...)``, optionally under
        ``p ? ... : @result``, on a fresh empty accumulator; the first error is final (the
        accumulator could never absorb it) so it is raised at once.
        """
        init = e.accu_init
        if not (
            (isinstance(init, CreateList) and not init.elements) or (isinstance(init, CreateMap) and not init.entries)
        ):
            return None
        step = e.loop_step
        predicate: Fn | None = None
        if isinstance(step, Call) and step.function == "_?_:_":
            condition, taken, other = step.args
            if not (isinstance(other, Ident) and other.name == e.accu_var):
                return None
            predicate = self.value(condition)
            step = taken
        if not isinstance(step, Call) or not step.args:
            return None
        accu = step.args[0]
        if not (isinstance(accu, Ident) and accu.name == e.accu_var):
            return None
        limit = self.limit
        track = self.track
        if step.function == "_+_" and isinstance(step.args[1], CreateList) and len(step.args[1].elements) == 1:
            if step.args[1].optional_indices:
                return None
            element, element_const = self.compile(step.args[1].elements[0])
            # cel-go folds a constant [x] into a constant list: no list-creation cost then.
            append_cost = 2 if element_const is not _NO else 12

            def append(f: list[Any], accumulator: Any) -> None:
                if predicate is not None:
                    keep = predicate(f)
                    if keep is False:
                        if track:
                            _add_cost(f, 1, limit)
                        return
                    if keep is not True:
                        runtime.no_such_overload()
                accumulator.append(element(f))
                if track:
                    _add_cost(f, append_cost, limit)

            return append
        if step.function == "cel.@mapInsert" and len(step.args) in (2, 3):
            parts = [self.value(a) for a in step.args[1:]]

            def insert(f: list[Any], accumulator: Any) -> None:
                if predicate is not None:
                    keep = predicate(f)
                    if keep is False:
                        return
                    if keep is not True:
                        runtime.no_such_overload()
                values = [p(f) for p in parts]
                pairs = [(values[0], values[1])] if len(values) == 2 else list(values[0].items())
                for key, value in pairs:
                    if runtime.find(accumulator, key)[0]:
                        raise CelRuntimeError(f"insert failed: key {runtime.format_key(key)} already exists")
                    accumulator[key] = value
                if track:
                    _add_cost(f, 2, limit)

            return insert
        return None


def _add_cost(f: list[Any], cost: int, limit: int) -> None:
    f[0] += cost
    if f[0] > limit:
        raise Cancelled


def _literal_bool(e: Expr) -> bool | None:
    if isinstance(e, Literal) and e.kind == "bool":
        return bool(e.value)
    return None


def _const(value: Any) -> Fn:
    def const(f: list[Any]) -> Any:
        return value

    return const


def _optional_select(value: Optional, name: str) -> Optional:
    if not value.present:
        return NONE
    inner = value.value
    if isinstance(inner, DefaultMap):
        return Optional(True, inner[name])
    if isinstance(inner, Mapping):
        found, result = runtime.find(inner, name)
        return Optional(True, result) if found else NONE
    runtime.qualify_other(inner, name, presence=True)
    return NONE


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
    if name in ("_==_", "_!=_") and right_const is not _NO and type(right_const) in (str, int, bool):
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


def _direct_call(impl: Callable[..., Any], fns: list[Fn]) -> Fn:
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


def _bind(
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


# --- operators with their own evaluation rules --------------------------------------------------


def _logic(compiler: _Compiler, e: Call) -> tuple[Fn, Any]:
    left = compiler.value(e.args[0])
    right = compiler.value(e.args[1])
    absorbing = e.function == "_||_"  # true absorbs for ||, false for &&
    other = not absorbing

    def run(f: list[Any]) -> Any:
        error: CelRuntimeError | None = None
        try:
            value = left(f)
        except CelRuntimeError as left_error:
            error = left_error
        else:
            if value is absorbing:
                return absorbing
            if value is not other:
                error = CelRuntimeError("no such overload")
        try:
            value = right(f)
        except CelRuntimeError as right_error:
            raise (error or right_error) from None
        if value is absorbing:
            return absorbing
        if error is not None:
            raise error
        if value is not other:
            runtime.no_such_overload()
        return other

    return run, _NO


def _conditional(compiler: _Compiler, e: Call) -> tuple[Fn, Any]:
    condition = compiler.value(e.args[0])
    truthy = compiler.value(e.args[1])
    falsy = compiler.value(e.args[2])

    def run(f: list[Any]) -> Any:
        value = condition(f)
        if value is True:
            return truthy(f)
        if value is False:
            return falsy(f)
        runtime.no_such_overload()

    return run, _NO


def _not_strictly_false(compiler: _Compiler, e: Call) -> tuple[Fn, Any]:
    operand = compiler.value(e.args[0])

    def run(f: list[Any]) -> bool:
        try:
            return operand(f) is not False
        except CelRuntimeError:
            return True

    return compiler.charge(run, 1), _NO


def _optional_field(compiler: _Compiler, e: Call) -> tuple[Fn, Any]:
    operand = compiler.value(e.args[0])
    literal = e.args[1]
    assert isinstance(literal, Literal)
    name = str(literal.value)

    def run(f: list[Any]) -> Optional:
        value = operand(f)
        if type(value) is Optional:
            return _optional_select(value, name)
        return _optional_select(Optional(True, value), name)

    return compiler.charge(run, 1), _NO


def _optional_index(compiler: _Compiler, e: Call) -> tuple[Fn, Any]:
    operand = compiler.value(e.args[0])
    key_fn = compiler.value(e.args[1])

    def run(f: list[Any]) -> Optional:
        value = operand(f)
        return runtime.optional_index(value, key_fn(f))

    return compiler.charge(run, 1), _NO


def _map_insert(compiler: _Compiler, e: Call) -> tuple[Fn, Any]:
    fns = [compiler.value(a) for a in e.args]

    def run(f: list[Any]) -> dict[Any, Any]:
        values = [fn(f) for fn in fns]
        target = dict(values[0])
        pairs = [(values[1], values[2])] if len(values) == 3 else list(values[1].items())
        for key, value in pairs:
            if runtime.find(target, key)[0]:
                raise CelRuntimeError(f"insert failed: key {runtime.format_key(key)} already exists")
            target[key] = value
        return target

    return compiler.charge(run, 1), _NO


_SPECIAL: dict[str, Callable[[_Compiler, Call], tuple[Fn, Any]]] = {
    "_&&_": _logic,
    "_||_": _logic,
    "_?_:_": _conditional,
    "@not_strictly_false": _not_strictly_false,
    "_?._": _optional_field,
    "_[?_]": _optional_index,
    "cel.@mapInsert": _map_insert,
}
