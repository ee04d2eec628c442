"""``<string>.format(<list>)`` of cel-go's strings extension (version < 4), and its compile-time check.

The same clause parser serves both: at run time with the argument values, at compile time
(cel-go's ``stringFormatValidator``) with the static types of a literal argument list.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from dralint.cel.checker.types import Type
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib.core import bytes_to_string, format_double
from dralint.cel.lib.time import duration_to_string, go_atoi, timestamp_to_string
from dralint.cel.parser.nodes import Call, CreateList, CreateMap, Expr, Literal
from dralint.cel.runtime import semantics as runtime
from dralint.cel.runtime.values import MAX_STRING_SIZE, Duration, Timestamp, TypeValue, UInt, refuse_larger

__all__ = ["check_format_call", "format_string"]


class _FormatError(Exception):
    def __init__(self, message: str, node_id: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.node_id = node_id


_SUPERSCRIPT = dict(zip("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹", strict=True))
_CLAUSE_ERRORS = {
    "s": "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, "
    "and timestamps, was given {}",
    "d": "decimal clause can only be used on integers, was given {}",
    "f": "fixed-point clause can only be used on doubles, was given {}",
    "e": "scientific clause can only be used on doubles, was given {}",
    "b": "only integers and bools can be formatted as binary, was given {}",
    "x": "only integers, byte buffers, and strings can be formatted as hex, was given {}",
    "o": "octal clause can only be used on integers, was given {}",
}


def _parse(format_str: str, size: int, clause: Callable[[str, int | None, int], str]) -> tuple[str, int]:
    """Walk ``format_str`` calling ``clause(kind, precision, arg_index)``; (result, arguments used)."""
    out: list[str] = []
    built = 0
    i, arg_index = 0, 0
    data = format_str
    while i < len(data):
        if data[i] != "%":
            out.append(data[i])
            i += 1
            continue
        if i + 1 < len(data) and data[i + 1] == "%":
            out.append("%")
            i += 2
            continue
        if i + 1 >= len(data):
            raise _FormatError("unexpected end of string")
        if arg_index >= size:
            raise _FormatError(f"index {arg_index} out of range")
        j = i + 1
        precision: int | None = None
        if data[j] == ".":
            j += 1
            digits = ""
            while True:
                if j >= len(data):
                    raise _FormatError(
                        "could not parse formatting clause: error while parsing precision: "
                        "could not find end of precision specifier"
                    )
                if not ("0" <= data[j] <= "9"):
                    break
                digits += data[j]
                j += 1
            try:
                precision = go_atoi(digits)
            except CelRuntimeError as error:
                raise _FormatError(
                    "could not parse formatting clause: error while parsing precision: "
                    f"error while converting precision to integer: {error.message}"
                ) from None
        kind = data[j]
        j += 1
        if kind not in "sdfebxXo":
            raise _FormatError(f'could not parse formatting clause: unrecognized formatting clause "{kind}"')
        text = clause(kind, precision, arg_index)
        built += len(text)
        refuse_larger(built, MAX_STRING_SIZE)
        out.append(text)
        arg_index += 1
        i = j
    return "".join(out), arg_index


def format_string(format_str: str, args: list[Any]) -> str:
    def clause(kind: str, precision: int | None, index: int) -> str:
        try:
            return _format_value(kind, precision, args[index])
        except _FormatError as error:
            raise _FormatError(f"error during formatting: {error.message}") from None

    try:
        return _parse(format_str, len(args), clause)[0]
    except _FormatError as error:
        raise CelRuntimeError(error.message) from None


# Go's fmt (and golang.org/x/text's printer that cel-go formats with) gives up on a width or
# precision once the digits read so far exceed a million: the clause prints "%!(NOVERB)".
_GO_MAX_WIDTH = 10**6
_NO_VERB = "%!(NOVERB)"


def _go_reads_number(number: int) -> bool:
    read = 0
    for digit in str(number):
        if read > _GO_MAX_WIDTH:
            return False
        read = read * 10 + int(digit)
    return True


def _format_value(kind: str, precision: int | None, value: Any) -> str:
    name = runtime.type_name(value)
    t = type(value)
    if kind == "s":
        return _as_string(value)
    if kind == "d":
        if t is int or t is UInt:
            return str(int(value))
        raise _FormatError(_CLAUSE_ERRORS["d"].format(name))
    if kind in "fe":
        if t is str and value in ("NaN", "Infinity", "-Infinity"):
            value = float(value.replace("Infinity", "inf"))
        elif t is not float:
            raise _FormatError(_CLAUSE_ERRORS[kind].format(name))
        # cel-go writes "%.<p>f" for the fixed clause but "%<p>e" for the scientific one, so
        # there the number is a width (padding on the left) and the precision stays 6.
        digits = 6 if precision is None or kind == "e" else precision
        width = precision if kind == "e" and precision is not None else 0
        if not _go_reads_number(digits) or not _go_reads_number(width):
            return _NO_VERB
        refuse_larger(max(digits, width), MAX_STRING_SIZE)
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "∞" if value > 0 else "-∞"
        if kind == "f":
            return _group_thousands(f"{value:.{digits}f}")
        mantissa, _, exponent = f"{value:.{digits}e}".partition("e")
        sign = "⁻" if exponent.startswith("-") else ""
        power = "".join(_SUPERSCRIPT[d] for d in exponent.lstrip("+-"))
        return f"{mantissa}\u202f×\u202f10{sign}{power}".rjust(width)
    if kind == "b":
        if t is bool:
            return "1" if value else "0"
        if t is int or t is UInt:
            return format(int(value), "b")
        raise _FormatError(_CLAUSE_ERRORS["b"].format(name))
    if kind in "xX":
        if t is str:
            text = value.encode("utf-8").hex()
        elif t is bytes:
            text = value.hex()
        elif t is int or t is UInt:
            text = format(int(value), "x")
        else:
            raise _FormatError(_CLAUSE_ERRORS["x"].format(name))
        return str(text.upper() if kind == "X" else text)
    if t is int or t is UInt:
        return format(int(value), "o")
    raise _FormatError(_CLAUSE_ERRORS["o"].format(name))


def _group_thousands(text: str) -> str:
    """golang.org/x/text's en_US printer groups the integer part with commas."""
    sign = "-" if text.startswith("-") else ""
    whole, _, fraction = text.lstrip("-").partition(".")
    grouped = f"{int(whole):,}"
    return f"{sign}{grouped}{'.' + fraction if fraction else ''}"


def _as_string(value: Any) -> str:
    t = type(value)
    if t is str:
        return str(value)
    if t is bool:
        return "true" if value else "false"
    if t is int or t is UInt:
        return str(int(value))
    if t is float:
        return format_double(value)
    if t is bytes:
        try:
            return bytes_to_string(value)
        except CelRuntimeError as error:
            raise _FormatError(f'could not convert argument "{error.message}" to string') from None
    if value is None:
        return "null"
    if t is Timestamp:
        return timestamp_to_string(value)
    if t is Duration:
        return duration_to_string(value)
    if t is TypeValue:
        return str(value.name)
    if t is list or t is tuple:
        return "[" + ", ".join(_quoted(v) for v in value) + "]"
    if isinstance(value, Mapping):
        pairs = []
        for key, item in value.items():
            if type(key) not in (str, bool, int, UInt):
                raise _FormatError(f"no formatting function for map key of type {runtime.type_name(key)}")
            pairs.append((_quoted(key), _quoted(item)))
        pairs.sort(key=lambda pair: pair[0])
        return "{" + ", ".join(f"{k}:{v}" for k, v in pairs) + "}"
    raise _FormatError(_CLAUSE_ERRORS["s"].format(runtime.type_name(value)))


def _quoted(value: Any) -> str:
    text = _as_string(value)
    t = type(value)
    if t is str:
        return _go_quote(text)
    if t is bytes:
        return "b" + _go_quote(text)
    if t is float and (math.isinf(value) or math.isnan(value)):
        return _go_quote(text)
    if t is Timestamp:
        return f"timestamp({_go_quote(text)})"
    if t is Duration:
        return f"duration({_go_quote(text)})"
    return text


def _go_quote(text: str) -> str:
    out = []
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif not ch.isprintable():
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


# --- compile-time validation ------------------------------------------------------------------

_ACCEPTED_KINDS = {
    "s": ("list", "map", "int", "uint", "double", "bool", "string", "timestamp", "bytes", "duration", "type", "null"),
    "d": ("int", "uint"),
    "f": ("double", "string"),
    "e": ("double", "string"),
    "b": ("int", "uint", "bool"),
    "x": ("int", "uint", "string", "bytes"),
    "X": ("int", "uint", "string", "bytes"),
    "o": ("int", "uint"),
}


def check_format_call(call: Call, types: dict[int, Type]) -> tuple[int, str] | None:
    """cel-go's format validator for a literal format string and list: (node id, message) or None."""
    target = call.target
    if not (isinstance(target, Literal) and target.kind == "string" and len(call.args) == 1):
        return None
    arg_list = call.args[0]
    if not isinstance(arg_list, CreateList):
        return None
    elements = list(arg_list.elements)

    def verify(kind: str, node: Expr) -> int | None:
        t = types.get(node.id)
        if t is None or t.kind == "dyn":
            return None
        if t.kind not in _ACCEPTED_KINDS[kind]:
            return node.id
        if kind == "s" and isinstance(node, CreateList):
            for element in node.elements:
                bad = verify("s", element)
                if bad is not None:
                    return bad
        if kind == "s" and isinstance(node, CreateMap):
            for entry in node.entries:
                for part in (entry.key, entry.value):
                    bad = verify("s", part)
                    if bad is not None:
                        return bad
        return None

    def clause(kind: str, precision: int | None, index: int) -> str:
        bad = verify(kind, elements[index])
        if bad is not None:
            shown = types[bad].name
            message = _CLAUSE_ERRORS[kind.lower() if kind != "X" else "x"].format(shown)
            raise _FormatError(f"error during formatting: {message}", bad)
        return ""

    try:
        _, used = _parse(str(target.value), len(elements), clause)
    except _FormatError as error:
        return (error.node_id if error.node_id is not None else call.id), error.message
    if len(elements) > used:
        return call.id, f"too many arguments supplied to string.format (expected {used}, got {len(elements)})"
    return None
