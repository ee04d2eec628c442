"""Parse CEL text into an AST with macros expanded, reporting errors the way cel-go's parser does.

A recursive-descent port of cel-go's ANTLR grammar (``parser/gen/CEL.g4``) and of its visitor
(``parser/parser.go``): the same precedence, the same literal rules, the same limits (100,000
code points, a nesting depth of 250 per grammar rule, counted as ANTLR's parse listener counts
it), the same macro expansions and the same messages. ANTLR's error recovery is not ported:
after the first syntax error the parse stops (lexer errors before it are all reported).

Longer than 500 lines on purpose: the grammar rules, the ANTLR depth accounting they share,
the macro expansions the visitor applies and literal decoding are one port of one upstream
pass; splitting them would scatter the state they share (ids, offsets, depth counters).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dralint.cel.lexer import Token, tokenize
from dralint.cel.nodes import (
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
from dralint.cel.values import INT64_MAX, INT64_MIN, UINT64_MAX, UInt

__all__ = ["MACROS_BASE", "MACROS_TWO_VAR", "ParseResult", "SyntaxIssue", "parse"]

MAX_CODE_POINTS = 100_000
MAX_DEPTH = 250
ACCUMULATOR = "@result"

_EXPR_START = (
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}"
)
_START_KINDS = frozenset(
    ("[", "{", "(", ".", "-", "!", "true", "false", "null", "NUM_FLOAT", "NUM_INT", "NUM_UINT", "STRING", "BYTES")
) | {"IDENTIFIER"}
_RESERVED = frozenset(
    [
        "as",
        "break",
        "const",
        "continue",
        "else",
        "false",
        "for",
        "function",
        "if",
        "import",
        "in",
        "let",
        "loop",
        "package",
        "namespace",
        "null",
        "return",
        "true",
        "var",
        "void",
        "while",
    ]
)
_RELATION_OPS = {"<": "_<_", "<=": "_<=_", ">=": "_>=_", ">": "_>_", "==": "_==_", "!=": "_!=_", "in": "@in"}
_MUL_OPS = {"*": "_*_", "/": "_/_", "%": "_%_"}
_ADD_OPS = {"+": "_+_", "-": "_-_"}

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


@dataclass(frozen=True, slots=True)
class SyntaxIssue:
    """One error: ``offset`` into the expression, or ``None`` for errors without a location."""

    offset: int | None
    message: str


@dataclass(slots=True)
class ParseResult:
    expr: Expr | None
    offsets: dict[int, int] = field(default_factory=dict)  # node id -> source offset
    issues: list[SyntaxIssue] = field(default_factory=list)
    next_id: int = 1


class _Stop(Exception):
    """Abort the parse (first syntax error, or a limit)."""


def parse(
    source: str, *, macros: frozenset[tuple[str, int, bool]] = MACROS_BASE | MACROS_TWO_VAR | {("bind", 3, True)}
) -> ParseResult:
    """Parse ``source``; ``issues`` is empty on success."""
    result = ParseResult(None)
    size = len(source)
    if size > MAX_CODE_POINTS:
        message = f"expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}"
        result.issues.append(SyntaxIssue(None, message))
        return result
    tokens, lex_errors = tokenize(source)
    for error in lex_errors:
        result.issues.append(SyntaxIssue(error.offset, f"Syntax error: token recognition error at: '{error.text}'"))
    parser = _Parser(tokens, result, macros)
    try:
        parser.depth_enter("start")
        expr = parser.expr()
        parser.expect_eof()
        result.expr = expr
    except _Stop:
        result.expr = None
    except RecursionError:  # pragma: no cover - the depth limit stops us long before Python's
        result.issues.append(SyntaxIssue(None, f"expression recursion limit exceeded: {MAX_DEPTH}"))
        result.expr = None
    result.next_id = parser.next_id
    return result


class _Parser:
    def __init__(self, tokens: list[Token], result: ParseResult, macros: frozenset[tuple[str, int, bool]]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.result = result
        self.macros = macros
        self.next_id = 1
        self.depth: dict[str, int] = {}

    # --- bookkeeping -------------------------------------------------------------------------
    def depth_enter(self, rule: str) -> None:
        depth = self.depth.get(rule, 0) + 1
        self.depth[rule] = depth
        if depth > MAX_DEPTH:
            self.result.issues.append(SyntaxIssue(None, f"expression recursion limit exceeded: {MAX_DEPTH}"))
            raise _Stop

    def depth_exit(self, rule: str, count: int = 1) -> None:
        self.depth[rule] -= count

    def new_id(self, offset: int) -> int:
        node_id = self.next_id
        self.next_id += 1
        self.result.offsets[node_id] = offset
        return node_id

    def report(self, offset: int | None, message: str) -> Expr:
        """A non-fatal error (cel-go's ``reportError``); parsing goes on with a placeholder node."""
        self.result.issues.append(SyntaxIssue(offset, message))
        return Literal(self.new_id(offset if offset is not None else 0), "<<error>>", "string")

    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def peek(self, ahead: int = 1) -> Token:
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    def advance(self) -> Token:
        token = self.tokens[self.pos]
        if token.kind != "EOF":
            self.pos += 1
        return token

    def syntax_error(self, expecting: str, acceptable: Callable[[Token], bool]) -> None:
        """ANTLR's message for an unexpected token: extraneous when the next one would do."""
        token = self.tok
        if token.kind != "EOF" and acceptable(self.peek()):
            message = f"Syntax error: extraneous input {token.display()} expecting {expecting}"
        else:
            message = f"Syntax error: mismatched input {token.display()} expecting {expecting}"
        self.result.issues.append(SyntaxIssue(token.start, message))
        raise _Stop

    def expect(self, kind: str) -> Token:
        if self.tok.kind == kind:
            return self.advance()
        self.syntax_error(f"'{kind}'", lambda t: t.kind == kind)
        raise AssertionError  # unreachable

    def expect_eof(self) -> None:
        if self.tok.kind != "EOF":
            self.syntax_error("<EOF>", lambda t: t.kind == "EOF")

    # --- grammar -----------------------------------------------------------------------------
    def expr(self) -> Expr:
        self.depth_enter("expr")
        condition = self.conditional_or()
        if self.tok.kind == "?":
            op = self.advance()
            truthy = self.conditional_or()
            self.expect(":")
            falsy = self.expr()
            condition = self.global_call(self.new_id(op.start), "_?_:_", (condition, truthy, falsy))
        self.depth_exit("expr")
        return condition

    def conditional_or(self) -> Expr:
        self.depth_enter("conditionalOr")
        terms = [self.conditional_and()]
        ops: list[int] = []
        while self.tok.kind == "||":
            ops.append(self.new_id(self.advance().start))
            terms.append(self.conditional_and())
        self.depth_exit("conditionalOr")
        return _balanced("_||_", terms, ops)

    def conditional_and(self) -> Expr:
        self.depth_enter("conditionalAnd")
        terms = [self.relation(0)]
        ops: list[int] = []
        while self.tok.kind == "&&":
            ops.append(self.new_id(self.advance().start))
            terms.append(self.relation(0))
        self.depth_exit("conditionalAnd")
        return _balanced("_&&_", terms, ops)

    def relation(self, precedence: int) -> Expr:
        self.depth_enter("relation")
        pushed = 1
        left = self.calc(0)
        while self.tok.kind in _RELATION_OPS and precedence <= 1:
            self.depth_enter("relation")  # ANTLR's pushNewRecursionContext
            pushed += 1
            op = self.advance()
            right = self.relation(2)
            left = self.global_call(self.new_id(op.start), _RELATION_OPS[op.kind], (left, right))
        self.depth_exit("relation", pushed)
        return left

    def calc(self, precedence: int) -> Expr:
        self.depth_enter("calc")
        pushed = 1
        left = self.unary()
        while True:
            kind = self.tok.kind
            if kind in _MUL_OPS and precedence <= 2:
                function, right_precedence = _MUL_OPS[kind], 3
            elif kind in _ADD_OPS and precedence <= 1:
                function, right_precedence = _ADD_OPS[kind], 2
            else:
                break
            self.depth_enter("calc")
            pushed += 1
            op = self.advance()
            right = self.calc(right_precedence)
            left = self.global_call(self.new_id(op.start), function, (left, right))
        self.depth_exit("calc", pushed)
        return left

    def unary(self) -> Expr:
        self.depth_enter("unary")
        kind = self.tok.kind
        if kind == "!" or (kind == "-" and not self._signed_literal_ahead()):
            ops = [self.advance()]
            while self.tok.kind == kind:
                ops.append(self.advance())
            operand = self.member()
            if len(ops) % 2 == 1:
                function = "!_" if kind == "!" else "-_"
                operand = self.global_call(self.new_id(ops[0].start), function, (operand,))
        else:
            operand = self.member()
        self.depth_exit("unary")
        return operand

    def _signed_literal_ahead(self) -> bool:
        return self.peek().kind in ("NUM_INT", "NUM_FLOAT")

    def member(self) -> Expr:
        self.depth_enter("member")
        pushed = 1
        operand = self.primary()
        while self.tok.kind in (".", "["):
            self.depth_enter("member")
            pushed += 1
            op = self.advance()
            if op.kind == ".":
                optional = False
                if self.tok.kind == "?":
                    self.advance()
                    optional = True
                name_token = self.tok
                if name_token.kind == "IDENTIFIER" and not optional and self.peek().kind == "(":
                    self.advance()
                    open_paren = self.advance()
                    args = self.expr_list(")")
                    self.expect(")")
                    operand = self.receiver_call(self.new_id(open_paren.start), name_token.text, operand, args)
                    continue
                name = self.escape_ident()
                if optional:
                    field_literal = Literal(self.new_id(name_token.start), name, "string")
                    operand = Call(self.new_id(op.start), "_?._", (operand, field_literal))
                else:
                    operand = Select(self.new_id(op.start), operand, name)
            else:
                optional = False
                if self.tok.kind == "?":
                    self.advance()
                    optional = True
                index = self.expr()
                self.expect("]")
                operand = self.global_call(self.new_id(op.start), "_[?_]" if optional else "_[_]", (operand, index))
        self.depth_exit("member", pushed)
        return operand

    def escape_ident(self) -> str:
        self.depth_enter("escapeIdent")
        token = self.tok
        if token.kind == "IDENTIFIER":
            self.advance()
            self.depth_exit("escapeIdent")
            return token.text
        if token.kind == "ESC_IDENTIFIER":
            self.advance()
            self.report(token.start, "unsupported syntax: '`'")
            self.depth_exit("escapeIdent")
            return token.text[1:-1]
        self.syntax_error("IDENTIFIER", lambda t: t.kind in ("IDENTIFIER", "ESC_IDENTIFIER"))
        raise AssertionError  # unreachable

    def primary(self) -> Expr:
        self.depth_enter("primary")
        token = self.tok
        kind = token.kind
        result: Expr
        if kind == "." or kind == "IDENTIFIER":
            result = self._identifier_or_call()
        elif kind == "(":
            self.advance()
            result = self.expr()
            self.expect(")")
        elif kind == "[":
            self.advance()
            list_id = self.new_id(token.start)
            elements, optionals = self.list_init()
            self.expect("]")
            result = CreateList(list_id, tuple(elements), tuple(optionals))
        elif kind == "{":
            self.advance()
            map_id = self.new_id(token.start)
            entries = self.map_init()
            self.expect("}")
            result = CreateMap(map_id, tuple(entries))
        elif kind in ("-", "NUM_INT", "NUM_UINT", "NUM_FLOAT", "STRING", "BYTES", "true", "false", "null"):
            result = self.literal()
        else:
            self.syntax_error(_EXPR_START, lambda t: t.kind in _START_KINDS)
            raise AssertionError  # unreachable
        self.depth_exit("primary")
        return result

    def _identifier_or_call(self) -> Expr:
        start = self.tok.start
        leading_dot = False
        if self.tok.kind == ".":
            self.advance()
            leading_dot = True
        if self.tok.kind != "IDENTIFIER":
            self.syntax_error("IDENTIFIER", lambda t: t.kind == "IDENTIFIER")
        name_token = self.advance()
        name = name_token.text
        # A message literal: a.b.C{...} (qualified names are gathered first).
        if self.tok.kind == "{" or (self.tok.kind == "." and self._message_ahead()):
            parts = [name]
            while self.tok.kind == ".":
                self.advance()
                parts.append(self.expect("IDENTIFIER").text)
            brace = self.expect("{")
            fields = self.field_init()
            self.expect("}")
            type_name = ("." if leading_dot else "") + ".".join(parts)
            return CreateStruct(self.new_id(brace.start), type_name, tuple(fields))
        if self.tok.kind == "(":
            open_paren = self.advance()
            args = self.expr_list(")")
            self.expect(")")
            if name in _RESERVED:
                return self.report(start, f"reserved identifier: {name}")
            function = ("." if leading_dot else "") + name
            return self.global_call(self.new_id(open_paren.start), function, tuple(args))
        if name in _RESERVED:
            return self.report(start, f"reserved identifier: {name}")
        return Ident(self.new_id(name_token.start), ("." if leading_dot else "") + name)

    def _message_ahead(self) -> bool:
        """``a.b.C{`` is a message literal; ``a.b.c`` is a select chain."""
        index = self.pos
        while self.tokens[index].kind == "." and self.tokens[index + 1].kind == "IDENTIFIER":
            index += 2
        return self.tokens[index].kind == "{"

    def expr_list(self, closing: str) -> list[Expr]:
        if self.tok.kind == closing:
            return []
        self.depth_enter("exprList")
        items = [self.expr()]
        while self.tok.kind == ",":
            self.advance()
            items.append(self.expr())
        self.depth_exit("exprList")
        return items

    def list_init(self) -> tuple[list[Expr], list[int]]:
        elements: list[Expr] = []
        optionals: list[int] = []
        if self.tok.kind == "]":
            return elements, optionals
        if self.tok.kind == ",":  # "[,]": ANTLR accepts the trailing comma alone
            self.advance()
            return elements, optionals
        self.depth_enter("listInit")
        while True:
            self.depth_enter("optExpr")
            if self.tok.kind == "?":
                self.advance()
                optionals.append(len(elements))
            elements.append(self.expr())
            self.depth_exit("optExpr")
            if self.tok.kind == "," and self.peek().kind != "]":
                self.advance()
                continue
            if self.tok.kind == ",":
                self.advance()
            break
        self.depth_exit("listInit")
        return elements, optionals

    def map_init(self) -> list[MapEntry]:
        entries: list[MapEntry] = []
        if self.tok.kind == "}":
            return entries
        if self.tok.kind == ",":
            self.advance()
            return entries
        self.depth_enter("mapInitializerList")
        while True:
            self.depth_enter("optExpr")
            optional = False
            if self.tok.kind == "?":
                self.advance()
                optional = True
            key = self.expr()
            self.depth_exit("optExpr")
            colon = self.expect(":")
            value = self.expr()
            entries.append(MapEntry(self.new_id(colon.start), key, value, optional))
            if self.tok.kind == "," and self.peek().kind != "}":
                self.advance()
                continue
            if self.tok.kind == ",":
                self.advance()
            break
        self.depth_exit("mapInitializerList")
        return entries

    def field_init(self) -> list[tuple[int, str, Expr, bool]]:
        fields: list[tuple[int, str, Expr, bool]] = []
        if self.tok.kind == "}":
            return fields
        if self.tok.kind == ",":
            self.advance()
            return fields
        self.depth_enter("fieldInitializerList")
        while True:
            self.depth_enter("optField")
            optional = False
            if self.tok.kind == "?":
                self.advance()
                optional = True
            name = self.escape_ident()
            self.depth_exit("optField")
            colon = self.expect(":")
            value = self.expr()
            fields.append((self.new_id(colon.start), name, value, optional))
            if self.tok.kind == "," and self.peek().kind != "}":
                self.advance()
                continue
            if self.tok.kind == ",":
                self.advance()
            break
        self.depth_exit("fieldInitializerList")
        return fields

    def literal(self) -> Expr:
        self.depth_enter("literal")
        start = self.tok.start
        sign = ""
        if self.tok.kind == "-":
            self.advance()
            sign = "-"
        token = self.advance()
        kind = token.kind
        node_id = self.new_id(start)
        result: Expr
        if kind == "NUM_INT":
            text = token.text
            value = int(text[2:], 16) if text.startswith("0x") else int(text)
            value = -value if sign else value
            if not INT64_MIN <= value <= INT64_MAX:
                result = self.report(start, "invalid int literal")
            else:
                result = Literal(node_id, value, "int")
        elif kind == "NUM_UINT":
            text = token.text[:-1]
            value = int(text[2:], 16) if text.startswith("0x") else int(text)
            if value > UINT64_MAX:
                result = self.report(start, "invalid uint literal")
            else:
                result = Literal(node_id, UInt(value), "uint")
        elif kind == "NUM_FLOAT":
            number = float(sign + token.text)
            result = Literal(node_id, number, "double")
        elif kind == "STRING":
            decoded = unescape(token.text, is_bytes=False)
            if isinstance(decoded, _UnescapeError):
                result = self.report(start, decoded.message)
            else:
                result = Literal(node_id, decoded, "string")
        elif kind == "BYTES":
            decoded_bytes = unescape(token.text[1:], is_bytes=True)
            if isinstance(decoded_bytes, _UnescapeError):
                result = self.report(start, decoded_bytes.message)
            else:
                result = Literal(node_id, decoded_bytes.encode("latin-1"), "bytes")
        elif kind in ("true", "false"):
            result = Literal(node_id, kind == "true", "bool")
        elif kind == "null":
            result = Literal(node_id, None, "null")
        else:
            self.pos -= 1
            self.syntax_error(_EXPR_START, lambda t: t.kind in _START_KINDS)
            raise AssertionError  # unreachable
        self.depth_exit("literal")
        return result

    # --- calls and macros --------------------------------------------------------------------
    def global_call(self, call_id: int, function: str, args: tuple[Expr, ...]) -> Expr:
        expanded = self.expand_macro(call_id, function, None, args)
        if expanded is not None:
            return expanded
        return Call(call_id, function, args)

    def receiver_call(self, call_id: int, function: str, target: Expr, args: list[Expr]) -> Expr:
        expanded = self.expand_macro(call_id, function, target, tuple(args))
        if expanded is not None:
            return expanded
        return Call(call_id, function, tuple(args), target)

    def expand_macro(self, call_id: int, function: str, target: Expr | None, args: tuple[Expr, ...]) -> Expr | None:
        if (function, len(args), target is not None) not in self.macros:
            return None
        expander = _Macros(self, call_id)
        try:
            return expander.expand(function, target, args)
        except _MacroError as error:
            offset = self.result.offsets.get(error.node_id) if error.node_id is not None else None
            return self.report(offset if offset is not None else self.result.offsets[call_id], error.message)


def _balanced(function: str, terms: list[Expr], ops: list[int]) -> Expr:
    """cel-go's balancing logic manager: ``a || b || c || d`` becomes a balanced tree."""
    if len(terms) == 1:
        return terms[0]

    def build(lo: int, hi: int) -> Expr:
        mid = (lo + hi + 1) // 2
        left = terms[mid] if mid == lo else build(lo, mid - 1)
        right = terms[mid + 1] if mid == hi else build(mid + 1, hi)
        return Call(ops[mid], function, (left, right))

    return build(0, len(ops) - 1)


class _MacroError(Exception):
    def __init__(self, node_id: int | None, message: str) -> None:
        super().__init__(message)
        self.node_id = node_id
        self.message = message


class _Macros:
    """Macro expansions (parser/macro.go, ext/comprehensions.go, ext/bindings.go, optional)."""

    def __init__(self, parser: _Parser, call_id: int) -> None:
        self.parser = parser
        self.offset = parser.result.offsets[call_id]

    def node(self) -> int:
        return self.parser.new_id(self.offset)

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
            raise _MacroError(arg.id, "invalid argument to has() macro")
        assert target is not None
        if function == "bind":
            return self.bind(target, args)
        if function in ("optMap", "optFlatMap"):
            return self.opt_map(function, target, args)
        if (len(args) == 2 and function in ("all", "exists", "exists_one", "map", "filter")) or (
            function == "map" and len(args) == 3
        ):
            return self.one_var(function, target, args)
        return self.two_var(function, target, args)

    def iter_var(self, arg: Expr) -> str:
        if not isinstance(arg, Ident):
            raise _MacroError(arg.id, "argument must be a simple name")
        if arg.name in (ACCUMULATOR, "__result__"):
            raise _MacroError(arg.id, "iteration variable overwrites accumulator variable")
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
        var = self.iter_var(args[0])
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
            raise _MacroError(second.id, f"duplicate variable name: {var}")
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
            raise _MacroError(name_arg.id, "cel.bind() variable names must be simple identifiers")
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

    def opt_map(self, function: str, target: Expr, args: tuple[Expr, ...]) -> Expr:
        name_arg = args[0]
        if not isinstance(name_arg, Ident):
            raise _MacroError(name_arg.id, f"{function}() variable name must be a simple identifier")
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


class _UnescapeError:
    def __init__(self, message: str) -> None:
        self.message = message


_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "`": "`",
    "?": "?",
}


def unescape(text: str, *, is_bytes: bool) -> str | _UnescapeError:
    """Decode a string literal's token text (cel-go's ``unescape``).

    For bytes the result is a latin-1 string (one character per byte).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    raw = text[0] in "rR"
    if raw:
        text = text[1:]
    triple = len(text) >= 6 and text[:3] in ('"""', "'''")
    body = text[3:-3] if triple else text[1:-1]
    if raw or "\\" not in body:
        return body.encode("utf-8").decode("latin-1") if is_bytes else body
    out: list[str] = []
    index, end = 0, len(body)
    while index < end:
        ch = body[index]
        if ch != "\\":
            out.append(ch.encode("utf-8").decode("latin-1") if is_bytes else ch)
            index += 1
            continue
        if index + 1 >= end:
            return _UnescapeError("unable to unescape string, found '\\' as last character")
        kind = body[index + 1]
        index += 2
        if kind in _SIMPLE:
            out.append(_SIMPLE[kind])
            continue
        if kind in "xXuU":
            digits = {"x": 2, "X": 2, "u": 4, "U": 8}[kind]
            if kind in "uU" and is_bytes:
                return _UnescapeError("unable to unescape string")
            chunk = body[index : index + digits]
            if len(chunk) < digits or any(c not in "0123456789abcdefABCDEF" for c in chunk):
                return _UnescapeError("unable to unescape string")
            index += digits
            code = int(chunk, 16)
            if is_bytes:
                out.append(chr(code))
                continue
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                return _UnescapeError("invalid unicode code point")
            out.append(chr(code))
            continue
        if kind in "0123":
            chunk = body[index : index + 2]
            if len(chunk) < 2 or any(c not in "01234567" for c in chunk):
                return _UnescapeError("unable to unescape octal sequence in string")
            index += 2
            out.append(chr(int(kind + chunk, 8)))
            continue
        return _UnescapeError("unable to unescape string")
    return "".join(out)
