"""Kubernetes' CEL quantity library (``k8s.io/apiserver/pkg/cel/library/quantity.go``).

Quantities returned by ``add``/``sub`` are "boxed" (a pointer in Go): they compare equal when on
the left of ``==`` but make ``==`` fail when on the right, exactly as upstream.
"""

from __future__ import annotations

import math

from dralint.apimachinery.quantity import Quantity, QuantityError, parse_quantity
from dralint.cel.checker.decls import Environment, Overload, VersionedOption
from dralint.cel.checker.types import BOOL, DOUBLE, INT, STRING, object_type
from dralint.cel.errors import CelRuntimeError
from dralint.cel.pricing import Pricing
from dralint.cel.runtime import semantics as runtime

__all__ = ["QUANTITY", "RELEASES", "BoxedQuantity", "install"]

QUANTITY = object_type("kubernetes.Quantity")


class BoxedQuantity(Quantity):
    """A quantity computed by ``add``/``sub`` (Go's ``*Quantity``)."""

    __slots__ = ()


runtime.TYPE_NAMES[BoxedQuantity] = "kubernetes.Quantity"
runtime.GO_TYPES[BoxedQuantity] = "*cel.Quantity"
runtime.STRICT_EQUAL[BoxedQuantity] = Quantity


def _quantity(text: str) -> Quantity:
    try:
        return parse_quantity(text)
    except QuantityError as error:
        raise CelRuntimeError(str(error)) from None


def _is_quantity(text: str) -> bool:
    try:
        parse_quantity(text)
    except QuantityError:
        return False
    return True


def _as_integer(q: Quantity) -> int:
    value = q.as_int64()
    if value is None:
        raise CelRuntimeError("cannot convert value to integer")
    return value


def _approximate_float(q: Quantity) -> float:
    """``AsApproximateFloat64``: the mantissa times ``math.Pow10``, which is +Inf past 1e308."""
    if q.fast is not None:
        value, scale = q.fast
        return float(value) if scale == 0 else float(value) * _pow10(scale)
    try:
        return float(q.value)
    except OverflowError:
        return math.inf if q.value > 0 else -math.inf


def _pow10(exponent: int) -> float:
    """Go's ``math.Pow10``: 0 below 1e-323, +Inf above 1e308 (where Python raises)."""
    if exponent > 308:
        return math.inf
    if exponent < -323:
        return 0.0
    return float(10**exponent) if exponent >= 0 else 10.0**exponent


def _boxed(q: Quantity) -> BoxedQuantity:
    return BoxedQuantity(q.value, q.format, None, q.fast)


def _add(q: Quantity, other: Quantity | int) -> BoxedQuantity:
    if type(other) is int:
        other = Quantity(other, "DecimalExponent", None, (other, 0))
    assert isinstance(other, Quantity)
    return _boxed(q.add(other))


def _sub(q: Quantity, other: Quantity | int) -> BoxedQuantity:
    if type(other) is int:
        other = Quantity(other, "DecimalExponent", None, (other, 0))
    assert isinstance(other, Quantity)
    return _boxed(q.sub(other))


def install(env: Environment) -> None:
    q = QUANTITY
    env.add("quantity", Overload("string_to_quantity", (STRING,), q, _quantity), pricing=Pricing.PARSE)
    env.add("isQuantity", Overload("is_quantity_string", (STRING,), BOOL, _is_quantity), pricing=Pricing.PARSE)
    # Everything on a parsed quantity costs one unit.
    for name, *overloads in (
        ("sign", Overload("quantity_sign", (q,), INT, lambda a: a.sign())),
        ("isGreaterThan", Overload("quantity_is_greater_than", (q, q), BOOL, lambda a, b: a.cmp(b) == 1, member=True)),
        ("isLessThan", Overload("quantity_is_less_than", (q, q), BOOL, lambda a, b: a.cmp(b) == -1, member=True)),
        ("compareTo", Overload("quantity_compare_to", (q, q), INT, lambda a, b: a.cmp(b), member=True)),
        ("asApproximateFloat", Overload("quantity_get_float", (q,), DOUBLE, _approximate_float, member=True)),
        ("asInteger", Overload("quantity_get_int", (q,), INT, _as_integer, member=True)),
        ("isInteger", Overload("quantity_is_integer", (q,), BOOL, lambda a: a.as_int64() is not None, member=True)),
        (
            "add",
            Overload("quantity_add", (q, q), q, _add, member=True),
            Overload("quantity_add_int", (q, INT), q, _add, member=True),
        ),
        (
            "sub",
            Overload("quantity_sub", (q, q), q, _sub, member=True),
            Overload("quantity_sub_int", (q, INT), q, _sub, member=True),
        ),
    ):
        env.add(name, *overloads, pricing=Pricing.UNIT)


# The release whose base environment introduced these declarations.
RELEASES = (VersionedOption("1.28", install),)
