"""Opaque driver configuration as the driver reads it when it prepares a device: kind, schema, rules.

The API server stores ``opaque.parameters`` without looking inside; the driver's kubelet plugin
decodes them on the node, after the pod was scheduled, and fails the pod's start when they are
wrong. With the driver's profile the same decoding can happen before anything is applied: the
parameters must name a configuration kind the driver knows, fit that kind's JSON schema and
hold the driver's rules. A driver without a profile, or whose profile does not say which
configuration it takes, is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass
from dralint.profiles.model import ConfigKind, DriverProfile
from dralint.suggest import closest
from dralint.validate.jsontypes import SchemaError

__all__ = ["BrokenRule", "ConfigProblem", "InvalidParameter", "UnknownConfigKind", "config_kind", "problems"]


@dataclass(frozen=True, slots=True)
class UnknownConfigKind:
    """Parameters whose apiVersion/kind the driver does not decode (or that name none)."""

    api_version: str | None
    kind: str | None
    known: tuple[str, ...]  # "Kind (apiVersion)" of every kind the driver takes
    suggestion: tuple[str, str] | None  # (apiVersion, kind) the parameters probably meant
    path: Path  # inside the parameters: where the wrong value is


@dataclass(frozen=True, slots=True)
class InvalidParameter:
    """A value of the parameters that the configuration kind's schema refuses."""

    config: ConfigKind
    path: Path  # inside the parameters
    message: str
    # "field" or "value": a field name or enum value no release described takes, and not a near miss of
    # one it takes (a misspelling is wrong in every release; a new name may be right in a newer one)
    unknown: Literal["field", "value"] | None = None
    known: tuple[str, ...] = ()  # the names or values it takes there
    written: str = ""  # the unknown name or value as written


@dataclass(frozen=True, slots=True)
class BrokenRule:
    """A rule of the driver that the parameters break (or on which the rule cannot be evaluated)."""

    config: ConfigKind
    path: Path  # inside the parameters: the field the rule is about, or its nearest written parent
    message: str
    source: str


ConfigProblem = UnknownConfigKind | InvalidParameter | BrokenRule


def config_kind(profile: DriverProfile, parameters: Any) -> ConfigKind | None:
    """The kind ``parameters`` name, as the newest release describing it decodes it, if the profile knows it."""
    releases = _releases(profile, parameters)
    return releases[-1] if releases else None


def _releases(profile: DriverProfile, parameters: Any) -> tuple[ConfigKind, ...]:
    """How the releases decode the kind ``parameters`` name, oldest first (none: the profile does not know it)."""
    if profile.configs is None or not isinstance(parameters, Mapping):
        return ()
    untyped = profile.configs.get((None, None))
    if untyped:
        return untyped  # the driver reads every configuration as this one, whatever it names
    api_version = str(parameters.get("apiVersion"))
    kind = parameters.get("kind")
    return profile.configs.get((api_version, str(kind))) or profile.configs.get((api_version, None)) or ()


def problems(
    profile: DriverProfile, parameters: Any, releases: tuple[str, ...] | None = None
) -> Iterator[ConfigProblem]:
    """What the driver of ``profile`` would refuse in ``parameters``, in the order it would check.

    ``releases`` are those the cluster may run, when dralint knows them (see
    :mod:`dralint.profiles.releases`); otherwise any release the profile describes may.
    """
    configs = profile.configs
    if configs is None or not isinstance(parameters, Mapping):
        return
    decoders = _releases(profile, parameters)
    if decoders and releases is not None:
        running = set(releases)
        decoders = tuple(c for c in decoders if running & set(profile.releases(c.span)))
        if not decoders and (None, None) in configs:
            return  # those releases read no parameters at all
    if not decoders:
        yield _unknown(configs, parameters)
        return
    # Parameters that some release the cluster may run decodes are fine; otherwise the newest
    # release's objections are the ones to fix.
    found = [list(_decoded(config, parameters)) for config in reversed(decoders)]
    if all(found):
        yield from found[0]


def _decoded(config: ConfigKind, parameters: Mapping[str, Any]) -> Iterator[ConfigProblem]:
    from dralint.validate import userschema

    schema_problems = userschema.problems(config.schema, parameters)
    for problem in schema_problems:
        unknown = _unknown_name(config.schema, parameters, problem)
        yield InvalidParameter(config, problem.path, problem.message, *unknown)
    if schema_problems:
        return  # the driver stops at decoding: its rules see only parameters that decode
    from dralint.profiles.rules import holds

    for rule in config.rules:
        result = holds(rule.rule, parameters)
        if result is True:
            continue
        message = rule.message if result is False else f"{rule.message} (the rule cannot be evaluated: {result})"
        yield BrokenRule(config, _written_part(parameters, rule.path), message, rule.source)


def _unknown(
    configs: Mapping[tuple[str | None, str | None], tuple[ConfigKind, ...]], parameters: Mapping[str, Any]
) -> UnknownConfigKind:
    api_version, kind = parameters.get("apiVersion"), parameters.get("kind")
    known = tuple(releases[-1].title for releases in configs.values())
    written_version = api_version if isinstance(api_version, str) else None
    written_kind = kind if isinstance(kind, str) else None
    suggestion = None
    path: Path = ("kind",) if written_kind is not None else ()
    if written_kind is not None and written_version is not None:
        same_version = [k for v, k in configs if v == written_version and k is not None]
        same_kind = [v for v, k in configs if k == written_kind and v is not None]
        if same_kind:  # the kind is right, its group or version is not
            version = closest(written_version, same_kind, per_edit=2) or same_kind[-1]
            suggestion, path = (version, written_kind), ("apiVersion",)
        elif same_version:
            guess = closest(written_kind, same_version)
            suggestion = (written_version, guess) if guess else None
    return UnknownConfigKind(written_version, written_kind, known, suggestion, path)


def _unknown_name(
    schema: Mapping[str, Any], parameters: Mapping[str, Any], problem: SchemaError
) -> tuple[Literal["field", "value"] | None, tuple[str, ...], str]:
    """Whether a schema problem is a field name or an enum value the schema does not know and that is not
    a near miss of one it knows (as the message's did-you-mean tells), with the names or values it knows."""
    from dralint.validate.userschema import closest as near_miss

    if problem.problem == "unknown-field" and problem.path:
        node = _schema_at(schema, problem.path[:-1])
        if node is None or "patternProperties" in node:
            return None, (), ""  # keys of a pattern are data (names, labels), not fields a release adds
        known = tuple(sorted(node.get("properties", {})))
        key = str(problem.path[-1])
        return (None, (), "") if near_miss(key, known) else ("field", known, key)
    node = _schema_at(schema, problem.path)
    if node is None or "enum" not in node:
        return None, (), ""
    value = _value_at(parameters, problem.path)
    known = tuple(str(v) for v in node["enum"])
    if not isinstance(value, str) or near_miss(value, known):
        return None, (), ""
    return "value", known, value


def _schema_at(schema: Mapping[str, Any], path: Path) -> Mapping[str, Any] | None:
    """The schema of the value at ``path``, through properties, items and additionalProperties (None: not plain)."""
    node: Any = schema
    for step in path:
        if not isinstance(node, Mapping):
            return None
        if isinstance(step, int):
            node = node.get("items")
        elif step in node.get("properties", {}):
            node = node["properties"][step]
        else:
            node = node.get("additionalProperties")
    return node if isinstance(node, Mapping) else None


def _value_at(value: Any, path: Path) -> Any:
    for step in path:
        listed = isinstance(step, int) and isinstance(value, list) and 0 <= step < len(value)
        if not (listed or (isinstance(value, Mapping) and step in value)):
            return None
        value = value[step]
    return value


def _written_part(parameters: Mapping[str, Any], path: tuple[str, ...]) -> Path:
    """The longest prefix of ``path`` the parameters hold (a rule about an absent field points at its parent)."""
    out: list[str] = []
    value: Any = parameters
    for step in path:
        if not isinstance(value, Mapping) or step not in value:
            break
        out.append(step)
        value = value[step]
    return tuple(out)
