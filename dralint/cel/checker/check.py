"""Type-check a parsed CEL expression against an environment (a port of cel-go's ``checker``).

Produces the type of every node, the overloads each call may resolve to, and a tree in which
qualified names are resolved (``sets.contains(a, b)`` becomes a global call, ``google.protobuf.Value``
an identifier). Errors carry cel-go's messages and the offset of the node they are about.
"""

from __future__ import annotations

from dataclasses import field

from dralint.cel.checker.decls import Environment, Function, Overload
from dralint.cel.checker.types import (
    BOOL,
    DYN,
    ERROR,
    INT,
    Mapping,
    Type,
    format_type,
    is_assignable,
    is_assignable_list,
    is_dyn,
    is_dyn_or_error,
    list_of,
    map_of,
    most_general,
    optional_of,
    param,
    substitute,
    unwrap_optional,
)
from dralint.cel.parser.nodes import (
    Call,
    Comprehension,
    CreateList,
    CreateMap,
    CreateStruct,
    Expr,
    Ident,
    Literal,
    MapEntry,
    Select,
)
from dralint.dataclass import dataclass

__all__ = ["Checked", "TypeIssue", "check", "mismatch"]

_LITERAL_TYPES = {
    "int": INT,
    "uint": Type("uint", "uint"),
    "double": Type("double", "double"),
    "string": Type("string", "string"),
    "bytes": Type("bytes", "bytes"),
    "bool": BOOL,
    "null": Type("null", "null_type"),
}


@dataclass(frozen=True, slots=True)
class TypeIssue:
    node_id: int
    message: str


@dataclass(slots=True)
class Checked:
    expr: Expr
    types: dict[int, Type] = field(default_factory=dict)
    overloads: dict[int, tuple[Overload, ...]] = field(default_factory=dict)  # call id -> candidates
    idents: dict[int, str] = field(default_factory=dict)  # ident id -> "var", "type" or "local"
    issues: list[TypeIssue] = field(default_factory=list)

    @property
    def output_type(self) -> Type:
        return self.types.get(self.expr.id, DYN)


def check(expr: Expr, env: Environment) -> Checked:
    checker = _Checker(env)
    result = checker.check(expr)
    checked = Checked(result)
    checked.issues = checker.issues
    for node_id, t in checker.types.items():
        checked.types[node_id] = substitute(checker.mapping, t, True)
    checked.overloads = checker.overloads
    checked.idents = checker.idents
    return checked


class _Checker:
    def __init__(self, env: Environment) -> None:
        self.env = env
        self.mapping = Mapping()
        self.types: dict[int, Type] = {}
        self.overloads: dict[int, tuple[Overload, ...]] = {}
        self.idents: dict[int, str] = {}
        self.issues: list[TypeIssue] = []
        self.scopes: list[dict[str, Type]] = []
        self.var_counter = 0

    def error(self, node_id: int, message: str) -> None:
        self.issues.append(TypeIssue(node_id, message))

    def set_type(self, e: Expr, t: Type) -> None:
        self.types[e.id] = t

    def get_type(self, e: Expr) -> Type:
        return self.types[e.id]

    def new_var(self) -> Type:
        self.var_counter += 1
        return param(f"_var{self.var_counter - 1}")

    def assignable(self, t1: Type, t2: Type) -> bool:
        subs = is_assignable(self.mapping, t1, t2)
        if subs is None:
            return False
        self.mapping = subs
        return True

    # --- dispatch ----------------------------------------------------------------------------
    def check(self, e: Expr) -> Expr:
        if isinstance(e, Literal):
            self.set_type(e, _LITERAL_TYPES[e.kind])
            return e
        if isinstance(e, Ident):
            return self.check_ident(e)
        if isinstance(e, Select):
            return self.check_select(e)
        if isinstance(e, Call):
            return self.check_call(e)
        if isinstance(e, CreateList):
            return self.check_list(e)
        if isinstance(e, CreateMap):
            return self.check_map(e)
        if isinstance(e, Comprehension):
            return self.check_comprehension(e)
        assert isinstance(e, CreateStruct)
        self.error(e.id, f"undeclared reference to '{e.type_name.lstrip('.')}' (in container '')")
        for _, _, value, _ in e.fields:
            self.check(value)
        self.set_type(e, ERROR)
        return e

    # --- identifiers and selection -----------------------------------------------------------
    def resolve(self, name: str) -> tuple[str, Type] | None:
        if not name.startswith("."):
            for scope in reversed(self.scopes):
                if name in scope:
                    return "local", scope[name]
        name = name.lstrip(".")
        if name in self.env.variables:
            return "var", self.env.variables[name]
        if name in self.env.type_idents:
            return "type", self.env.type_idents[name]
        return None

    def check_ident(self, e: Ident) -> Expr:
        found = self.resolve(e.name)
        if found is None:
            self.set_type(e, ERROR)
            self.error(e.id, f"undeclared reference to '{e.name.lstrip('.')}' (in container '')")
            return e
        kind, t = found
        self.idents[e.id] = kind
        self.set_type(e, t)
        return Ident(e.id, e.name.lstrip(".")) if e.name.startswith(".") and kind != "local" else e

    def qualified_name(self, e: Expr) -> str | None:
        parts: list[str] = []
        while isinstance(e, Select):
            if e.test_only:
                return None
            parts.append(e.field)
            e = e.operand
        if isinstance(e, Ident):
            parts.append(e.name)
            return ".".join(reversed(parts))
        return None

    def check_select(self, e: Select) -> Expr:
        if not e.test_only:
            name = self.qualified_name(e)
            if name is not None and not self._is_local_root(e):
                found = self.resolve(name)
                if found is not None:
                    kind, t = found
                    self.idents[e.id] = kind
                    self.set_type(e, t)
                    return Ident(e.id, name.lstrip("."))
        operand, result = self.check_select_field(e, e.operand, e.field, optional=False)
        if e.test_only:
            result = BOOL
        self.set_type(e, substitute(self.mapping, result, False))
        return Select(e.id, operand, e.field, e.test_only)

    def _is_local_root(self, e: Expr) -> bool:
        while isinstance(e, Select):
            e = e.operand
        return isinstance(e, Ident) and any(e.name in scope for scope in self.scopes)

    def check_select_field(self, e: Expr, operand: Expr, name: str, *, optional: bool) -> tuple[Expr, Type]:
        operand = self.check(operand)
        operand_type = substitute(self.mapping, self.get_type(operand), False)
        target, is_opt = unwrap_optional(operand_type)
        result = ERROR
        if target.kind == "map":
            result = target.params[1]
        elif target.kind == "struct":
            fields = self.env.struct_fields.get(target.name)
            if fields is None:
                self.error(e.id, f"unexpected failed resolution of '{target.name}'")
            elif name in fields:
                result = fields[name]
            else:
                self.error(e.id, f"undefined field '{name}'")
        elif target.kind == "param":
            self.assignable(DYN, target)
            result = DYN
        else:
            if not is_dyn_or_error(target):
                self.error(e.id, f"type '{format_type(target)}' does not support field selection")
            result = DYN
        if is_opt or optional:
            return operand, optional_of(result)
        return operand, result

    # --- calls -------------------------------------------------------------------------------
    def check_call(self, e: Call) -> Expr:
        if e.function == "_?._":
            return self.check_opt_select(e)
        if e.target is not None:
            name = self.qualified_name(e.target)
            if name is not None and not self._is_local_root(e.target):
                qualified = f"{name.lstrip('.')}.{e.function}"
                function = self.env.functions.get(qualified)
                if function is not None:
                    args = tuple(self.check(a) for a in e.args)
                    call = Call(e.id, qualified, args)
                    self.resolve_overload(call, function, None, args)
                    return call
        args = tuple(self.check(a) for a in e.args)
        if e.target is None:
            function = self.env.functions.get(e.function.lstrip("."))
            if function is None:
                self.error(e.id, f"undeclared reference to '{e.function.lstrip('.')}' (in container '')")
                self.set_type(e, ERROR)
                return Call(e.id, e.function, args)
            call = Call(e.id, function.name, args)
            self.resolve_overload(call, function, None, args)
            return call
        target = self.check(e.target)
        call = Call(e.id, e.function, args, target)
        function = self.env.functions.get(e.function)
        if function is None:
            self.set_type(e, ERROR)
            self.error(e.id, f"undeclared reference to '{e.function}' (in container '')")
            return call
        self.resolve_overload(call, function, target, args)
        return call

    def check_opt_select(self, e: Call) -> Expr:
        operand, field_expr = e.args
        assert isinstance(field_expr, Literal) and isinstance(field_expr.value, str)
        operand, result = self.check_select_field(e, operand, field_expr.value, optional=True)
        self.set_type(field_expr, _LITERAL_TYPES["string"])
        self.set_type(e, substitute(self.mapping, result, False))
        return Call(e.id, e.function, (operand, field_expr))

    def resolve_overload(self, call: Call, function: Function, target: Expr | None, args: tuple[Expr, ...]) -> None:
        arg_types = ([self.get_type(target)] if target is not None else []) + [self.get_type(a) for a in args]
        if function.name in ("_&&_", "_||_"):
            ok = True
            for arg, t in zip(args, arg_types, strict=True):
                if not self.assignable(BOOL, t):
                    self.error(arg.id, mismatch(BOOL, substitute(self.mapping, t, True)))
                    ok = False
            self.set_type(call, BOOL if ok else ERROR)
            self.overloads[call.id] = tuple(function.overloads)
            return
        # Resolution against concrete argument types depends on nothing else, and most calls have
        # them: it is done once per environment (thousands of selectors share their comparisons).
        ground = all(_ground(t) for t in arg_types)
        cache: dict[tuple[str, bool, tuple[Type, ...]], tuple[Type, tuple[Overload, ...]]] = self.env.extra.setdefault(
            "resolved_overloads", {}
        )
        key = (function.name, target is not None, tuple(arg_types))
        if ground:
            found = cache.get(key)
            if found is not None:
                self.overloads[call.id] = found[1]
                self.set_type(call, found[0])
                return
        result: Type | None = None
        matched: list[Overload] = []
        for overload in function.overloads:
            if overload.member != (target is not None):
                continue
            params = overload.args
            result_type = overload.result
            type_params = overload.type_params or _type_params(overload)
            if type_params:
                subs = Mapping({param(p): self.new_var() for p in type_params})
                params = tuple(substitute(subs, t, False) for t in params)
                result_type = substitute(subs, result_type, False)
            subs2 = is_assignable_list(self.mapping, tuple(arg_types), params)
            if subs2 is None:
                continue
            self.mapping = subs2
            matched.append(overload)
            fn_result = substitute(self.mapping, result_type, False)
            if result is None:
                result = fn_result
            elif not is_dyn(result) and fn_result != result:
                result = DYN
        if result is None:
            shown = [format_type(substitute(self.mapping, t, True)) for t in arg_types]
            joined = ", ".join(shown[1:] if target is not None else shown)
            signature = f"{shown[0]}.({joined})" if target is not None else f"({joined})"
            self.error(call.id, f"found no matching overload for '{function.name}' applied to '{signature}'")
            self.set_type(call, ERROR)
            return
        self.overloads[call.id] = tuple(matched)
        self.set_type(call, result)
        if ground and _ground(result):
            cache[key] = (result, tuple(matched))

    # --- aggregates --------------------------------------------------------------------------
    def join(self, e: Expr, previous: Type | None, current: Type) -> Type:
        """The element type of a literal so far; mixed types make it dyn, as cel-go's checker always
        does (the homogeneous-literal validator reports them once checking succeeds)."""
        if previous is None:
            return current
        if self.assignable(previous, current):
            return most_general(previous, current)
        return DYN

    def check_list(self, e: CreateList) -> Expr:
        elem_type: Type | None = None
        elements = []
        for index, element in enumerate(e.elements):
            element = self.check(element)
            elements.append(element)
            t = self.get_type(element)
            if index in e.optional_indices:
                t, is_opt = unwrap_optional(t)
                if not is_opt and not is_dyn(t):
                    self.error(element.id, mismatch(optional_of(t), t))
            elem_type = self.join(element, elem_type, t)
        if elem_type is None:
            elem_type = self.new_var()
        result = CreateList(e.id, tuple(elements), e.optional_indices)
        self.set_type(result, list_of(elem_type))
        return result

    def check_map(self, e: CreateMap) -> Expr:
        key_type: Type | None = None
        value_type: Type | None = None
        entries = []
        for entry in e.entries:
            key = self.check(entry.key)
            key_type = self.join(key, key_type, self.get_type(key))
            value = self.check(entry.value)
            t = self.get_type(value)
            if entry.optional:
                t, is_opt = unwrap_optional(t)
                if not is_opt and not is_dyn(t):
                    self.error(value.id, mismatch(optional_of(t), t))
            value_type = self.join(value, value_type, t)
            entries.append(MapEntry(entry.id, key, value, entry.optional))
        if key_type is None or value_type is None:
            key_type, value_type = self.new_var(), self.new_var()
        result = CreateMap(e.id, tuple(entries))
        self.set_type(result, map_of(key_type, value_type))
        return result

    def check_comprehension(self, e: Comprehension) -> Expr:
        iter_range = self.check(e.iter_range)
        accu_init = self.check(e.accu_init)
        range_type = substitute(self.mapping, self.get_type(iter_range), False)
        accu_type = self.get_type(accu_init)
        self.scopes.append({e.accu_var: accu_type})
        var2_type: Type | None = None
        if range_type.kind == "list":
            var_type = range_type.params[0]
            if e.iter_var2 is not None:
                var2_type, var_type = var_type, INT
        elif range_type.kind == "map":
            var_type = range_type.params[0]
            if e.iter_var2 is not None:
                var2_type = range_type.params[1]
        elif range_type.kind in ("dyn", "error", "param"):  # not google.protobuf.Any
            self.assignable(DYN, range_type)
            var_type = DYN
            var2_type = DYN if e.iter_var2 is not None else None
        else:
            self.error(
                iter_range.id,
                f"expression of type '{format_type(range_type)}' cannot be range of a comprehension "
                "(must be list, map, or dynamic)",
            )
            var_type = ERROR
            var2_type = ERROR if e.iter_var2 is not None else None
        scope = {e.iter_var: var_type}
        if e.iter_var2 is not None and var2_type is not None:
            scope[e.iter_var2] = var2_type
        self.scopes.append(scope)
        condition = self.check(e.loop_condition)
        self.assert_type(condition, BOOL)
        step = self.check(e.loop_step)
        self.assert_type(step, accu_type)
        self.scopes.pop()
        result = self.check(e.result)
        self.scopes.pop()
        node = Comprehension(e.id, iter_range, e.iter_var, e.accu_var, accu_init, condition, step, result, e.iter_var2)
        self.set_type(node, substitute(self.mapping, self.get_type(result), False))
        return node

    def assert_type(self, e: Expr, t: Type) -> None:
        actual = self.get_type(e)
        if not self.assignable(t, actual):
            self.error(e.id, mismatch(substitute(self.mapping, t, True), substitute(self.mapping, actual, True)))


_PARAMS: dict[int, tuple[str, ...]] = {}


def _ground(t: Type) -> bool:
    """Whether ``t`` mentions no type parameter or type variable."""
    return t.kind != "param" and all(_ground(p) for p in t.params)


def _type_params(overload: Overload) -> tuple[str, ...]:
    """The type parameters an overload mentions (declarations may leave them implicit)."""
    found = _PARAMS.get(id(overload))
    if found is None:
        names: set[str] = set()
        stack = [*overload.args, overload.result]
        while stack:
            t = stack.pop()
            if t.kind == "param":
                names.add(t.name)
            stack.extend(t.params)
        found = _PARAMS[id(overload)] = tuple(sorted(names))
    return found


def mismatch(expected: Type, found: Type) -> str:
    """cel-go's message for a value of the wrong type."""
    return f"expected type '{format_type(expected)}' but found '{format_type(found)}'"
