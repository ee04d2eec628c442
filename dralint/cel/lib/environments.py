"""Kubernetes' CEL base environments (``apiserver/pkg/cel/environment/base.go``) by release.

Each library module lists its options as ``RELEASES``, next to the declarations and their
pricing: the version that introduced (and removed) them, and the Kubernetes releases whose
code ships them (``shipped``), since a library's content or options changed between releases.
An environment is built for the code of one release: the *stored* environment has every
option that code ships and has not removed; the *new-expressions* environment has the options
introduced at or before its compatibility version (the previous minor release). Extensions
(like DRA's) add their own versioned, optionally feature-gated options on top.
"""

from __future__ import annotations

from dralint.cel.checker.decls import Environment, VersionedOption
from dralint.cel.lib import core, lists, named_format, net, optional, quantity, semver, strings, time
from dralint.cel.parser.macros import MACROS_BASE

__all__ = ["VersionedOption", "base_options", "build", "compatibility_version", "release_key", "ships"]

# Every library of Kubernetes' base environment; each lists the releases of its declarations (RELEASES).
LIBRARIES = (core, time, strings, net, lists, optional, quantity, named_format, semver)


def release_key(release: str) -> tuple[int, int]:
    major, minor = release.split(".")[:2]
    return int(major), int(minor)


def compatibility_version(release: str) -> str:
    """The API server's minimum compatibility version: the previous minor release."""
    major, minor = release_key(release)
    return f"{major}.{minor - 1}"


def ships(option: VersionedOption, release: str | None) -> bool:
    """Whether the code of ``release`` (``None``: the newest) lists ``option``."""
    first, last = option.shipped if option.shipped is not None else (option.introduced, None)
    if release is None:
        return last is None
    return release_key(first) <= release_key(release) and (last is None or release_key(release) <= release_key(last))


def base_options() -> list[VersionedOption]:
    """The base environment's options of every release, in the order of the versions that introduced them."""
    return sorted((o for library in LIBRARIES for o in library.RELEASES), key=lambda o: release_key(o.introduced))


def build(
    name: str,
    options: list[VersionedOption],
    *,
    release: str | None = None,
    compatibility: str | None,
    honour_gates: bool,
) -> Environment:
    """The environment of ``options`` that the code of ``release`` (``None``: the newest) ships: all not
    removed (``compatibility=None``, the stored environment), or those of a compatibility version.

    As ``EnvSet.filterAndBuildOpts``: with ``honour_gates``, a gated option is left out when its gate
    is off and included when it is on, whatever its version."""
    env = Environment(name, macros=MACROS_BASE, cross_type_numeric=False)
    env.literal_validators = False
    for option in options:
        if not ships(option, release):
            continue
        if option.enabled is not None and honour_gates:
            if not option.enabled:
                continue
            option.install(env)
            continue
        if compatibility is None:
            if option.removed is None:
                option.install(env)
            continue
        version = release_key(compatibility)
        if release_key(option.introduced) <= version and (
            option.removed is None or version < release_key(option.removed)
        ):
            option.install(env)
    return env
