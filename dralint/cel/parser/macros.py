"""CEL macros: which exist, and their expansion into comprehensions, as cel-go's parser does it.

Ports ``parser/macro.go`` (has, all, exists, exists_one, map, filter), ``ext/comprehensions.go``
(the two-variable forms and transforms), ``ext/bindings.go`` (``cel.bind``) and the optional
library's ``optMap``/``optFlatMap``. The parser calls :meth:`MacroExpander.expand` for every call
whose (name, argument count, receiver) is in the environment's macro set.
"""

from __future__ import annotations

from collections.abc import Callable

from dralint.cel.parser.nodes import Call, Comprehension, CreateList, CreateMap, Expr, Ident, Literal, Select

__all__ = ["ACCUMULATOR", "MACROS_BASE", "MACROS_LISTS", "MACROS_TWO_VAR", "MacroError", "MacroExpander"]

ACCUMULATOR = "@result"

# Macro sets by (name, argument count, is a member call); the environment picks which apply.
MACROS_BASE = frozenset(
    {
        ("has", 1, False),
        ("all", 2, True),
        ("exists", 2, True),
        ("exists_one", 2, True),
        ("map", 2, True),
        ("map", 3, True),
        ("filter", 2, True),
        ("optMap", 2, True),
        ("optFlatMap", 2, True),
    }
)
MACROS_TWO_VAR = frozenset(
    {
        ("all", 3, True),
        ("exists", 3, True),
        ("existsOne", 3, True),
        ("exists_one", 3, True),
        ("transformList", 3, True),
        ("transformList", 4, True),
        ("transformMap", 3, True),
        ("transformMap", 4, True),
        ("transformMapEntry", 3, True),
        ("transformMapEntry", 4, True),
    }
)


# cel-go's lists extension, version 2 and later (ext/lists.go).
MACROS_LISTS = frozenset({("sortBy", 2, True)})
_SORT_BY_INPUT = "@__sortBy_input__"


class MacroError(Exception):
    """A macro call that cannot expand; ``node_id`` is the argument at fault, if any."""

    def __init__(self, node_id: int | None, message: str) -> None:
        super().__init__(message)
        self.node_id = node_id
        self.message = message


class MacroExpander:
    """Expands one macro call; every node it creates gets a new id at the call's offset."""

    def __init__(self, new_id: Callable[[int], int], offset: int) -> None:
        self.new_id = new_id
        self.offset = offset

    def node(self) -> int:
        return self.new_id(self.offset)

    def ident(self, name: str) -> Ident:
        return Ident(self.node(), name)

    def call(self, function: str, *args: Expr, target: Expr | None = None) -> Call:
        return Call(self.node(), function, tuple(args), target)

    def lit(self, value: object, kind: str) -> Literal:
        return Literal(self.node(), value, kind)

    def accu(self) -> Ident:
        return self.ident(ACCUMULATOR)

    def expand(self, function: str, target: Expr | None, args: tuple[Expr, ...]) -> Expr | None:
        if function == "has":
            arg = args[0]
            if isinstance(arg, Select):
                return Select(self.node(), arg.operand, arg.field, test_only=True)
            raise MacroError(arg.id, "invalid argument to has() macro")
        assert target is not None
        if function == "bind":
            return self.bind(target, args)
        if function in ("optMap", "optFlatMap"):
            return self.opt_map(function, target, args)
        if function == "sortBy":
            return self.sort_by(target, args)
        if (len(args) == 2 and function in ("all", "exists", "exists_one", "map", "filter")) or (
            function == "map" and len(args) == 3
        ):
            return self.one_var(function, target, args)
        return self.two_var(function, target, args)

    def iter_var(self, arg: Expr, not_a_name: str = "argument must be a simple name") -> str:
        if not isinstance(arg, Ident):
            raise MacroError(arg.id, not_a_name)
        if arg.name in (ACCUMULATOR, "__result__"):
            raise MacroError(arg.id, "iteration variable overwrites accumulator variable")
        return arg.name

    def fold(
        self, target: Expr, var: str, init: Expr, condition: Expr, step: Expr, result: Expr, var2: str | None = None
    ) -> Comprehension:
        return Comprehension(self.node(), target, var, ACCUMULATOR, init, condition, step, result, var2)

    def quantifier(self, kind: str, target: Expr, var: str, predicate: Expr, var2: str | None = None) -> Expr:
        if kind == "all":
            return self.fold(
                target,
                var,
                self.lit(True, "bool"),
                self.call("@not_strictly_false", self.accu()),
                self.call("_&&_", self.accu(), predicate),
                self.accu(),
                var2,
            )
        if kind == "exists":
            return self.fold(
                target,
                var,
                self.lit(False, "bool"),
                self.call("@not_strictly_false", self.call("!_", self.accu())),
                self.call("_||_", self.accu(), predicate),
                self.accu(),
                var2,
            )
        step = self.call("_?_:_", predicate, self.call("_+_", self.accu(), self.lit(1, "int")), self.accu())
        result = self.call("_==_", self.accu(), self.lit(1, "int"))
        return self.fold(target, var, self.lit(0, "int"), self.lit(True, "bool"), step, result, var2)

    def one_var(self, function: str, target: Expr, args: tuple[Expr, ...]) -> Expr:
        # cel-go's MakeMap and MakeFilter word a non-name differently from the quantifiers.
        quantifier = function in ("all", "exists", "exists_one")
        var = self.iter_var(
            args[0], "argument must be a simple name" if quantifier else "argument is not an identifier"
        )
        if function in ("all", "exists", "exists_one"):
            return self.quantifier(function, target, var, args[1])
        if function == "filter":
            appended = CreateList(self.node(), (self.ident(var),))
            step: Expr = self.call("_?_:_", args[1], self.call("_+_", self.accu(), appended), self.accu())
        else:
            appended = CreateList(self.node(), (args[-1],))
            step = self.call("_+_", self.accu(), appended)
            if len(args) == 3:
                step = self.call("_?_:_", args[1], step, self.accu())
        empty = CreateList(self.node(), ())
        return self.fold(target, var, empty, self.lit(True, "bool"), step, self.accu())

    def two_var(self, function: str, target: Expr, args: tuple[Expr, ...]) -> Expr:
        first, second = args[0], args[1]
        var = self.iter_var(first)
        var2 = self.iter_var(second)
        if var == var2:
            raise MacroError(second.id, f"duplicate variable name: {var}")
        if function in ("all", "exists"):
            return self.quantifier(function, target, var, args[2], var2)
        if function in ("existsOne", "exists_one"):
            return self.quantifier("exists_one", target, var, args[2], var2)
        predicate = args[2] if len(args) == 4 else None
        value = args[-1]
        step: Expr
        if function == "transformList":
            init: Expr = CreateList(self.node(), ())
            step = self.call("_+_", self.accu(), CreateList(self.node(), (value,)))
        elif function == "transformMap":
            init = CreateMap(self.node(), ())
            step = self.call("cel.@mapInsert", self.accu(), self.ident(var), value)
        else:
            init = CreateMap(self.node(), ())
            step = self.call("cel.@mapInsert", self.accu(), value)
        if predicate is not None:
            step = self.call("_?_:_", predicate, step, self.accu())
        return self.fold(target, var, init, self.lit(True, "bool"), step, self.accu(), var2)

    def bind(self, target: Expr, args: tuple[Expr, ...]) -> Expr | None:
        if not (isinstance(target, Ident) and target.name == "cel"):
            return None
        name_arg = args[0]
        if not isinstance(name_arg, Ident):
            raise MacroError(name_arg.id, "cel.bind() variable names must be simple identifiers")
        return Comprehension(
            self.node(),
            CreateList(self.node(), ()),
            "#unused",
            name_arg.name,
            args[1],
            self.lit(False, "bool"),
            self.ident(name_arg.name),
            args[2],
        )

    def sort_by(self, target: Expr, args: tuple[Expr, ...]) -> Expr:
        """``list.sortBy(e, key)``: bind the list, then sort it by its elements' keys, as
        cel-go's ``sortByMacro`` expands it."""
        if not isinstance(target, (CreateList, Select, Ident, Comprehension, Call)):
            raise MacroError(
                target.id, "sortBy can only be applied to a list, identifier, comprehension, call or select expression"
            )
        keys = self.one_var("map", self.ident(_SORT_BY_INPUT), args)
        sorted_call = self.call("@sortByAssociatedKeys", keys, target=self.ident(_SORT_BY_INPUT))
        return Comprehension(
            self.node(),
            CreateList(self.node(), ()),
            "#unused",
            _SORT_BY_INPUT,
            target,
            self.lit(False, "bool"),
            self.ident(_SORT_BY_INPUT),
            sorted_call,
        )

    def opt_map(self, function: str, target: Expr, args: tuple[Expr, ...]) -> Expr:
        name_arg = args[0]
        if not isinstance(name_arg, Ident):
            raise MacroError(name_arg.id, f"{function}() variable name must be a simple identifier")
        body = Comprehension(
            self.node(),
            CreateList(self.node(), ()),
            "#unused",
            name_arg.name,
            self.call("value", target=target),
            self.lit(False, "bool"),
            self.ident(name_arg.name),
            args[1],
        )
        mapped: Expr = self.call("optional.of", body) if function == "optMap" else body
        return self.call("_?_:_", self.call("hasValue", target=target), mapped, self.call("optional.none"))
