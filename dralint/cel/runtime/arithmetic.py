"""cel-go's arithmetic over plain Python values: 64-bit overflow, Go's division, durations, timestamps.

Each function is the singleton of a CEL operator (``_+_``, ``_-_``, ``_*_``, ``_/_``, ``_%_``,
``-_``): it dispatches on the operand types itself and fails with cel-go's texts.
"""

from __future__ import annotations

import math
from typing import Any

from dralint.cel.runtime.semantics import fail, operand_mismatch
from dralint.cel.runtime.values import (
    INT64_MAX,
    INT64_MIN,
    MAX_LIST_SIZE,
    MAX_STRING_SIZE,
    UINT64_MAX,
    Duration,
    Timestamp,
    UInt,
    refuse_larger,
)

__all__ = ["add", "checked_duration", "checked_timestamp", "divide", "modulo", "multiply", "negate", "subtract"]

# The Python classes of the operands with cel-go's Adder, Subtractor, ... traits.
_ADDERS = frozenset((int, UInt, float, str, bytes, list, tuple, Duration, Timestamp))
_SUBTRACTORS = frozenset((int, UInt, float, Duration, Timestamp))
_MULTIPLIERS = frozenset((int, UInt, float))  # also the dividers
_MODDERS = frozenset((int, UInt))
_NEGATERS = frozenset((int, float, bool, Duration))


def _int_result(value: int) -> int:
    if value < INT64_MIN or value > INT64_MAX:
        fail("integer overflow")
    return value


def _uint_result(value: int) -> UInt:
    if value < 0 or value > UINT64_MAX:
        fail("unsigned integer overflow")
    return UInt(value)


def add(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        return _int_result(a + b)
    if ta is float and tb is float:
        return a + b
    if ta is str and tb is str:
        refuse_larger(len(a) + len(b), MAX_STRING_SIZE)
        return a + b
    if ta is UInt and tb is UInt:
        return _uint_result(a + b)
    if ta in (list, tuple) and tb in (list, tuple):
        refuse_larger(len(a) + len(b), MAX_LIST_SIZE)
        return [*a, *b]
    if ta is bytes and tb is bytes:
        refuse_larger(len(a) + len(b), MAX_STRING_SIZE)
        return a + b
    if ta is Duration and tb is Duration:
        return checked_duration(a.nanos + b.nanos)
    if ta is Timestamp and tb is Duration:
        return checked_timestamp(a.nanos + b.nanos)
    if ta is Duration and tb is Timestamp:
        return checked_timestamp(a.nanos + b.nanos)
    operand_mismatch("_+_", a, _ADDERS)


def subtract(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        return _int_result(a - b)
    if ta is float and tb is float:
        return a - b
    if ta is UInt and tb is UInt:
        return _uint_result(a - b)
    if ta is Duration and tb is Duration:
        return checked_duration(a.nanos - b.nanos)
    if ta is Timestamp and tb is Duration:
        return checked_timestamp(a.nanos - b.nanos)
    if ta is Timestamp and tb is Timestamp:
        return checked_duration(a.nanos - b.nanos)
    operand_mismatch("_-_", a, _SUBTRACTORS)


def multiply(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        return _int_result(a * b)
    if ta is float and tb is float:
        return a * b
    if ta is UInt and tb is UInt:
        return _uint_result(a * b)
    operand_mismatch("_*_", a, _MULTIPLIERS)


def divide(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        if b == 0:
            fail("division by zero")
        quotient = abs(a) // abs(b)
        return _int_result(quotient if (a >= 0) == (b >= 0) else -quotient)
    if ta is float and tb is float:
        if b == 0:
            if a == 0 or math.isnan(a):
                return math.nan
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        return a / b
    if ta is UInt and tb is UInt:
        if b == 0:
            fail("division by zero")
        return UInt(a // b)
    operand_mismatch("_/_", a, _MULTIPLIERS)


def modulo(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        if b == 0:
            fail("modulus by zero")
        if a == INT64_MIN and b == -1:
            fail("integer overflow")
        remainder = abs(a) % abs(b)
        return remainder if a >= 0 else -remainder
    if ta is UInt and tb is UInt:
        if b == 0:
            fail("modulus by zero")
        return UInt(a % b)
    operand_mismatch("_%_", a, _MODDERS)


def negate(a: Any) -> Any:
    ta = type(a)
    if ta is int:
        return _int_result(-a)
    if ta is float:
        return -a
    if ta is Duration:
        return checked_duration(-a.nanos)
    operand_mismatch("-_", a, _NEGATERS)


# Durations are Go time.Duration (int64 nanoseconds); timestamps span years 0001-9999.
MIN_TIMESTAMP_NANOS = -62135596800 * 10**9
MAX_TIMESTAMP_NANOS = 253402300799 * 10**9 + 999_999_999


def checked_duration(nanos: int) -> Duration:
    if nanos < INT64_MIN or nanos > INT64_MAX:
        fail("integer overflow")
    return Duration(nanos)


def checked_timestamp(nanos: int) -> Timestamp:
    if nanos < MIN_TIMESTAMP_NANOS or nanos > MAX_TIMESTAMP_NANOS:
        fail("timestamp overflow")
    return Timestamp(nanos)
