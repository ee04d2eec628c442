"""CEL's standard declarations: operators, size, type conversions and the type identifiers.

Overload ids are cel-go's (``common/overloads``), so that cost rules keyed by them apply.
"""

from __future__ import annotations

import math
import re
from typing import Any

from dralint.cel.checker.decls import Environment, Overload, VersionedOption
from dralint.cel.checker.types import (
    BOOL,
    BYTES,
    DOUBLE,
    DURATION,
    DYN,
    INT,
    NULL,
    STRING,
    TIMESTAMP,
    TYPE,
    UINT,
    Type,
    list_of,
    map_of,
    param,
    type_of,
)
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib.time import (
    duration_to_string,
    parse_duration,
    parse_timestamp,
    timestamp_from_seconds,
    timestamp_to_string,
)
from dralint.cel.parser.macros import MACROS_TWO_VAR
from dralint.cel.runtime import arithmetic
from dralint.cel.runtime import semantics as runtime
from dralint.cel.runtime.values import (
    INT64_MAX,
    INT64_MIN,
    UINT64_MAX,
    Duration,
    Timestamp,
    TypeValue,
    UInt,
    digits_value,
)
from dralint.regex import compiled_on_first_use

__all__ = ["RELEASES", "format_double", "install"]

A = param("A")
B = param("B")
LIST_A = list_of(A)
MAP_AB = map_of(A, B)
_NUMERIC = (("int64", INT), ("uint64", UINT), ("double", DOUBLE))


def _o(overload_id: str, args: tuple[Type, ...], result: Type, impl: Any = None, *, member: bool = False) -> Overload:
    params = tuple(sorted({t.name for a in (*args, result) for t in _params(a)}))
    return Overload(overload_id, args, result, impl, member, params)


def _params(t: Type) -> list[Type]:
    if t.kind == "param":
        return [t]
    return [p for inner in t.params for p in _params(inner)]


def install(env: Environment, *, cross_type_numeric: bool = True) -> None:
    """Declare the standard functions and type identifiers in ``env``."""
    for name, t in (
        ("bool", BOOL),
        ("bytes", BYTES),
        ("double", DOUBLE),
        ("google.protobuf.Duration", DURATION),
        ("int", INT),
        ("list", LIST_A),
        ("map", MAP_AB),
        ("null_type", NULL),
        ("string", STRING),
        ("google.protobuf.Timestamp", TIMESTAMP),
        ("type", TYPE),
        ("uint", UINT),
        ("google.protobuf.Value", DYN),
        ("google.protobuf.Any", Type("any", "google.protobuf.Any")),
        ("google.protobuf.Struct", map_of(STRING, DYN)),
        ("google.protobuf.ListValue", list_of(DYN)),
    ):
        env.type_idents[name] = type_of(t)

    env.add("_?_:_", _o("conditional", (BOOL, A, A), A))
    env.add("_&&_", _o("logical_and", (BOOL, BOOL), BOOL))
    env.add("_||_", _o("logical_or", (BOOL, BOOL), BOOL))
    env.add("!_", _o("logical_not", (BOOL,), BOOL), singleton=_logical_not)
    env.add("@not_strictly_false", _o("not_strictly_false", (BOOL,), BOOL))
    env.add("_==_", _o("equals", (A, A), BOOL), singleton=runtime.equal)
    env.add("_!=_", _o("not_equals", (A, A), BOOL), singleton=runtime.not_equal)

    add = [
        _o("add_bytes", (BYTES, BYTES), BYTES),
        _o("add_double", (DOUBLE, DOUBLE), DOUBLE),
        _o("add_duration_duration", (DURATION, DURATION), DURATION),
        _o("add_duration_timestamp", (DURATION, TIMESTAMP), TIMESTAMP),
        _o("add_timestamp_duration", (TIMESTAMP, DURATION), TIMESTAMP),
        _o("add_int64", (INT, INT), INT),
        _o("add_list", (LIST_A, LIST_A), LIST_A),
        _o("add_string", (STRING, STRING), STRING),
        _o("add_uint64", (UINT, UINT), UINT),
    ]
    env.add("_+_", *add, singleton=arithmetic.add)
    env.add(
        "_/_",
        _o("divide_double", (DOUBLE, DOUBLE), DOUBLE),
        _o("divide_int64", (INT, INT), INT),
        _o("divide_uint64", (UINT, UINT), UINT),
        singleton=arithmetic.divide,
    )
    env.add(
        "_%_",
        _o("modulo_int64", (INT, INT), INT),
        _o("modulo_uint64", (UINT, UINT), UINT),
        singleton=arithmetic.modulo,
    )
    env.add(
        "_*_",
        _o("multiply_double", (DOUBLE, DOUBLE), DOUBLE),
        _o("multiply_int64", (INT, INT), INT),
        _o("multiply_uint64", (UINT, UINT), UINT),
        singleton=arithmetic.multiply,
    )
    env.add(
        "-_",
        _o("negate_double", (DOUBLE,), DOUBLE),
        _o("negate_int64", (INT,), INT),
        singleton=arithmetic.negate,
    )
    env.add(
        "_-_",
        _o("subtract_double", (DOUBLE, DOUBLE), DOUBLE),
        _o("subtract_duration_duration", (DURATION, DURATION), DURATION),
        _o("subtract_int64", (INT, INT), INT),
        _o("subtract_timestamp_duration", (TIMESTAMP, DURATION), TIMESTAMP),
        _o("subtract_timestamp_timestamp", (TIMESTAMP, TIMESTAMP), DURATION),
        _o("subtract_uint64", (UINT, UINT), UINT),
        singleton=arithmetic.subtract,
    )
    for op, stem, test in (
        ("_<_", "less", lambda c: c < 0),
        ("_<=_", "less_equals", lambda c: c <= 0),
        ("_>_", "greater", lambda c: c > 0),
        ("_>=_", "greater_equals", lambda c: c >= 0),
    ):
        overloads = [
            _o(f"{stem}_bool", (BOOL, BOOL), BOOL),
            _o(f"{stem}_string", (STRING, STRING), BOOL),
            _o(f"{stem}_bytes", (BYTES, BYTES), BOOL),
            _o(f"{stem}_timestamp", (TIMESTAMP, TIMESTAMP), BOOL),
            _o(f"{stem}_duration", (DURATION, DURATION), BOOL),
        ]
        for left_name, left in _NUMERIC:
            for right_name, right in _NUMERIC:
                if left_name == right_name:
                    overloads.append(_o(f"{stem}_{left_name}", (left, right), BOOL))
                elif cross_type_numeric:
                    overloads.append(_o(f"{stem}_{left_name}_{right_name}", (left, right), BOOL))
        env.add(op, *overloads, singleton=_comparison(op, test))
    env.add(
        "_[_]",
        _o("index_list", (LIST_A, INT), A),
        _o("index_map", (MAP_AB, A), B),
        singleton=runtime.index,
    )
    env.add("@in", _o("in_list", (A, LIST_A), BOOL), _o("in_map", (A, MAP_AB), BOOL), singleton=runtime.contains)
    size_overloads = []
    for stem, t in (("bytes", BYTES), ("list", LIST_A), ("map", MAP_AB), ("string", STRING)):
        size_overloads.append(_o(f"size_{stem}", (t,), INT))
        size_overloads.append(_o(f"{stem}_size", (t,), INT, member=True))
    env.add("size", *size_overloads, singleton=runtime.size)

    env.add("type", _o("type", (A,), type_of(A), _type_of))
    env.add("dyn", _o("to_dyn", (A,), DYN, lambda v: v))
    env.add(
        "int",
        _o("int64_to_int64", (INT,), INT, lambda v: v),
        _o("double_to_int64", (DOUBLE,), INT, _double_to_int),
        _o("duration_to_int64", (DURATION,), INT, lambda d: d.nanos),
        _o("string_to_int64", (STRING,), INT, _string_to_int),
        _o("timestamp_to_int64", (TIMESTAMP,), INT, lambda t: t.nanos // 10**9),
        _o("uint64_to_int64", (UINT,), INT, _uint_to_int),
    )
    env.add(
        "uint",
        _o("uint64_to_uint64", (UINT,), UINT, lambda v: v),
        _o("double_to_uint64", (DOUBLE,), UINT, _double_to_uint),
        _o("int64_to_uint64", (INT,), UINT, _int_to_uint),
        _o("string_to_uint64", (STRING,), UINT, _string_to_uint),
    )
    env.add(
        "double",
        _o("double_to_double", (DOUBLE,), DOUBLE, lambda v: v),
        _o("int64_to_double", (INT,), DOUBLE, float),
        _o("string_to_double", (STRING,), DOUBLE, _string_to_double),
        _o("uint64_to_double", (UINT,), DOUBLE, float),
    )
    env.add(
        "string",
        _o("string_to_string", (STRING,), STRING, lambda v: v),
        _o("bool_to_string", (BOOL,), STRING, lambda v: "true" if v else "false"),
        _o("bytes_to_string", (BYTES,), STRING, bytes_to_string),
        _o("double_to_string", (DOUBLE,), STRING, format_double),
        _o("duration_to_string", (DURATION,), STRING, duration_to_string),
        _o("int64_to_string", (INT,), STRING, str),
        _o("timestamp_to_string", (TIMESTAMP,), STRING, timestamp_to_string),
        _o("uint64_to_string", (UINT,), STRING, lambda v: str(int(v))),
    )
    env.add(
        "bool",
        _o("bool_to_bool", (BOOL,), BOOL, lambda v: v),
        _o("string_to_bool", (STRING,), BOOL, _string_to_bool),
    )
    env.add(
        "bytes",
        _o("bytes_to_bytes", (BYTES,), BYTES, lambda v: v),
        _o("string_to_bytes", (STRING,), BYTES, lambda s: s.encode("utf-8")),
    )
    env.add(
        "duration",
        _o("duration_to_duration", (DURATION,), DURATION, lambda v: v),
        _o("int64_to_duration", (INT,), DURATION, lambda n: Duration(n)),
        _o("string_to_duration", (STRING,), DURATION, _string_to_duration),
    )
    env.add(
        "timestamp",
        _o("timestamp_to_timestamp", (TIMESTAMP,), TIMESTAMP, lambda v: v),
        _o("int64_to_timestamp", (INT,), TIMESTAMP, timestamp_from_seconds),
        _o("string_to_timestamp", (STRING,), TIMESTAMP, _string_to_timestamp),
    )


def _logical_not(value: Any) -> bool:
    if value is True:
        return False
    if value is False:
        return True
    runtime.no_such_overload()


def _comparison(function: str, test: Any) -> Any:
    def compare(a: Any, b: Any) -> bool:
        return bool(test(runtime.compare(a, b, function)))

    return compare


def _type_of(value: Any) -> TypeValue:
    return TypeValue(runtime.type_name(value))


def _conversion_error(source: str, target: str) -> CelRuntimeError:
    return CelRuntimeError(f"type conversion error from '{source}' to '{target}'")


def _double_to_int(value: float) -> int:
    if math.isnan(value) or math.isinf(value) or value <= INT64_MIN or value >= float(INT64_MAX):
        raise CelRuntimeError("integer overflow")
    return int(value)


def _uint_to_int(value: UInt) -> int:
    if value > INT64_MAX:
        raise CelRuntimeError("integer overflow")
    return int(value)


def _double_to_uint(value: float) -> UInt:
    if math.isnan(value) or math.isinf(value) or value < 0 or value >= float(UINT64_MAX):
        raise CelRuntimeError("unsigned integer overflow")
    return UInt(int(value))


def _int_to_uint(value: int) -> UInt:
    if value < 0:
        raise CelRuntimeError("unsigned integer overflow")
    return UInt(value)


_decimal_re = compiled_on_first_use(r"[+-]?[0-9]+")
_unsigned_re = compiled_on_first_use(r"\+?[0-9]+")
_float_re = compiled_on_first_use(
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)", re.IGNORECASE
)


def _string_to_int(text: str) -> int:
    if _decimal_re().fullmatch(text):
        value = digits_value(text)
        if INT64_MIN <= value <= INT64_MAX:
            return value
    raise _conversion_error("string", "int")


def _string_to_uint(text: str) -> UInt:
    if _unsigned_re().fullmatch(text):
        value = digits_value(text)
        if value <= UINT64_MAX:
            return UInt(value)
    raise _conversion_error("string", "uint")


def _string_to_double(text: str) -> float:
    if _float_re().fullmatch(text):
        value = float(text)
        if not math.isinf(value) or "inf" in text.lower():
            return value
    raise _conversion_error("string", "double")


def _string_to_bool(text: str) -> bool:
    if text in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if text in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    raise _conversion_error("string", "bool")


def _string_to_duration(text: str) -> Duration:
    nanos = parse_duration(text)
    if nanos is None:
        raise _conversion_error("string", "google.protobuf.Duration")
    return Duration(nanos)


def _string_to_timestamp(text: str) -> Timestamp:
    nanos = parse_timestamp(text)
    if nanos is None:
        raise _conversion_error("string", "google.protobuf.Timestamp")
    return arithmetic.checked_timestamp(nanos)


def bytes_to_string(value: bytes) -> str:
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise CelRuntimeError("invalid UTF-8 in bytes, cannot convert to string") from None


def format_double(value: float) -> str:
    """Go's ``strconv.FormatFloat(v, 'g', -1, 64)`` (what cel-go's ``string(double)`` prints)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"
    sign = "-" if value < 0 else ""
    # repr gives the shortest round-tripping digits; normalise them to digits and a point position.
    mantissa, _, exponent_text = f"{abs(value)!r}".partition("e")
    whole, _, fraction = mantissa.partition(".")
    all_digits = whole + fraction
    stripped = all_digits.lstrip("0")
    point = len(whole) - (len(all_digits) - len(stripped)) + int(exponent_text or 0)
    digits = stripped.rstrip("0") or "0"
    exponent = point - 1
    if exponent < -4 or exponent >= 6:
        tail = digits[1:]
        return f"{sign}{digits[0]}{'.' + tail if tail else ''}e{'+' if exponent >= 0 else '-'}{abs(exponent):02d}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{sign}{digits}{'0' * (point - len(digits))}"
    return f"{sign}{digits[:point]}.{digits[point:]}"


def _cross_type_numeric(env: Environment) -> None:
    env.cross_type_numeric = True  # 1 < 1.5 and 1u == 1 compare across numeric types


def _literal_validators(env: Environment) -> None:
    env.literal_validators = True  # regex, duration and timestamp literals are checked when compiled


def _two_var_comprehensions(env: Environment) -> None:
    env.macros = env.macros | MACROS_TWO_VAR
    k, v = param("K"), param("V")
    env.add(
        "cel.@mapInsert",
        Overload("@mapInsert_map_key_value", (map_of(k, v), k, v), map_of(k, v)),
        Overload("@mapInsert_map_map", (map_of(k, v), map_of(k, v)), map_of(k, v)),
    )


# The releases whose base environment introduced the standard declarations and language options.
RELEASES = (
    VersionedOption("1.0", install),
    VersionedOption("1.28", _cross_type_numeric),
    VersionedOption("1.29", _literal_validators),
    VersionedOption("1.32", _two_var_comprehensions),
)
