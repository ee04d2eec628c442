"""Kubernetes ``resource.Quantity``: exact parsing, comparison, arithmetic and canonical text.

Values are exact fractions; the grammar, the suffixes and the rounding to nano precision follow
apimachinery's ``ParseQuantity``. apimachinery also keeps small values in a fast ``int64Amount``
(value × 10^scale) and everything else in an ``inf.Dec``; which one a quantity uses is visible
through ``AsInt64`` (CEL's ``isInteger()``/``asInteger()``), so it is tracked here as ``fast``.
The allocator, the validator and the CEL quantity library all share this one implementation.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Literal

__all__ = ["Quantity", "QuantityError", "parse_quantity"]

Format = Literal["DecimalSI", "BinarySI", "DecimalExponent"]

_DECIMAL_SUFFIXES: dict[str, int] = {
    "n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18,
}  # fmt: skip
_BINARY_SUFFIXES: dict[str, int] = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")
_NANO = Fraction(1, 10**9)
_MAX_BINARY = Fraction(2**63 - 1)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_MAX_DIGITS = 1000
# apimachinery takes any exponent that parses as an int64 (and wraps it to int32); exact
# arithmetic is bounded here instead. 1000 digits × 10^3000 still prints within Python's
# 4,300-digit limit on converting integers to text.
_MAX_EXPONENT = 3000
_INT32 = 2**32


class QuantityError(ValueError):
    """The text is not a Kubernetes quantity; the message matches apimachinery's."""


class Quantity:
    """An exact quantity with the format (suffix family) it was written in."""

    __slots__ = ("_text", "fast", "format", "value")

    def __init__(
        self,
        value: Fraction | int,
        format: Format = "DecimalSI",
        text: str | None = None,
        fast: tuple[int, int] | None = None,
    ) -> None:
        self.value = Fraction(value)
        self.format: Format = format
        self._text = text
        # apimachinery's int64Amount (value, base-10 scale), or None for an inf.Dec amount.
        self.fast = fast

    # --- comparison (by value, never by text) ---
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Quantity):
            return self.value == other.value
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.value)

    def __lt__(self, other: Quantity) -> bool:
        return self.value < other.value

    def __le__(self, other: Quantity) -> bool:
        return self.value <= other.value

    def __gt__(self, other: Quantity) -> bool:
        return self.value > other.value

    def __ge__(self, other: Quantity) -> bool:
        return self.value >= other.value

    def cmp(self, other: Quantity) -> int:
        """-1, 0 or 1, like ``Quantity.Cmp``."""
        mine, theirs = self.fast, other.fast
        if mine is not None and theirs is not None and mine[1] == theirs[1]:
            return (mine[0] > theirs[0]) - (mine[0] < theirs[0])
        return (self.value > other.value) - (self.value < other.value)

    def sign(self) -> int:
        return (self.value > 0) - (self.value < 0)

    # --- arithmetic: results keep the left operand's format (a zero left takes the right's) ---
    def add(self, other: Quantity) -> Quantity:
        """``Quantity.Add``, including which representation the result ends up in."""
        return self._combine(other, 1)

    def sub(self, other: Quantity) -> Quantity:
        """``Quantity.Sub``."""
        return self._combine(other, -1)

    def _combine(self, other: Quantity, sign: int) -> Quantity:
        fmt = other.format if self.value == 0 else self.format
        fast = None
        if self.fast is not None and other.fast is not None:
            fast = _fast_add(self.fast, (sign * other.fast[0], other.fast[1]))
        return type(self)(self.value + sign * other.value, fmt, None, fast)

    def as_int64(self) -> int | None:
        """``Quantity.AsInt64``: the integer value when held as an int64 at a scale >= 0."""
        if self.fast is None:
            return None
        value, scale = self.fast
        if scale == 0:
            return value
        if scale < 0:
            return None
        return _scaled(value, scale)

    def ceil_int(self) -> int:
        """``Quantity.Value()``: the value rounded up (towards +infinity) to an integer."""
        return math.ceil(self.value)

    def milli_value(self) -> int:
        """``Quantity.MilliValue()``: the value in thousandths, rounded up."""
        return math.ceil(self.value * 1000)

    def is_integer(self) -> bool:
        return self.value.denominator == 1

    # --- text ---
    @property
    def text(self) -> str:
        """The text as written when parsed, else the canonical form."""
        return self._text if self._text is not None else self.canonical()

    def canonical(self) -> str:
        """The canonical string Kubernetes prints for this value and format."""
        return _format(self.value, self.format)

    def __str__(self) -> str:
        return self.canonical()

    def __repr__(self) -> str:
        return f"Quantity({self.text!r})"


def parse_quantity(text: str) -> Quantity:
    """Parse ``text`` exactly as ``resource.ParseQuantity`` does (raising :class:`QuantityError`)."""
    if not isinstance(text, str) or not text:
        raise QuantityError(
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        )
    return _parse(text)


# Quantities are immutable and an inventory writes the same few ("80Gi", "10G") on thousands of
# devices: each text is parsed once (exact fractions are slow to build).
@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Quantity:
    positive, num, denom, suffix = _split(text)
    if suffix in _DECIMAL_SUFFIXES:
        exponent, base, fmt = _DECIMAL_SUFFIXES[suffix], 10, "DecimalSI"
    elif suffix in _BINARY_SUFFIXES:
        exponent, base, fmt = _BINARY_SUFFIXES[suffix], 2, "BinarySI"
    elif len(suffix) > 1 and suffix[0] in "eE" and (written := _exponent(suffix[1:])) is not None:
        exponent, base, fmt = written, 10, "DecimalExponent"
    else:
        raise QuantityError("unable to parse quantity's suffix")
    if len(num) + len(denom) > _MAX_DIGITS or exponent > _MAX_EXPONENT:
        # Exact arithmetic on such numbers would take unbounded time; no manifest needs them.
        raise QuantityError(f"quantity {text[:20]}... is too large for dralint to evaluate")
    mantissa = Fraction(int(num or "0")) + (Fraction(int(denom), 10 ** len(denom)) if denom else 0)
    # Anything below 1e-1000 rounds up to 1n anyway; computing the power would not end.
    tiny = exponent < -_MAX_EXPONENT
    value = (_NANO if mantissa else Fraction(0)) if tiny else mantissa * Fraction(base) ** exponent
    if not positive:
        value = -value
    # Quantities keep at most nano precision; finer values round away from zero (inf.RoundUp).
    if value.denominator != 1 and (value / _NANO).denominator != 1:
        scaled = value / _NANO
        rounded = math.ceil(scaled) if scaled > 0 else math.floor(scaled)
        value = rounded * _NANO
    if fmt == "BinarySI":
        if abs(value) > _MAX_BINARY:  # apimachinery caps binary quantities at MaxInt64
            value = _MAX_BINARY if value > 0 else -_MAX_BINARY
        if 0 < abs(value) < 1:
            fmt = "DecimalSI"
    if text == "0":
        fmt = "DecimalSI"
    return Quantity(value, fmt, text, _fast_form(positive, num or "0", denom, fmt, exponent))  # type: ignore[arg-type]


def _fast_form(positive: bool, num: str, denom: str, fmt: str, exponent: int) -> tuple[int, int] | None:
    """The int64Amount ``ParseQuantity`` builds on its fast path, or None for its inf.Dec path."""
    mantissa = 1
    if fmt == "BinarySI":
        scale = 0
        if exponent >= 0 and not denom:
            mantissa = 1 << exponent
            precision = 15 - len(num) - int(exponent * 3 / 10) - 1
        else:
            precision = -1
    else:
        scale = exponent
        precision = 18 - (len(num) + len(denom))
    if precision < 0:
        return None
    scale -= len(denom)
    if scale < -9:
        return None
    value = int(num + denom)
    if value > _INT64_MAX:
        return None
    result = value * mantissa
    if not _INT64_MIN <= result <= _INT64_MAX:
        return None
    return (result if positive else -result, scale)


def _scaled(value: int, scale: int) -> int | None:
    """``positiveScaleInt64``: value × 10^scale when it fits an int64."""
    result = value * 10**scale
    return result if _INT64_MIN <= result <= _INT64_MAX else None


def _fast_add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    """``int64Amount.Add``: None when the sum leaves the int64 representation."""
    if b[0] == 0:
        return a
    if a[0] == 0:
        return b
    (av, ascale), (bv, bscale) = a, b
    if ascale > bscale:
        scaled = _scaled(av, ascale - bscale)
        if scaled is None:
            return None
        av, ascale = scaled, bscale
    elif bscale > ascale:
        scaled = _scaled(bv, bscale - ascale)
        if scaled is None:
            return None
        bv = scaled
    total = av + bv
    return (total, ascale) if _INT64_MIN <= total <= _INT64_MAX else None


def _exponent(text: str) -> int | None:
    """``int32(strconv.ParseInt(text, 10, 64))``, as apimachinery reads the ``e`` suffix; None if it fails."""
    if not _is_int(text):
        return None
    sign = -1 if text[0] == "-" else 1
    digits = text.lstrip("+-").lstrip("0") or "0"
    if len(digits) > 19:  # beyond int64 (and below int()'s limit on long digit strings)
        return None
    parsed = sign * int(digits)
    if not _INT64_MIN <= parsed <= _INT64_MAX:
        return None
    return (parsed + 2**31) % _INT32 - 2**31  # Go's int32() conversion wraps


def _is_int(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return body.isdigit() and body.isascii()


def _split(text: str) -> tuple[bool, str, str, str]:
    """(positive, integer digits, fraction digits, suffix) following parseQuantityString."""
    pos, end, positive = 0, len(text), True
    if text[0] in "+-":
        positive = text[0] == "+"
        pos = 1
    while pos < end and text[pos] == "0":
        pos += 1
    start = pos
    while pos < end and text[pos].isdigit() and text[pos].isascii():
        pos += 1
    num = text[start:pos]
    denom = ""
    if pos < end and text[pos] == ".":
        pos += 1
        start = pos
        while pos < end and text[pos].isdigit() and text[pos].isascii():
            pos += 1
        denom = text[start:pos]
    suffix_start = pos
    while pos < end and text[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    while pos < end and text[pos].isdigit() and text[pos].isascii():
        pos += 1
    if pos != end:
        raise QuantityError(
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        )
    return positive, num, denom, text[suffix_start:]


def _format(value: Fraction, fmt: Format) -> str:
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    if magnitude == 0:
        return "0"
    if fmt == "BinarySI" and magnitude.denominator == 1:
        integer = magnitude.numerator
        for suffix, power in sorted(_BINARY_SUFFIXES.items(), key=lambda item: -item[1]):
            unit = 1 << power
            if integer >= unit and integer % unit == 0:
                return f"{sign}{integer // unit}{suffix}"
        return f"{sign}{integer}"
    # Decimal: the largest exponent (a multiple of 3, down to nano) with an integer mantissa.
    for exponent in range(18, -10, -3):
        mantissa = magnitude / Fraction(10) ** exponent
        if mantissa.denominator == 1:
            if fmt == "DecimalExponent":
                return f"{sign}{mantissa.numerator}" + (f"e{exponent}" if exponent else "")
            suffix = next(s for s, e in _DECIMAL_SUFFIXES.items() if e == exponent)
            return f"{sign}{mantissa.numerator}{suffix}"
    # Below nano precision cannot happen for parsed values; round up to nano for computed ones.
    return f"{sign}{math.ceil(magnitude / _NANO)}n"
