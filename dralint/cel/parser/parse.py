"""Parse CEL text into an AST with macros expanded, reporting errors the way cel-go's parser does.

A recursive-descent port of cel-go's ANTLR grammar (``parser/gen/CEL.g4``) and of its visitor
(``parser/parser.go``): the same precedence, the same literal rules, the same limits (100,000
code points, a nesting depth of 250 per grammar rule, counted as ANTLR's parse listener counts
it), the same macro expansions (``macros.py``) and the same messages. ANTLR's error recovery is
not ported: after the first syntax error the parse stops (lexer errors before it are all reported).

Over 500 lines on purpose: one method per grammar rule, all sharing the token position, the
node ids and offsets and ANTLR's depth counters; the lexer, the macro expansions and literal
unescaping live in their own modules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TypeVar

from dralint.cel.parser.lexer import Token, tokenize
from dralint.cel.parser.macros import MACROS_BASE, MACROS_TWO_VAR, MacroError, MacroExpander
from dralint.cel.parser.nodes import (
    Call,
    CreateList,
    CreateMap,
    CreateStruct,
    Expr,
    Ident,
    Literal,
    MapEntry,
    Select,
)
from dralint.cel.parser.unescape import UnescapeError, unescape
from dralint.cel.runtime.values import INT64_MAX, INT64_MIN, UINT64_MAX, UInt, digits_value
from dralint.dataclass import dataclass

__all__ = ["ParseResult", "SyntaxIssue", "parse"]

_H = TypeVar("_H")
_T = TypeVar("_T")

MAX_CODE_POINTS = 100_000
MAX_DEPTH = 250

# The tokens an expression can start with, and how ANTLR lists them (symbolic names bare).
_START_TOKENS: tuple[str, ...] = ("[", "{", "(", ".", "-", "!", "true", "false", "null")
_START_TOKENS += ("NUM_FLOAT", "NUM_INT", "NUM_UINT", "STRING", "BYTES", "IDENTIFIER")
_START_KINDS = frozenset(_START_TOKENS)
_EXPR_START = "{" + ", ".join(t if t.isupper() else f"'{t}'" for t in _START_TOKENS) + "}"
# fmt: off
_RESERVED = frozenset((
    "as", "break", "const", "continue", "else", "false", "for", "function", "if", "import", "in", "let", "loop",
    "package", "namespace", "null", "return", "true", "var", "void", "while",
))
# fmt: on
_RELATION_OPS = {"<": "_<_", "<=": "_<=_", ">=": "_>=_", ">": "_>_", "==": "_==_", "!=": "_!=_", "in": "@in"}
_MUL_OPS = {"*": "_*_", "/": "_/_", "%": "_%_"}
_ADD_OPS = {"+": "_+_", "-": "_-_"}


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
                optional = self.optional_marker()
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
                optional = self.optional_marker()
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
        items = self.initializers("]", "listInit", "optExpr", self.expr, lambda element, optional: (element, optional))
        return [element for element, _ in items], [i for i, (_, optional) in enumerate(items) if optional]

    def map_init(self) -> list[MapEntry]:
        return self.initializers("}", "mapInitializerList", "optExpr", self.expr, self.map_entry)

    def map_entry(self, key: Expr, optional: bool) -> MapEntry:
        colon = self.expect(":")
        value = self.expr()
        return MapEntry(self.new_id(colon.start), key, value, optional)

    def field_init(self) -> list[tuple[int, str, Expr, bool]]:
        return self.initializers("}", "fieldInitializerList", "optField", self.escape_ident, self.field_entry)

    def field_entry(self, name: str, optional: bool) -> tuple[int, str, Expr, bool]:
        colon = self.expect(":")
        value = self.expr()
        return (self.new_id(colon.start), name, value, optional)

    def initializers(
        self, closing: str, list_rule: str, item_rule: str, head: Callable[[], _H], rest: Callable[[_H, bool], _T]
    ) -> list[_T]:
        """The items of a list, map or message literal up to ``closing``, each maybe marked optional.

        ``head`` parses what the item's grammar rule covers (the element, key or field name), and
        ``rest`` the remainder (``: value``); a trailing comma is allowed, even alone (``[,]``).
        """
        items: list[_T] = []
        if self.tok.kind == closing:
            return items
        if self.tok.kind == ",":
            self.advance()
            return items
        self.depth_enter(list_rule)
        while True:
            self.depth_enter(item_rule)
            optional = self.optional_marker()
            first = head()
            self.depth_exit(item_rule)
            items.append(rest(first, optional))
            if self.tok.kind == "," and self.peek().kind != closing:
                self.advance()
                continue
            if self.tok.kind == ",":
                self.advance()
            break
        self.depth_exit(list_rule)
        return items

    def optional_marker(self) -> bool:
        """Consume the ``?`` of an optional field, index or entry, if there is one."""
        if self.tok.kind == "?":
            self.advance()
            return True
        return False

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
            value = digits_value(text[2:], 16) if text.startswith("0x") else digits_value(text)
            value = -value if sign else value
            if not INT64_MIN <= value <= INT64_MAX:
                result = self.report(start, "invalid int literal")
            else:
                result = Literal(node_id, value, "int")
        elif kind == "NUM_UINT":
            text = token.text[:-1]
            value = digits_value(text[2:], 16) if text.startswith("0x") else digits_value(text)
            if value > UINT64_MAX:
                result = self.report(start, "invalid uint literal")
            else:
                result = Literal(node_id, UInt(value), "uint")
        elif kind == "NUM_FLOAT":
            number = float(sign + token.text)
            result = Literal(node_id, number, "double")
        elif kind == "STRING":
            decoded = unescape(token.text, is_bytes=False)
            if isinstance(decoded, UnescapeError):
                result = self.report(start, decoded.message)
            else:
                result = Literal(node_id, decoded, "string")
        elif kind == "BYTES":
            decoded_bytes = unescape(token.text[1:], is_bytes=True)
            if isinstance(decoded_bytes, UnescapeError):
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
        expander = MacroExpander(self.new_id, self.result.offsets[call_id])
        try:
            return expander.expand(function, target, args)
        except MacroError as error:
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
