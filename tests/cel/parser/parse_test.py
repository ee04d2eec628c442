"""The parser on its own (dralint/cel/parser): text to AST, macros expanded, and syntax errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dralint.cel.parser.nodes import Call, Comprehension, CreateList, CreateMap, Expr, Ident, Literal, Select
from dralint.cel.parser.parse import parse
from testing.cel import cases

CASES = cases("parser/cases.yaml")


def render(expr: Expr) -> str:
    """A compact, unambiguous text of an AST (see the fixture's header)."""
    if isinstance(expr, Literal):
        return _literal(expr)
    if isinstance(expr, Ident):
        return expr.name
    if isinstance(expr, Select):
        text = f"{render(expr.operand)}.{expr.field}"
        return f"has({text})" if expr.test_only else text
    if isinstance(expr, Call):
        args = ", ".join(render(a) for a in expr.args)
        return (
            f"{render(expr.target)}.{expr.function}({args})" if expr.target is not None else f"{expr.function}({args})"
        )
    if isinstance(expr, CreateList):
        return "[" + ", ".join(render(e) for e in expr.elements) + "]"
    if isinstance(expr, CreateMap):
        return "{" + ", ".join(f"{render(e.key)}: {render(e.value)}" for e in expr.entries) + "}"
    if isinstance(expr, Comprehension):
        parts = (expr.iter_range, expr.accu_init, expr.loop_condition, expr.loop_step, expr.result)
        rendered = [render(p) for p in parts]
        return f"__comprehension__({expr.iter_var}, {rendered[0]}, {expr.accu_var}, {', '.join(rendered[1:])})"
    raise AssertionError(f"no rendering for {expr!r}")


def _literal(literal: Literal) -> str:
    value: Any = literal.value
    if literal.kind == "string":
        return json.dumps(value, ensure_ascii=False)
    if literal.kind == "bytes":
        return 'b"' + value.decode("latin-1") + '"'
    if literal.kind == "uint":
        return f"{int(value)}u"
    if literal.kind == "bool":
        return "true" if value else "false"
    if literal.kind == "null":
        return "null"
    return repr(value)


@pytest.mark.parametrize("case", CASES, ids=[c["expression"] for c in CASES])
def test_parse_gives_the_tree_or_the_syntax_errors(case: dict[str, Any]) -> None:
    result = parse(case["expression"])
    if "issues" in case:
        assert [[i.offset, i.message] for i in result.issues] == case["issues"]
    else:
        assert result.issues == []
        assert result.expr is not None
        assert render(result.expr) == case["ast"]


def test_parse_records_each_node_offset() -> None:
    result = parse("a + b.c")
    assert result.expr is not None
    call = result.expr
    assert isinstance(call, Call)
    left, right = call.args
    assert [result.offsets[n.id] for n in (call, left, right)] == [2, 0, 5]
