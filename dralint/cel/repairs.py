"""Did-you-mean for malformed CEL constants: the version, quantity or pattern most likely meant.

Each repair returns a value that the library accepts, or ``None`` when there is no plausible one:
a version the way ``semver(s, true)`` normalises it (``550.127.08`` is ``550.127.8``), a quantity
with its unit written the Kubernetes way (``200K`` is ``200k``, ``40GiB`` is ``40Gi``), a pattern
with a glob's ``*`` or an unbalanced bracket made into what RE2 reads.
"""

from __future__ import annotations

from dralint.apimachinery.quantity import QuantityError, parse_quantity
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib.semver_value import SemverError, parse_normalised
from dralint.cel.lib.strings import compile_pattern
from dralint.regex import compiled_on_first_use

__all__ = ["repair_pattern", "repair_quantity", "repair_semver"]

# Units as people write them (case aside) -> Kubernetes' suffix; "m" is milli, so a lower-case
# "m" is only read as mega when a byte unit ("MB") said so.
_UNITS = {
    "k": "k", "g": "G", "t": "T", "p": "P", "e": "E", "n": "n", "u": "u",
    "ki": "Ki", "mi": "Mi", "gi": "Gi", "ti": "Ti", "pi": "Pi", "ei": "Ei",
}  # fmt: skip
_QUANTITY = compiled_on_first_use(r"([+-]?[0-9]*(?:[.,][0-9]*)?(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)")
_GLOB = compiled_on_first_use(r"[\w.\-/:*?]*[*?][\w.\-/:*?]*")


def repair_semver(text: str) -> str | None:
    """The strict version ``text`` normalises to (a leading ``v``, leading zeros, missing parts)."""
    try:
        return str(parse_normalised(text.strip()))
    except SemverError:
        return None


def repair_quantity(text: str) -> str | None:
    """``text`` with a decimal comma, a space or a unit in the wrong case or with bytes written out."""
    match = _QUANTITY().fullmatch(text.strip())
    if match is None or not any(c.isdigit() for c in match.group(1)):
        return None
    number, unit = match.group(1).replace(",", "."), match.group(2)
    lowered = unit.lower()
    if len(lowered) > 1 and lowered.endswith("b"):  # GiB, GB, MB: bytes, which quantities leave out
        lowered = lowered[:-1]
        suffix = "M" if lowered == "m" else _UNITS.get(lowered)
    else:
        suffix = unit if unit in ("", "m", "M") else _UNITS.get(lowered)
    if suffix is None:
        return None
    candidate = number + suffix
    if candidate == text:
        return None
    try:
        parse_quantity(candidate)
    except QuantityError:
        return None
    return candidate


def repair_pattern(pattern: str) -> str | None:
    """A pattern RE2 compiles that ``pattern`` was probably meant as: a glob (``*.example.com``) as
    the regular expression it stands for, or brackets that do not pair escaped as literal text."""
    try:
        compile_pattern(pattern)
        return None
    except CelRuntimeError as error:
        problem = error.message
    candidates = []
    if _GLOB().fullmatch(pattern):
        body = "".join(".*" if c == "*" else "." if c == "?" else _escape(c) for c in pattern)
        candidates.append(f"^{body}$")
    if "missing closing" in problem or "unexpected )" in problem:
        candidates.append("".join(_escape(c) if c in "()[]" else c for c in pattern))
    for candidate in candidates:
        if candidate == pattern:
            continue
        try:
            compile_pattern(candidate)
        except CelRuntimeError:
            continue
        return candidate
    return None


def _escape(char: str) -> str:
    return "\\" + char if char in r".+*?()|[]{}^$\\" else char
