"""Kubernetes' CEL semver library (``library/semverlib.go``, version 1 with normalisation)."""

from __future__ import annotations

from dralint.cel.checker.decls import Environment, Overload, VersionedOption
from dralint.cel.checker.types import BOOL, INT, STRING, object_type
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib.semver_value import Semver, SemverError, parse, parse_normalised
from dralint.cel.pricing import Pricing
from dralint.cel.runtime import semantics as runtime

__all__ = ["RELEASES", "SEMVER", "install"]

SEMVER = object_type("kubernetes.Semver")
runtime.TYPE_NAMES[Semver] = "kubernetes.Semver"
runtime.GO_TYPES[Semver] = "cel.Semver"
runtime.STRICT_EQUAL[Semver] = Semver


def _semver(text: str, normalise: bool = False) -> Semver:
    try:
        return parse_normalised(text) if normalise else parse(text)
    except SemverError as error:
        raise CelRuntimeError(str(error)) from None


def _is_semver(text: str, normalise: bool = False) -> bool:
    try:
        _semver(text, normalise)
    except CelRuntimeError:
        return False
    return True


def install(env: Environment, *, version: int = 1) -> None:
    s = SEMVER
    semver_overloads = [Overload("string_to_semver", (STRING,), s, _semver)]
    is_overloads = [Overload("is_semver_string", (STRING,), BOOL, _is_semver)]
    if version >= 1:
        semver_overloads.append(Overload("string_bool_to_semver", (STRING, BOOL), s, _semver))
        is_overloads.append(Overload("is_semver_string_bool", (STRING, BOOL), BOOL, _is_semver))
    env.add("semver", *semver_overloads, pricing=Pricing.PARSE)
    env.add("isSemver", *is_overloads, pricing=Pricing.PARSE)
    # Everything on a parsed version costs one unit.
    for name, overload in (
        (
            "isGreaterThan",
            Overload("semver_is_greater_than", (s, s), BOOL, lambda a, b: a.compare(b) == 1, member=True),
        ),
        ("isLessThan", Overload("semver_is_less_than", (s, s), BOOL, lambda a, b: a.compare(b) == -1, member=True)),
        ("compareTo", Overload("semver_compare_to", (s, s), INT, lambda a, b: a.compare(b), member=True)),
        ("major", Overload("semver_major", (s,), INT, lambda v: v.major, member=True)),
        ("minor", Overload("semver_minor", (s,), INT, lambda v: v.minor, member=True)),
        ("patch", Overload("semver_patch", (s,), INT, lambda v: v.patch, member=True)),
    ):
        env.add(name, overload, pricing=Pricing.UNIT)


# The release whose base environment introduced these declarations (version 1 of the library).
RELEASES = (VersionedOption("1.33", install),)
