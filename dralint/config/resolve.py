"""Combine command-line flags, ``DRALINT_*`` environment variables and the configuration file.

Each source becomes a :class:`Layer` (``None`` = not set there); :func:`merge` takes every
setting from the first layer that sets it (flags > environment > file > defaults). Values keep
their origin (``--select``, ``DRALINT_SELECT``, ``.dralint.yaml:7:5``) so that an unknown rule
or a bad version is reported where the user wrote it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import field, fields
from typing import Any

from dralint.apimachinery.fieldpath import Path
from dralint.config import ConfigFile, globs
from dralint.dataclass import dataclass
from dralint.errors import ConfigError

# Environment variable → Layer field; list values are comma-separated (paths: os.pathsep).
ENVIRONMENT: dict[str, str] = {
    "DRALINT_KUBERNETES_VERSION": "release",
    "DRALINT_FEATURE_GATES": "feature_gates",
    "DRALINT_INVENTORY": "inventory",
    "DRALINT_RULES": "rule_paths",
    "DRALINT_PROFILES": "profile_paths",
    "DRALINT_SELECT": "select",
    "DRALINT_IGNORE": "ignore",
    "DRALINT_EXCLUDE": "exclude",
    "DRALINT_FAIL_ON": "fail_on",
    "DRALINT_BASELINE": "baseline",
}
CONFIG_ENV = "DRALINT_CONFIG"


@dataclass(frozen=True, slots=True)
class Ref:
    """A value as the user wrote it (a rule reference, a version, ...) and where."""

    text: str
    origin: str


@dataclass(frozen=True, slots=True)
class ExceptionSpec:
    """A configured exception before its rule references are resolved."""

    rules: tuple[Ref, ...]
    reason: str
    origin: str  # file:line:col of the entry
    file: str
    line: int
    column: int
    paths: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    namespaces: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    expires: str | None = None


@dataclass(frozen=True, slots=True)
class Layer:
    """Settings from one source; ``None`` means this source does not set it."""

    release: Ref | None = None
    feature_gates: Ref | Mapping[str, bool] | None = None  # "A=true,B=false" text or a mapping
    inventory: tuple[str, ...] | None = None
    context: tuple[str, ...] | None = None
    rule_paths: tuple[str, ...] | None = None
    profile_paths: tuple[str, ...] | None = None
    driver_versions: Mapping[str, str] | None = None
    select: tuple[Ref, ...] | None = None
    ignore: tuple[Ref, ...] | None = None
    severity: tuple[tuple[Ref, str], ...] | None = None
    options: tuple[tuple[Ref, Mapping[str, Any]], ...] | None = None
    exclude: tuple[str, ...] | None = None
    path_ignores: tuple[tuple[str, tuple[Ref, ...]], ...] | None = None
    exceptions: tuple[ExceptionSpec, ...] | None = None
    limits: Mapping[str, int] | None = None
    producers: Mapping[str, Any] | None = None
    fail_on: Ref | None = None
    baseline: str | None = None
    # Who named each path: (setting, path as resolved) -> the path as written and where (a flag, a
    # variable, a key of the file), for errors about a path that is not there.
    named: Mapping[tuple[str, str], Ref] | None = None


@dataclass(frozen=True, slots=True)
class Effective:
    """The merged settings of one run, with the defaults filled in."""

    release: Ref | None = None
    feature_gates: Ref | Mapping[str, bool] = field(default_factory=dict)
    inventory: tuple[str, ...] = ()
    context: tuple[str, ...] | None = None  # None: not configured (the command picks its default)
    rule_paths: tuple[str, ...] = ()
    profile_paths: tuple[str, ...] = ()  # the user's driver profiles (the shipped ones are always there)
    driver_versions: Mapping[str, str] = field(default_factory=dict)  # driver -> release the cluster runs
    select: tuple[Ref, ...] | None = None  # None: every rule
    ignore: tuple[Ref, ...] = ()
    severity: tuple[tuple[Ref, str], ...] = ()
    options: tuple[tuple[Ref, Mapping[str, Any]], ...] = ()
    exclude: tuple[str, ...] = ()
    path_ignores: tuple[tuple[str, tuple[Ref, ...]], ...] = ()
    exceptions: tuple[ExceptionSpec, ...] = ()
    limits: Mapping[str, int] = field(default_factory=dict)
    producers: Mapping[str, Any] = field(default_factory=dict)  # `producers:` as validated by the schema
    fail_on: Ref | None = None
    baseline: str | None = None
    named: Mapping[tuple[str, str], Ref] = field(default_factory=dict)  # see Layer.named
    root: str = "."  # directory that globs are relative to
    config: str | None = None  # the configuration file used, as displayed

    def naming(self, setting: str, path: str) -> str:
        """``path`` of ``setting`` as the user wrote it, after where: ``--inventory: nothere/``,
        ``.dralint.yaml:1:13: inventory: cluster/`` (the path alone when nobody is on record)."""
        ref = self.named.get((setting, path))
        return f"{ref.origin}: {ref.text}" if ref is not None else path


# The flag that sets each path setting, for the errors about a path that is not there.
FLAGS = {"inventory": "--inventory", "rule_paths": "--rules", "profile_paths": "--profile", "baseline": "--baseline"}


def named_by(origin: str | None, **paths: tuple[str, ...] | str | None) -> dict[tuple[str, str], Ref]:
    """:attr:`Layer.named` for paths written as they are used (flags, variables): named by ``origin``,
    or by each setting's flag when ``origin`` is ``None``."""
    out: dict[tuple[str, str], Ref] = {}
    for setting, value in paths.items():
        values = (value,) if isinstance(value, str) else value or ()
        for path in values:
            out[(setting, path)] = Ref(path, FLAGS[setting] if origin is None else origin)
    return out


def merge(*layers: Layer, root: str = ".", config: str | None = None) -> Effective:
    """Every setting from the first layer that sets it."""
    values: dict[str, Any] = {}
    for item in fields(Layer):
        if item.name == "named":
            continue
        for layer in layers:
            value = getattr(layer, item.name)
            if value is not None:
                values[item.name] = value
                break
    named: dict[tuple[str, str], Ref] = {}
    for layer in reversed(layers):  # the first layer's word counts, as for the values
        named.update(layer.named or {})
    return Effective(**values, named=named, root=root, config=config)


def _split(text: str, separator: str = ",") -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(separator) if part.strip())


def from_environment(env: Mapping[str, str]) -> Layer:
    """The layer of ``DRALINT_*`` variables (empty values count as unset)."""
    values: dict[str, Any] = {}
    named: dict[tuple[str, str], Ref] = {}
    for variable, name in ENVIRONMENT.items():
        text = env.get(variable, "").strip()
        if not text:
            continue
        if name in ("release", "fail_on", "feature_gates"):
            values[name] = Ref(text, variable)
        elif name in ("select", "ignore"):
            values[name] = tuple(Ref(part, variable) for part in _split(text))
        elif name in ("inventory", "rule_paths", "profile_paths"):
            values[name] = _split(text, os.pathsep)
            named.update(named_by(variable, **{name: values[name]}))
        elif name == "exclude":
            values[name] = _split(text)
        else:
            values[name] = text
            if name == "baseline":
                named.update(named_by(variable, baseline=text))
    return Layer(**values, named=named)


def _as_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return list(value)


def from_file(config: ConfigFile) -> Layer:
    """The layer of a validated configuration file; paths become relative to the current directory."""
    data = config.data

    named: dict[tuple[str, str], Ref] = {}

    def path(text: str, setting: str, key: Path, at: Path) -> str:
        """``text`` (written at ``at`` under ``key``) relative to the current directory, recorded in ``named``."""
        joined = os.path.normpath(os.path.join(config.root, text))
        relative = os.path.relpath(joined)
        resolved = joined if relative.startswith("..") else relative
        named[(setting, resolved)] = Ref(text, f"{config.where(at)}: {'.'.join(str(k) for k in key)}")
        return resolved

    def paths(setting: str, key: Path, value: Any) -> tuple[str, ...] | None:
        if value is None:
            return None
        if isinstance(value, str):  # "a/, b/": one position for all
            return tuple(path(p, setting, key, key) for p in _as_list(value))
        return tuple(path(p, setting, key, (*key, n)) for n, p in enumerate(value))

    def refs(value: Any, at: Path) -> tuple[Ref, ...]:
        if isinstance(value, str):
            return tuple(Ref(part, config.where(at)) for part in _as_list(value))
        return tuple(Ref(str(item), config.where((*at, n))) for n, item in enumerate(value))

    _check_globs(config)
    rules = data.get("rules") or {}
    values: dict[str, Any] = {
        "inventory": paths("inventory", ("inventory",), data.get("inventory")),
        "context": paths("context", ("context",), data.get("context")),
        "rule_paths": paths("rule_paths", ("rules", "custom"), rules.get("custom")),
        "profile_paths": paths("profile_paths", ("profiles",), data.get("profiles")),
        "driver_versions": dict(data["driverVersions"]) if "driverVersions" in data else None,
        "exclude": None if "exclude" not in data else tuple(_as_list(data["exclude"])),
        "limits": data.get("limits"),
        "producers": data.get("producers"),
        "baseline": path(data["baseline"], "baseline", ("baseline",), ("baseline",)) if "baseline" in data else None,
    }
    if "kubernetesVersion" in data:
        values["release"] = Ref(data["kubernetesVersion"], config.where(("kubernetesVersion",)))
    if "featureGates" in data:
        values["feature_gates"] = dict(data["featureGates"])
    if "failOn" in data:
        values["fail_on"] = Ref(data["failOn"], config.where(("failOn",)))
    if "select" in rules:
        values["select"] = refs(rules["select"], ("rules", "select"))
    if "ignore" in rules:
        values["ignore"] = refs(rules["ignore"], ("rules", "ignore"))
    if "severity" in rules:
        values["severity"] = tuple(
            (Ref(key, config.where(("rules", "severity", key))), level) for key, level in rules["severity"].items()
        )
    if "options" in rules:
        values["options"] = tuple(
            (Ref(key, config.where(("rules", "options", key))), dict(options))
            for key, options in rules["options"].items()
        )
    if "pathIgnores" in data:
        values["path_ignores"] = tuple(
            (glob, refs(selectors, ("pathIgnores", glob))) for glob, selectors in data["pathIgnores"].items()
        )
    if "exceptions" in data:
        values["exceptions"] = tuple(_exception(config, n, entry) for n, entry in enumerate(data["exceptions"]))
    return Layer(**values, named=named)


def _check_globs(config: ConfigFile) -> None:
    """Every path glob of the file compiles; a bad one is an error at its position."""
    data = config.data
    found: list[tuple[str, Path]] = []
    if isinstance(data.get("exclude"), str):
        found.extend((glob, ("exclude",)) for glob in _as_list(data["exclude"]))
    else:
        found.extend((glob, ("exclude", n)) for n, glob in enumerate(data.get("exclude") or ()))
    found.extend((glob, ("pathIgnores", glob)) for glob in data.get("pathIgnores") or {})
    for n, entry in enumerate(data.get("exceptions") or ()):
        found.extend((glob, ("exceptions", n, "path")) for glob in _as_list(entry.get("path", ())))
    for glob, at in found:
        try:
            globs.check(glob)
        except globs.GlobError as error:
            raise ConfigError(f"{config.where(at)}: {error}") from None


def _exception(config: ConfigFile, index: int, entry: Mapping[str, Any]) -> ExceptionSpec:
    at: Path = ("exceptions", index)
    rules = entry["rules"]
    if isinstance(rules, str):
        refs = tuple(Ref(part, config.where((*at, "rules"))) for part in _as_list(rules))
    else:
        refs = tuple(Ref(r, config.where((*at, "rules", n))) for n, r in enumerate(rules))
    line, column = config.position(at)
    return ExceptionSpec(
        rules=refs,
        reason=entry["reason"],
        origin=config.where(at),
        file=config.name,
        line=line,
        column=column,
        paths=tuple(_as_list(entry.get("path", ()))),
        kinds=tuple(_as_list(entry.get("kind", ()))),
        namespaces=tuple(_as_list(entry.get("namespace", ()))),
        names=tuple(_as_list(entry.get("name", ()))),
        expires=entry.get("expires"),
    )
