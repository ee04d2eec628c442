"""Fuzzing: any input ends in a value or a CEL error (compile or runtime), never another exception.

Expressions are drawn two ways: random text over CEL's alphabet, and random well-formed-ish
token sequences from a small grammar (operators, literals, device paths, library calls), so that
both the parser's error paths and the checker/compiler/runtime see unusual input.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dralint.api.model import device as model_device
from dralint.cel import CelCompileError, CelRuntimeError, compile_selector, device_value
from dralint.cel.device import DeviceValue

DEVICE: DeviceValue = device_value(
    "gpu.example.com",
    model_device(
        {
            "name": "gpu-0",
            "attributes": {
                "model": {"string": "A100"},
                "count": {"int": 4},
                "healthy": {"bool": True},
                "version": {"version": "1.2.3"},
                "ports": {"ints": [1, 2, 3]},
                "dra.example.com/zone": {"string": "zone-a"},
            },
            "capacity": {"memory": {"value": "80Gi"}, "cores": {"value": "1500m"}},
        }
    ),
)

ATOMS = [
    "1",
    "0",
    "-1",
    "2u",
    "1.5",
    "-0.0",
    '"a"',
    "'b'",
    'r"\\d"',
    'b"x"',
    "true",
    "false",
    "null",
    "[]",
    "{}",
    "[1, 2]",
    '{"a": 1}',
    "device",
    "device.driver",
    'device.attributes["gpu.example.com"]',
    'device.attributes["gpu.example.com"].model',
    'device.attributes["gpu.example.com"].count',
    'device.attributes["gpu.example.com"].ports',
    'device.attributes["gpu.example.com"].version',
    'device.attributes["nope"].x',
    'device.capacity["gpu.example.com"].memory',
    'quantity("1Gi")',
    'semver("1.0.0")',
    "lists.range(3)",
    'ip("10.0.0.1")',
    'cidr("10.0.0.0/8")',
    'duration("1s")',
    'timestamp("2024-01-01T00:00:00Z")',
    "x",
    "optional.none()",
    "optional.of(1)",
]
BINARY = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "in"]
MEMBERS = [
    ".size()",
    ".all(x, x)",
    ".exists(x, true)",
    ".map(x, x)",
    ".filter(x, x > 1)",
    ".orValue(1)",
    ".hasValue()",
    '.compareTo(quantity("1"))',
    '.isGreaterThan(semver("1.0.0"))',
    '.startsWith("a")',
    '.matches("^a")',
    ".includes(1)",
    ".?model",
    "[0]",
    '["a"]',
    "[?0]",
    ".sum()",
    '.join(",")',
    '.split("a")',
    ".format([1])",
    ".transformList(i, v, v)",
]


@st.composite
def expressions(draw: Any, depth: int = 3) -> str:
    if depth == 0 or draw(st.booleans()):
        text = draw(st.sampled_from(ATOMS))
    else:
        kind = draw(st.integers(0, 5))
        left = draw(expressions(depth - 1))
        if kind == 0:
            text = f"{left} {draw(st.sampled_from(BINARY))} {draw(expressions(depth - 1))}"
        elif kind == 1:
            text = f"({left}){draw(st.sampled_from(MEMBERS))}"
        elif kind == 2:
            text = f"{left} ? {draw(expressions(depth - 1))} : {draw(expressions(depth - 1))}"
        elif kind == 3:
            text = f"!{left}" if draw(st.booleans()) else f"-({left})"
        elif kind == 4:
            text = f"cel.bind(v, {left}, v)"
        else:
            text = f"[{left}, {draw(expressions(depth - 1))}]"
    return text


def _run(expression: str) -> None:
    try:
        selector = compile_selector(expression)
    except CelCompileError as error:
        assert isinstance(error.message, str) and error.message
        return
    try:
        result = selector.matches(DEVICE)
    except CelRuntimeError as error:
        assert isinstance(error.message, str)
        return
    assert result in (True, False)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_fuzz_structured_expression_ends_in_value_or_cel_error(expression: str) -> None:
    _run(expression)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789abxyz._-+*/%!?:()[]{},<>=&|'\"`\\ \nrbu@#$")), max_size=40))
def test_fuzz_random_text_ends_in_value_or_cel_error(text: str) -> None:
    _run(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_fuzz_unicode_text_ends_in_value_or_cel_error(text: str) -> None:
    _run(text)
