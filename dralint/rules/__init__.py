"""The rule catalogue: every rule dralint knows, loaded from the YAML files in this folder.

A rule is data (id, name, category, default severity, summary, documentation) plus the name of
the check that reports it. Checks are code registered in :mod:`dralint.checks`; a rule file
never contains Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ruamel.yaml import YAML

from dralint.errors import ConfigError
from dralint.findings import SEVERITIES, Severity

CATALOGUE_FILES = (
    "input.yaml",
    "schema.yaml",
    "apiserver.yaml",
    "skew.yaml",
    "references.yaml",
    "cel.yaml",
    "runtime.yaml",
    "allocation.yaml",
    "sharing.yaml",
    "inventory.yaml",
    "meta.yaml",
)


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    name: str
    category: str
    severity: Severity
    summary: str
    check: str  # the registered check that reports it
    docs: Mapping[str, str] = field(default_factory=dict)
    source: str = ""  # file the rule was loaded from


def _load_file(text: str, source: str) -> list[Rule]:
    data = YAML(typ="safe").load(text) or []  # the C loader when ruamel.yaml.clib is there
    rules = []
    for entry in data:
        if not isinstance(entry, dict):
            raise ConfigError(f"{source}: every rule must be a mapping")
        try:
            severity = entry["severity"]
            if severity not in SEVERITIES:
                raise ConfigError(f"{source}: rule {entry.get('id')}: unknown severity {severity!r}")
            rules.append(
                Rule(
                    id=str(entry["id"]),
                    name=str(entry["name"]),
                    category=str(entry["category"]),
                    severity=severity,
                    summary=str(entry["summary"]),
                    check=str(entry["check"]),
                    docs={str(k): str(v) for k, v in (entry.get("docs") or {}).items()},
                    source=source,
                )
            )
        except KeyError as missing:
            raise ConfigError(f"{source}: rule {entry.get('id', '?')} lacks {missing}") from None
    return rules


@cache
def builtin_rules() -> dict[str, Rule]:
    """The built-in catalogue, keyed by rule id, in id order."""
    rules: dict[str, Rule] = {}
    package = resources.files(__name__)
    for name in CATALOGUE_FILES:
        resource = package / name
        if not resource.is_file():
            continue
        for rule in _load_file(resource.read_text(encoding="utf-8"), f"rules/{name}"):
            if rule.id in rules:
                raise ConfigError(f"rules/{name}: duplicate rule id {rule.id}")
            rules[rule.id] = rule
    return dict(sorted(rules.items()))


def by_name_or_id(rules: Mapping[str, Rule], key: str) -> Rule | None:
    """Look a rule up by id (``DRA101``) or name (``unsatisfiable-claim``)."""
    if key in rules:
        return rules[key]
    for rule in rules.values():
        if rule.name == key:
            return rule
    return None


def as_dict(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "name": rule.name,
        "category": rule.category,
        "severity": rule.severity,
        "summary": rule.summary,
        "check": rule.check,
        "docs": dict(rule.docs),
    }
