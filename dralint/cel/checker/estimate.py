"""Static worst-case cost of a checked expression: cel-go's ``checker/cost.go`` with Kubernetes' rules.

A port of cel-go's coster (costs and result sizes per node, sizes of comprehension ranges from
the environment's size hints) with the call estimates of Kubernetes' ``library.CostEstimator``,
the lists extension and DRA's ``includes``. Sizes and costs are (min, max) pairs that saturate
at 2^64-1, like cel-go's. The API server rejects expressions whose maximum exceeds the limit.
"""

from __future__ import annotations

import math

from dralint.cel.checker.check import Checked
from dralint.cel.checker.decls import Environment
from dralint.cel.checker.types import Type
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
from dralint.cel.pricing import (
    COMPARE_BY_SIZE_OVERLOADS,
    LIST_CREATE_COST,
    MAP_CREATE_COST,
    REGEX_FACTOR,
    STRING_FACTOR,
    STRUCT_CREATE_COST,
    Pricing,
)

__all__ = ["estimate"]

MAX = 2**64 - 1
Range = tuple[int, int]
UNKNOWN: Range = (0, MAX)
_SCALARS = frozenset(("bool", "double", "duration", "int", "timestamp", "uint"))


def _add(a: Range, b: Range) -> Range:
    return (min(a[0] + b[0], MAX), min(a[1] + b[1], MAX))


def _mul(a: Range, b: Range) -> Range:
    return (min(a[0] * b[0], MAX), min(a[1] * b[1], MAX))


def _factor(a: Range, factor: float) -> Range:
    def one(x: int) -> int:
        if x == MAX:
            return MAX
        value = math.ceil(x * factor)
        return MAX if value >= MAX else value

    return (one(a[0]), one(a[1]))


def _union(a: Range, b: Range) -> Range:
    return (min(a[0], b[0]), max(a[1], b[1]))


def _fixed(n: int) -> Range:
    return (n, n)


def estimate(checked: Checked, env: Environment) -> int:
    """The maximum of the estimated cost range."""
    return _Coster(checked, env).cost(checked.expr)[1]


class _Coster:
    def __init__(self, checked: Checked, env: Environment) -> None:
        self.checked = checked
        self.env = env
        self.paths: dict[int, list[str]] = {}
        self.sizes: dict[int, Range] = {}
        self.entry_sizes: dict[int, tuple[str, Range, Range]] = {}  # kind, key size, value size
        self.locals: list[tuple[str, list[str], Range | None, tuple[str, Range, Range] | None]] = []

    # --- bookkeeping -------------------------------------------------------------------------
    def type(self, e: Expr) -> Type | None:
        return self.checked.types.get(e.id)

    def local(self, name: str) -> tuple[str, list[str], Range | None, tuple[str, Range, Range] | None] | None:
        for entry in reversed(self.locals):
            if entry[0] == name:
                return entry
        return None

    def path(self, e: Expr) -> list[str]:
        if isinstance(e, Ident):
            found = self.local(e.name)
            if found is not None:
                return list(found[1])
        return list(self.paths.get(e.id, []))

    def size(self, e: Expr) -> Range | None:
        if e.id in self.sizes:
            return self.sizes[e.id]
        literal = _literal_size(e)
        if literal is not None:
            return literal
        path = self.path(e)
        if path and path[0] not in ("@result", "__result__") and self.env.sizes is not None:
            found = self.env.sizes(tuple(path))
            if found is not None:
                self.sizes[e.id] = (0, found)
                return self.sizes[e.id]
        t = self.type(e)
        if t is not None and _is_scalar(t):
            return _fixed(1)
        if isinstance(e, Ident):
            local = self.local(e.name)
            if local is not None and local[2] is not None:
                return local[2]
        return None

    def size_or_unknown(self, e: Expr) -> Range:
        found = self.size(e)
        return found if found is not None else UNKNOWN

    def entry_size(self, e: Expr) -> tuple[str, Range, Range] | None:
        if e.id in self.entry_sizes:
            return self.entry_sizes[e.id]
        if isinstance(e, Ident):
            local = self.local(e.name)
            if local is not None:
                return local[3]
        return None

    # --- nodes -------------------------------------------------------------------------------
    def cost(self, e: Expr) -> Range:
        if isinstance(e, Literal):
            return (0, 0)
        if isinstance(e, Ident):
            local = self.local(e.name)
            self.paths[e.id] = list(local[1]) if local is not None else [e.name]
            return (1, 1)
        if isinstance(e, Select):
            operand_cost = self.cost(e.operand)
            if e.test_only:
                return operand_cost  # Kubernetes: presence tests cost nothing
            t = self.type(e.operand)
            if t is not None and t.kind in ("map", "struct", "param"):
                operand_cost = _add(operand_cost, (1, 1))
            self.paths[e.id] = [*self.path(e.operand), e.field]
            return operand_cost
        if isinstance(e, Call):
            return self.call(e)
        if isinstance(e, CreateList):
            total: Range = (0, 0)
            item: Range = (0 if not e.elements else MAX, 0)
            for element in e.elements:
                total = _add(total, self.cost(element))
                item = _union(item, self.size_or_unknown(element))
            self.entry_sizes[e.id] = ("list", (1, 1), item)
            return _add(total, _fixed(LIST_CREATE_COST))
        if isinstance(e, CreateMap):
            total = (0, 0)
            key: Range = (0 if not e.entries else MAX, 0)
            value: Range = key
            for entry in e.entries:
                total = _add(total, _add(self.cost(entry.key), self.cost(entry.value)))
                key = _union(key, self.size_or_unknown(entry.key))
                value = _union(value, self.size_or_unknown(entry.value))
            self.entry_sizes[e.id] = ("map", key, value)
            return _add(total, _fixed(MAP_CREATE_COST))
        if isinstance(e, CreateStruct):
            total = (0, 0)
            for _, _, value_expr, _ in e.fields:
                total = _add(total, self.cost(value_expr))
            return _add(total, _fixed(STRUCT_CREATE_COST))
        assert isinstance(e, Comprehension)
        return self.comprehension(e)

    def comprehension(self, e: Comprehension) -> Range:
        is_bind = (
            isinstance(e.iter_range, CreateList)
            and not e.iter_range.elements
            and isinstance(e.loop_condition, Literal)
            and e.loop_condition.value is False
            and e.accu_var not in ("@result", "__result__")
        )
        total = _add(self.cost(e.iter_range), self.cost(e.accu_init))
        self.locals.append((e.accu_var, self.path(e.accu_init), self.size(e.accu_init), self.entry_size(e.accu_init)))
        if is_bind:
            total = _add(total, self.cost(e.result))
            self.locals.pop()
            result_size = self.size(e.result)
            if result_size is not None:
                self.sizes[e.id] = result_size
            return total
        pushed = self.push_iteration(e)
        loop = self.cost(e.loop_condition)
        step = self.cost(e.loop_step)
        del self.locals[-pushed:]
        total = _add(total, self.cost(e.result))
        self.locals.pop()
        count = self.size_or_unknown(e.iter_range)
        total = _add(total, _mul(count, _add(step, loop)))
        if isinstance(e.accu_init, Literal):
            found = self.size(e.accu_init)
            if found is not None:
                self.sizes[e.id] = found
        elif isinstance(e.accu_init, (CreateList, CreateMap)):
            self.sizes[e.id] = count
        return total

    def push_iteration(self, e: Comprehension) -> int:
        entry = self.entry_size(e.iter_range)
        path = self.path(e.iter_range)
        t = self.type(e.iter_range)
        kind = entry[0] if entry is not None else (t.kind if t is not None else "dyn")
        key_size = entry[1] if entry is not None else None
        value_size = entry[2] if entry is not None else None
        if e.iter_var2 is not None:
            self.locals.append((e.iter_var, [*path, "@indices" if kind == "list" else "@keys"], key_size, None))
            self.locals.append((e.iter_var2, [*path, "@items" if kind == "list" else "@values"], value_size, None))
            return 2
        if kind == "list":
            self.locals.append((e.iter_var, [*path, "@items"], value_size, None))
        else:
            self.locals.append((e.iter_var, [*path, "@keys"], key_size, None))
        return 1

    def call(self, e: Call) -> Range:
        if e.function == "dyn" and e.target is None and len(e.args) == 1:
            dyn_cost = _add((1, 1), self.cost(e.args[0]))
            found = self.size(e.args[0])
            if found is not None:
                self.sizes[e.id] = found
            entry = self.entry_size(e.args[0])
            if entry is not None:
                self.entry_sizes[e.id] = entry
            return dyn_cost
        arg_costs = [self.cost(a) for a in e.args]
        total: Range = (0, 0)
        if e.target is not None:
            total = self.cost(e.target)
        overloads = self.checked.overloads.get(e.id, ())
        if not overloads:
            return (0, 0)
        cost: Range = (MAX, 0)
        result_size: Range | None = None
        for overload in overloads:
            call_cost, size = self.function_cost(e, overload.id, arg_costs)
            cost = _union(cost, call_cost)
            if size is not None:
                result_size = size if result_size is None else _union(result_size, size)
            if overload.id in ("index_list", "index_map") and e.args:
                entry = self.entry_size(e.args[0])
                result_size = entry[2] if entry is not None else None
                self.paths[e.id] = [*self.path(e.args[0]), "@items" if overload.id == "index_list" else "@values"]
        if result_size is not None:
            self.sizes[e.id] = result_size
        return _add(total, cost)

    def function_cost(self, e: Call, overload_id: str, arg_costs: list[Range]) -> tuple[Range, Range | None]:
        args_sum: Range = (0, 0)
        for c in arg_costs:
            args_sum = _add(args_sum, c)
        target, args = e.target, e.args
        function = e.function
        library = self.library_cost(function, overload_id, target, args)
        if library is not None:
            return _add(library[0], args_sum), library[1]
        if overload_id == "string_format" and target is not None:
            return _add(_factor(self.size_or_unknown(target), STRING_FACTOR), args_sum), None
        if overload_id in ("string_to_bytes", "bytes_to_string", "strings_quote") and len(args) == 1:
            size = self.size_or_unknown(args[0])
            if overload_id == "string_to_bytes":
                result: Range = (size[0], min(size[1] * 4, MAX))
            elif overload_id == "bytes_to_string":
                result = (size[0] // 4, size[1])
            else:
                result = (size[0] + 2, min(size[1] * 2 + 2, MAX))
            return _add(_factor(size, STRING_FACTOR), args_sum), result
        if overload_id in ("starts_with_string", "ends_with_string") and len(args) == 1:
            return _add(_factor(self.size_or_unknown(args[0]), STRING_FACTOR), args_sum), None
        if overload_id == "in_list" and len(args) == 2:
            return _add(self.size_or_unknown(args[1]), args_sum), None
        if overload_id == "matches_string" and target is not None and len(args) == 1:
            text = _factor(_add(self.size_or_unknown(target), (1, 1)), STRING_FACTOR)
            regex = _factor(self.size_or_unknown(args[0]), REGEX_FACTOR)
            return _add(_mul(text, regex), args_sum), None
        if overload_id == "contains_string" and target is not None and len(args) == 1:
            text = _factor(self.size_or_unknown(target), STRING_FACTOR)
            sub = _factor(self.size_or_unknown(args[0]), STRING_FACTOR)
            return _add(_mul(text, sub), args_sum), None
        if overload_id in ("logical_or", "logical_and"):
            left, right = arg_costs
            return (left[0], _add(left, right)[1]), None
        if overload_id == "conditional":
            size = _union(self.size_or_unknown(args[1]), self.size_or_unknown(args[2]))
            return _add(arg_costs[0], _union(arg_costs[1], arg_costs[2])), size
        if overload_id in ("add_string", "add_bytes", "add_list") and len(args) == 2:
            size = _add(self.size_or_unknown(args[0]), self.size_or_unknown(args[1]))
            if overload_id == "add_list":
                return _add((1, 1), args_sum), size
            return _add(_factor(size, STRING_FACTOR), args_sum), size
        if overload_id in COMPARE_BY_SIZE_OVERLOADS:
            left = self.size_or_unknown(args[0])
            right = self.size_or_unknown(args[1])
            smallest = min(left[1], right[1])
            return _add(_factor((1 if smallest > 0 else 0, smallest), STRING_FACTOR), args_sum), None
        return _add((1, 1), args_sum), None

    def library_cost(
        self, function: str, overload_id: str, target: Expr | None, args: tuple[Expr, ...]
    ) -> tuple[Range, Range | None] | None:
        """Kubernetes' ``EstimateCallCost``, the lists extension's estimators and DRA's ``includes``, by the
        function's declared :class:`Pricing`; ``None`` leaves the call to cel-go's core prices."""
        declared = self.env.functions.get(function)
        pricing = declared.pricing if declared is not None else None
        if pricing is None:
            if function == "_==_" and len(args) == 2:
                left, right = self.type(args[0]), self.type(args[1])
                if left is not None and left == right and left.name in _UNIT_EQUALITY:
                    return (1, 1), None
            return None
        if pricing in _RECEIVER_PRICED:
            return self.receiver_cost(pricing, function, overload_id, target, args) if target is not None else None
        match pricing:
            case Pricing.UNIT:
                return (1, 1), None
            case Pricing.LIST_RANGE:
                count = _int_literal(args[0]) if args else None
                size = _fixed(count) if count is not None else (MAX, MAX)
                return _add(_add(size, (1, 1)), _fixed(LIST_CREATE_COST)), size
            case Pricing.URL if len(args) == 1:
                size = self.size_or_unknown(args[0])
                return _factor(size, STRING_FACTOR), size
            case Pricing.PARSE if args:
                return _factor(self.size_or_unknown(args[0]), STRING_FACTOR), None
            case Pricing.IP:
                if overload_id == "cidr_ip":
                    return (1, 1), None
                if args:
                    return _factor(self.size_or_unknown(args[0]), STRING_FACTOR), None
            case Pricing.IP_CANONICAL if args:
                return _factor(self.size_or_unknown(args[0]), 2 * STRING_FACTOR), None
            case Pricing.CONTAINS_IP if args:
                cost = _factor((8, 32), STRING_FACTOR)
                if overload_id == "cidr_contains_ip_string":
                    cost = _add(cost, _factor(self.size_or_unknown(args[0]), STRING_FACTOR))
                return cost, None
            case Pricing.CONTAINS_CIDR if args:
                cost = _add(_add(_factor((8, 32), STRING_FACTOR), _factor((4, 16), STRING_FACTOR)), (1, 1))
                if overload_id == "cidr_contains_cidr_string":
                    cost = _add(cost, _factor(self.size_or_unknown(args[0]), STRING_FACTOR))
                return cost, None
            case Pricing.VALIDATE if args:
                return _factor(_factor(self.size_or_unknown(args[0]), STRING_FACTOR), 1103 * REGEX_FACTOR), None
        return None

    def receiver_cost(
        self, pricing: Pricing, function: str, overload_id: str, target: Expr, args: tuple[Expr, ...]
    ) -> tuple[Range, Range | None] | None:
        """The classes priced by their receiver ``target``."""
        match pricing:
            case Pricing.DRA_INCLUDES:
                return (0, 48), None
            case Pricing.TRAVERSAL:
                return self.traversal(function, target)
            case Pricing.LIST_SLICE | Pricing.LIST_REVERSE:
                size = self.size_or_unknown(target)
                if pricing is Pricing.LIST_SLICE:
                    start = _int_literal(args[0]) or 0
                    end = _int_literal(args[1])
                    size = _fixed(max((end if end is not None else size[1]) - start, 0))
                return _add(_add(size, (1, 1)), _fixed(LIST_CREATE_COST)), size
            case Pricing.LIST_FLATTEN:
                depth = 1 if not args else (_int_literal(args[0]) or MAX)
                size = self.size_or_unknown(target)
                return _add(_add(_factor(size, float(depth)), (1, 1)), _fixed(LIST_CREATE_COST)), size
            case Pricing.LIST_SORT | Pricing.LIST_SORT_BY_KEYS:
                # sortBy's cost is the self-comparison of its keys list (the argument).
                compared = args[0] if pricing is Pricing.LIST_SORT_BY_KEYS and args else target
                size = self.size_or_unknown(compared)
                factor = 2.0
                if overload_id.startswith(("list_string_", "list_bytes_")):
                    factor += STRING_FACTOR
                # cel-go's estimateAllocatingListCall reports the squared size as the result's size too.
                squared = _mul(size, size)
                return _add(_add(_factor(squared, factor), (1, 1)), _fixed(LIST_CREATE_COST)), squared
            case Pricing.RECEIVER_STRING:
                size = self.size_or_unknown(target)
                return _factor(size, STRING_FACTOR), size
            case Pricing.REPLACE:
                return _factor(self.size_or_unknown(target), 2 * STRING_FACTOR), None
            case Pricing.SPLIT:
                size = self.size_or_unknown(target)
                limit = _int_literal(args[1]) if len(args) > 1 else None
                return _factor(size, 2 * STRING_FACTOR), (0, limit if limit is not None else size[1])
            case Pricing.JOIN:
                return self.join(target, args)
            case Pricing.FIND if args:
                size = self.size_or_unknown(target)
                text = _factor(_add(size, (1, 1)), STRING_FACTOR)
                return _mul(text, _factor(self.size_or_unknown(args[0]), REGEX_FACTOR)), (0, size[1])
        return None

    def traversal(self, function: str, target: Expr) -> tuple[Range, Range | None]:
        """A function that traverses its receiver once: each element, plus the bytes of string elements."""
        size = self.size_or_unknown(target)
        element_cost: Range = (1, 1)
        t = self.type(target)
        if t is not None and t.kind == "list" and t.params and t.params[0].kind in ("string", "bytes"):
            element_size = self.env.sizes((*self.path(target), "@items")) if self.env.sizes else None
            element_cost = _add(
                element_cost, _factor((0, element_size if element_size is not None else MAX), STRING_FACTOR)
            )
            return _mul(size, element_cost), None
        if (t is not None and t.kind == "list") or function == "includes":
            return _mul(size, element_cost), None
        return _factor(size, STRING_FACTOR), None

    def join(self, target: Expr, args: tuple[Expr, ...]) -> tuple[Range, Range | None]:
        """``join``: every element's size, plus the separators between them."""
        size = self.size_or_unknown(target)
        element_max = self.env.sizes((*self.path(target), "@items")) if self.env.sizes else None
        entry = self.entry_size(target)
        item_size: Range = entry[2] if entry is not None else ((0, element_max) if element_max is not None else UNKNOWN)
        total = _mul(size, item_size)
        if args:
            separators = (max(size[0] - 1, 0), max(size[1] - 1, 0) if size[1] != MAX else MAX)
            total = _add(total, _mul(self.size_or_unknown(args[0]), separators))
        return _factor(total, STRING_FACTOR), total


# The classes priced by their receiver (:meth:`_Coster.receiver_cost`): a call written without one
# is left to cel-go's core prices.
_RECEIVER_PRICED = frozenset(
    {
        Pricing.TRAVERSAL,
        Pricing.DRA_INCLUDES,
        Pricing.LIST_SLICE,
        Pricing.LIST_REVERSE,
        Pricing.LIST_FLATTEN,
        Pricing.LIST_SORT,
        Pricing.LIST_SORT_BY_KEYS,
        Pricing.RECEIVER_STRING,
        Pricing.REPLACE,
        Pricing.SPLIT,
        Pricing.JOIN,
        Pricing.FIND,
    }
)


def _int_literal(e: Expr) -> int | None:
    if isinstance(e, Literal) and type(e.value) is int:
        return max(e.value, 0)
    return None


def _literal_size(e: Expr) -> Range | None:
    if isinstance(e, Literal):
        if e.kind == "string":
            return _fixed(len(str(e.value)))
        if e.kind == "bytes":
            return _fixed(len(e.value))  # type: ignore[arg-type]
        if e.kind in ("bool", "double", "int", "uint", "null"):
            return _fixed(1)
        return None
    if isinstance(e, CreateList):
        return _fixed(len(e.elements))
    if isinstance(e, CreateMap):
        return _fixed(len(e.entries))
    return None


def _is_scalar(t: Type) -> bool:
    if t.kind in _SCALARS:
        return True
    return t.name == "optional_type" and bool(t.params) and _is_scalar(t.params[0])


_UNIT_EQUALITY = frozenset(("net.IP", "net.CIDR", "kubernetes.Quantity", "kubernetes.Semver"))
