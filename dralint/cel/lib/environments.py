"""Kubernetes' CEL base environments (``apiserver/pkg/cel/environment/base.go``) by version.

Each library has the release that introduced it (and removed it). The *stored* environment has
every library not removed; the *new-expressions* environment of a release has the libraries
introduced at or before its compatibility version (the previous minor release). Extensions
(like DRA's) add their own versioned, optionally feature-gated options on top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dralint.cel.checker.decls import Environment, Overload
from dralint.cel.checker.types import map_of, param
from dralint.cel.lib import core as lib_core
from dralint.cel.lib import lists as lib_lists
from dralint.cel.lib import named_format as lib_named_format
from dralint.cel.lib import net as lib_net
from dralint.cel.lib import optional as lib_optional
from dralint.cel.lib import quantity as lib_quantity
from dralint.cel.lib import semver as lib_semver
from dralint.cel.lib import strings as lib_strings
from dralint.cel.lib import time as lib_time
from dralint.cel.parser.macros import MACROS_BASE, MACROS_TWO_VAR

__all__ = ["VersionedOption", "base_options", "build", "compatibility_version", "release_key"]

Installer = Callable[[Environment], None]


@dataclass(frozen=True, slots=True)
class VersionedOption:
    introduced: str
    install: Installer
    removed: str | None = None
    # Feature-gated options: included in new-expression environments exactly when enabled.
    enabled: bool | None = None


def release_key(release: str) -> tuple[int, int]:
    major, minor = release.split(".")[:2]
    return int(major), int(minor)


def compatibility_version(release: str) -> str:
    """The API server's minimum compatibility version: the previous minor release."""
    major, minor = release_key(release)
    return f"{major}.{minor - 1}"


def _core(env: Environment) -> None:
    lib_core.install(env)
    lib_time.install(env)
    lib_strings.install_base(env)
    lib_strings.install_regex(env)
    lib_net.install_urls(env)


def _two_var(env: Environment) -> None:
    env.macros = env.macros | MACROS_TWO_VAR
    k, v = param("K"), param("V")
    env.add(
        "cel.@mapInsert",
        Overload("@mapInsert_map_key_value", (map_of(k, v), k, v), map_of(k, v)),
        Overload("@mapInsert_map_map", (map_of(k, v), map_of(k, v)), map_of(k, v)),
    )


def _strings_v0(env: Environment) -> None:
    lib_strings.install_ext(env, version=0)


def _strings_v2(env: Environment) -> None:
    lib_strings.install_ext(env, version=2)
    env.extra["format_validator"] = True


def _cross_type_and_optional(env: Environment) -> None:
    env.cross_type_numeric = True
    lib_optional.install(env)
    lib_quantity.install(env)


def base_options() -> list[VersionedOption]:
    return [
        VersionedOption("1.0", _core),
        VersionedOption("1.0", lambda env: lib_lists.install_k8s_lists(env, version=0), removed="1.37"),
        VersionedOption("1.37", lambda env: lib_lists.install_k8s_lists(env, version=1)),
        VersionedOption("1.28", _cross_type_and_optional),
        VersionedOption("1.29", lambda env: setattr(env, "literal_validators", True)),
        VersionedOption("1.0", _strings_v0, removed="1.29"),
        VersionedOption("1.29", _strings_v2),
        VersionedOption("1.29", lib_lists.install_sets),
        VersionedOption("1.30", lib_net.install_ip_cidr),
        VersionedOption("1.31", lib_named_format.install),
        VersionedOption("1.32", _two_var),
        VersionedOption("1.33", lambda env: lib_semver.install(env, version=1)),
        VersionedOption("1.34", lambda env: lib_lists.install_lists_ext(env, version=3)),
    ]


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
