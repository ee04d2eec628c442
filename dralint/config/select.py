"""Which rules run, at which severity and with which options: rule references resolved against the catalogue.

A reference is a rule id (``DRA401``), a name (``selector-matches-no-device``), an id prefix
(``DRA4``), a category (``allocation``) or ``all``. An unknown reference is a configuration
error at the place it was written, with a did-you-mean.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import Any

from dralint.config.resolve import Effective, Ref
from dralint.dataclass import dataclass
from dralint.errors import ConfigError
from dralint.findings import SEVERITIES, Severity
from dralint.rules import Rule, by_name_or_id
from dralint.rules import did_you_mean as suggest
from dralint.validate import userschema as schemacheck

ALL = frozenset({"all", "ALL"})


@dataclass(frozen=True, slots=True)
class Selection:
    """Which rules run, at which severity and with which options (from flags and configuration)."""

    enabled: frozenset[str]
    severities: Mapping[str, Severity] = field(default_factory=dict)
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # rule id -> option -> value
    path_ignores: tuple[tuple[str, frozenset[str]], ...] = ()  # (glob, rule ids)
    root: str = "."  # directory the path globs are relative to


def rule_ids(rules: Mapping[str, Rule], ref: Ref) -> list[str]:
    """The ids ``ref`` stands for."""
    text = ref.text.strip()
    if text in ALL:
        return list(rules)
    rule = by_name_or_id(rules, text)
    if rule is not None:
        return [rule.id]
    by_category = [r.id for r in rules.values() if r.category == text]
    if by_category:
        return by_category
    if text[:1].isupper():
        by_prefix = [rule_id for rule_id in rules if rule_id.startswith(text)]
        if by_prefix:
            return by_prefix
    hint = suggest(text, rules) or schemacheck.did_you_mean(text, sorted({r.category for r in rules.values()}))
    raise ConfigError(f"{ref.origin}: unknown rule {text!r}{hint}")


def resolve_all(rules: Mapping[str, Rule], refs: Iterable[Ref]) -> frozenset[str]:
    return frozenset(rule_id for ref in refs for rule_id in rule_ids(rules, ref))


def one_rule(rules: Mapping[str, Rule], ref: Ref) -> Rule:
    """The single rule ``ref`` names (id or name): severities and options apply to one rule."""
    rule = by_name_or_id(rules, ref.text)
    if rule is None:
        raise ConfigError(f"{ref.origin}: unknown rule {ref.text!r}{suggest(ref.text, rules)}")
    return rule


def selection(rules: Mapping[str, Rule], effective: Effective) -> Selection:
    """The :class:`Selection` of one run."""
    enabled = frozenset(rules) if effective.select is None else resolve_all(rules, effective.select)
    enabled -= resolve_all(rules, effective.ignore)
    severities: dict[str, Severity] = {}
    for ref, level in effective.severity:
        for severity in SEVERITIES:  # the schema allows only these
            if level == severity:
                severities[one_rule(rules, ref).id] = severity
    path_ignores = tuple((glob, resolve_all(rules, refs)) for glob, refs in effective.path_ignores)
    return Selection(
        enabled=enabled,
        severities=severities,
        options=rule_options(rules, effective),
        path_ignores=path_ignores,
        root=effective.root,
    )


def rule_options(rules: Mapping[str, Rule], effective: Effective) -> dict[str, dict[str, Any]]:
    """Every rule's options: defaults, overridden by configured values (validated against the option types)."""
    out = {rule.id: {name: option.default for name, option in rule.options.items()} for rule in rules.values()}
    out = {rule_id: values for rule_id, values in out.items() if values}
    for ref, configured in effective.options:
        rule = one_rule(rules, ref)
        if not rule.options:
            raise ConfigError(f"{ref.origin}: rule {rule.id} ({rule.name}) has no options")
        for name, value in configured.items():
            option = rule.options.get(name)
            if option is None:
                hint = schemacheck.did_you_mean(name, sorted(rule.options)) or f"; options: {', '.join(rule.options)}"
                raise ConfigError(f"{ref.origin}: rule {rule.id} has no option {name!r}{hint}")
            problems = schemacheck.problems(option.json_schema(), value)
            if problems:
                raise ConfigError(f"{ref.origin}: rule {rule.id} option {name}: {problems[0].message}")
            out.setdefault(rule.id, {})[name] = value
    return out
