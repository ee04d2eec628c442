"""Kubernetes' CEL base environments (``apiserver/pkg/cel/environment/base.go``) by version.

Each library module lists the releases that introduced (and removed) its declarations as
``RELEASES``, next to the declarations and their pricing. The *stored* environment has
every library not removed; the *new-expressions* environment of a release has the libraries
introduced at or before its compatibility version (the previous minor release). Extensions
(like DRA's) add their own versioned, optionally feature-gated options on top.
"""

from __future__ import annotations

from dralint.cel.checker.decls import Environment, VersionedOption
from dralint.cel.lib import core, lists, named_format, net, optional, quantity, semver, strings, time
from dralint.cel.parser.macros import MACROS_BASE

__all__ = ["VersionedOption", "base_options", "build", "compatibility_version", "release_key"]

# Every library of Kubernetes' base environment; each lists the releases of its declarations (RELEASES).
LIBRARIES = (core, time, strings, net, lists, optional, quantity, named_format, semver)


def release_key(release: str) -> tuple[int, int]:
    major, minor = release.split(".")[:2]
    return int(major), int(minor)


def compatibility_version(release: str) -> str:
    """The API server's minimum compatibility version: the previous minor release."""
    major, minor = release_key(release)
    return f"{major}.{minor - 1}"


def base_options() -> list[VersionedOption]:
    """The base environment's options in the order of the releases that introduced them."""
    return sorted((o for library in LIBRARIES for o in library.RELEASES), key=lambda o: release_key(o.introduced))


def build(name: str, options: list[VersionedOption], *, compatibility: str | None, honour_gates: bool) -> Environment:
    """An environment of ``options``: all not removed (``compatibility=None``), or those of a version."""
    env = Environment(name, macros=MACROS_BASE, cross_type_numeric=False)
    env.literal_validators = False
    for option in options:
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
