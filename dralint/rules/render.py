"""Rules rendered for people and tools: Markdown pages (``docs/rules/*.md``, ``dralint explain``, SARIF help) and JSON.

Sections follow ruff's: What it does, Why is this bad?, Example, Use instead, then Options,
Notes and References when the rule has them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from dralint.rules import Rule

INDEX_TITLE = "# dralint rules"


def _fence(text: str, language: str = "yaml") -> str:
    return f"```{language}\n{text.rstrip()}\n```"


def _value(value: object) -> str:
    return f"`{json.dumps(value)}`"


def markdown(rule: Rule) -> str:
    """The full documentation page of ``rule``."""
    docs = rule.docs
    out = [f"# {rule.id} {rule.name}", "", rule.summary[:1].upper() + rule.summary[1:] + ".", ""]
    checked_by = f"check `{rule.check}`" if rule.check else "CEL policy"
    out += [f"Category: {rule.category} · Default severity: {rule.severity} · Reported by: {checked_by}", ""]
    if "what" in docs:
        out += ["## What it does", "", docs["what"].strip(), ""]
    if "why" in docs:
        out += ["## Why is this bad?", "", docs["why"].strip(), ""]
    if "example" in docs:
        out += ["## Example", ""]
        if docs.get("example_encoding"):
            out += [f"Saved as {docs['example_encoding']}:", ""]
        if docs.get("example_file"):
            out += [f"Saved as `{docs['example_file']}`:", ""]
        out += [_fence(docs["example"]), ""]
        if "example_config" in docs:
            out += ["With this configuration (`.dralint.yaml`):", "", _fence(docs["example_config"]), ""]
    if "use_instead" in docs:
        out += ["## Use instead", "", _fence(docs["use_instead"]), ""]
        if "use_instead_config" in docs:
            out += ["With this configuration (`.dralint.yaml`):", "", _fence(docs["use_instead_config"]), ""]
    if rule.policy is not None:
        policy = rule.policy
        out += ["## Policy", "", _fence(policy.expression.strip(), "cel"), ""]
        scope = [f"apiVersion {', '.join(policy.match.api_versions)}"] if policy.match.api_versions else []
        scope += [f"kind {', '.join(policy.match.kinds)}"] if policy.match.kinds else []
        out += [f"Applies to: {'; '.join(scope) if scope else 'every object'}.", ""]
    if rule.options:
        out += ["## Options", "", "| Option | Type | Default | Description |", "| --- | --- | --- | --- |"]
        for option in rule.options.values():
            out.append(f"| `{option.name}` | {option.type} | {_value(option.default)} | {option.description} |")
        first = next(iter(rule.options.values()))
        snippet = f"rules:\n  options:\n    {rule.id}:\n      {first.name}: {json.dumps(first.default)}"
        out += ["", "Set them in `.dralint.yaml`:", "", _fence(snippet), ""]
    if "notes" in docs:
        out += ["## Notes", "", docs["notes"].strip(), ""]
    if docs.get("references"):
        out += ["## References", ""] + [f"- <{url}>" for url in docs["references"]] + [""]
    return "\n".join(out).rstrip() + "\n"


def index(rules: Iterable[Rule], *, links: bool = True) -> str:
    """The table of every rule (``docs/rules/README.md``, ``dralint rules --format markdown``)."""
    out = [
        INDEX_TITLE,
        "",
        "Generated from `rules/*.yaml` by `scripts/generate_rule_docs.py`; do not edit.",
        "",
        "| ID | Name | Category | Severity | Summary |",
        "| --- | --- | --- | --- | --- |",
    ]
    for rule in rules:
        rule_id = f"[{rule.id}]({rule.id}.md)" if links and rule.builtin else rule.id
        summary = rule.summary.replace("|", "\\|")
        out.append(f"| {rule_id} | {rule.name} | {rule.category} | {rule.severity} | {summary} |")
    return "\n".join(out) + "\n"


def pages(rules: Iterable[Rule]) -> dict[str, str]:
    """Every generated file of ``docs/rules/``: one page per built-in rule and the index."""
    builtin = [rule for rule in rules if rule.builtin]
    out = {f"{rule.id}.md": markdown(rule) for rule in builtin}
    out["README.md"] = index(builtin)
    return out


def as_dict(rule: Rule) -> dict[str, Any]:
    """The rule as plain data (``dralint rules --format json``)."""
    out: dict[str, Any] = {
        "id": rule.id,
        "name": rule.name,
        "category": rule.category,
        "severity": rule.severity,
        "summary": rule.summary,
        "builtin": rule.builtin,
    }
    if rule.check is not None:
        out["check"] = rule.check
    if rule.policy is not None:
        policy = rule.policy
        out["policy"] = {
            "match": {"apiVersions": list(policy.match.api_versions), "kinds": list(policy.match.kinds)},
            "expression": policy.expression,
            **({"message": policy.message} if policy.message else {}),
            **({"messageExpression": policy.message_expression} if policy.message_expression else {}),
        }
    if rule.options:
        out["options"] = {
            name: {"type": o.type, "default": o.default, "description": o.description}
            for name, o in rule.options.items()
        }
    out["docs"] = dict(rule.docs)
    out["source"] = rule.source
    return out
