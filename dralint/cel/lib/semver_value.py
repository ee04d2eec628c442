"""Semantic versions as Kubernetes' CEL semver library parses them (blang/semver v4, strict).

``parse`` is blang's ``semver.Parse`` (error texts included); ``parse_normalised`` is the
library's ``normalizeAndParse`` (``semver(s, true)``): a leading ``v`` dropped, leading zeros
removed, missing minor/patch filled in with zeros.
"""

from __future__ import annotations

from functools import total_ordering

from dralint.cel.runtime.values import UINT64_MAX as _UINT64_MAX
from dralint.cel.runtime.values import digits_value
from dralint.dataclass import dataclass

__all__ = ["Semver", "SemverError", "parse", "parse_normalised"]

_DIGITS = frozenset("0123456789")
_ALPHANUM = _DIGITS | frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-")


class SemverError(ValueError):
    """The text is not a version; the message is blang/semver's."""


@total_ordering
@dataclass(frozen=True, slots=True, eq=False)
class Semver:
    """A parsed version; equality and order follow semver precedence (build metadata ignored)."""

    major: int
    minor: int
    patch: int
    pre: tuple[int | str, ...] = ()
    build: tuple[str, ...] = ()

    def compare(self, other: Semver) -> int:
        """-1, 0 or 1 (blang's ``Version.Compare``)."""
        for mine, theirs in ((self.major, other.major), (self.minor, other.minor), (self.patch, other.patch)):
            if mine != theirs:
                return 1 if mine > theirs else -1
        if not self.pre and not other.pre:
            return 0
        if not self.pre:
            return 1
        if not other.pre:
            return -1
        for a, b in zip(self.pre, other.pre, strict=False):
            result = _compare_pre(a, b)
            if result:
                return result
        return (len(self.pre) > len(other.pre)) - (len(self.pre) < len(other.pre))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Semver) and self.compare(other) == 0

    def __lt__(self, other: Semver) -> bool:
        return self.compare(other) < 0

    def __hash__(self) -> int:
        return hash((self.major, self.minor, self.patch, self.pre))

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.pre:
            text += "-" + ".".join(str(p) for p in self.pre)
        if self.build:
            text += "+" + ".".join(self.build)
        return text


def _compare_pre(a: int | str, b: int | str) -> int:
    a_num, b_num = isinstance(a, int), isinstance(b, int)
    if a_num and b_num:
        return (a > b) - (a < b)  # type: ignore[operator]
    if a_num:
        return -1
    if b_num:
        return 1
    return (a > b) - (a < b)  # type: ignore[operator]


def _number(text: str, what: str) -> int:
    if not set(text) <= _DIGITS:
        raise SemverError(f"Invalid character(s) found in {what} number {_go_quote(text)}")
    if len(text) > 1 and text[0] == "0":
        raise SemverError(f"{what.capitalize()} number must not contain leading zeroes {_go_quote(text)}")
    if not text:
        raise SemverError('strconv.ParseUint: parsing "": invalid syntax')
    value = digits_value(text)
    if value > _UINT64_MAX:
        raise SemverError(f"strconv.ParseUint: parsing {_go_quote(text)}: value out of range")
    return value


def _go_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def parse(text: str) -> Semver:
    """blang/semver v4 ``Parse``."""
    if not text:
        raise SemverError("Version string empty")
    parts = text.split(".", 2)
    if len(parts) != 3:
        raise SemverError("No Major.Minor.Patch elements found")
    major = _number(parts[0], "major")
    minor = _number(parts[1], "minor")
    patch_text = parts[2]
    build: list[str] = []
    pre_parts: list[str] = []
    if "+" in patch_text:
        patch_text, _, build_text = patch_text.partition("+")
        build = build_text.split(".")
    if "-" in patch_text:
        patch_text, _, pre_text = patch_text.partition("-")
        pre_parts = pre_text.split(".")
    patch = _number(patch_text, "patch")
    pre: list[int | str] = []
    for item in pre_parts:
        if not item:
            raise SemverError("Prerelease is empty")
        if set(item) <= _DIGITS:
            if len(item) > 1 and item[0] == "0":
                raise SemverError(f"Numeric PreRelease version must not contain leading zeroes {_go_quote(item)}")
            number = digits_value(item)
            if number > _UINT64_MAX:  # blang/semver parses numeric identifiers as uint64
                raise SemverError(f"strconv.ParseUint: parsing {_go_quote(item)}: value out of range")
            pre.append(number)
        elif set(item) <= _ALPHANUM:
            pre.append(item)
        else:
            raise SemverError(f"Invalid character(s) found in prerelease {_go_quote(item)}")
    for item in build:
        if not item:
            raise SemverError("Build meta data is empty")
        if not set(item) <= _ALPHANUM:
            raise SemverError(f"Invalid character(s) found in build meta data {_go_quote(item)}")
    return Semver(major, minor, patch, tuple(pre), tuple(build))


def parse_normalised(text: str) -> Semver:
    """The library's ``normalizeAndParse`` (``semver(s, true)``, ``isSemver(s, true)``)."""
    if text.startswith("v"):
        text = text[1:]
    parts = text.split(".", 2)
    for index, part in enumerate(parts):
        if len(part) > 1:
            part = part.lstrip("0")
            if not part or part[0] not in _DIGITS:
                part = "0" + part
            parts[index] = part
    if len(parts) < 3:
        if "+" in parts[-1] or "-" in parts[-1]:
            raise SemverError("short version cannot contain PreRelease/Build meta data")
        parts += ["0"] * (3 - len(parts))
    return parse(".".join(parts))
