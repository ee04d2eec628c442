"""``dralint rules`` (the catalogue as text, JSON or Markdown) and ``dralint explain RULE``."""

from __future__ import annotations

import json
import sys

from dralint.config.resolve import Layer, named_by
from dralint.dataclass import dataclass
from dralint.errors import UsageError
from dralint.pipeline import run as pipeline
from dralint.rules import Rule, by_name_or_id, catalogue, did_you_mean
from dralint.rules import render as rule_docs


@dataclass(frozen=True, slots=True)
class RulesSettings:
    format: str = "text"  # text | json | markdown
    rule_paths: tuple[str, ...] = ()
    config: str | None = None
    no_config: bool = False


def _catalogue(settings: RulesSettings) -> dict[str, Rule]:
    flags = Layer(rule_paths=settings.rule_paths or None, named=named_by(None, rule_paths=settings.rule_paths))
    effective = pipeline.configuration(pipeline.Request(flags, settings.config, settings.no_config))
    pipeline.require(effective, "rule_paths", effective.rule_paths)
    return catalogue(effective.rule_paths)


def text(rules: dict[str, Rule]) -> str:
    width = max((len(r.name) for r in rules.values()), default=0)
    lines = [f"{r.id:<8} {r.name:<{width}}  {r.severity:<7}  {r.category:<10}  {r.summary}" for r in rules.values()]
    return "\n".join(lines) + "\n"


def run(settings: RulesSettings) -> int:
    rules = _catalogue(settings)
    if settings.format == "json":
        sys.stdout.write(
            json.dumps([rule_docs.as_dict(r) for r in rules.values()], indent=2, ensure_ascii=False) + "\n"
        )
    elif settings.format == "markdown":
        sys.stdout.write(rule_docs.index(rules.values(), links=False))
    else:
        sys.stdout.write(text(rules))
    return 0


def explain(settings: RulesSettings, key: str) -> int:
    rules = _catalogue(settings)
    rule = by_name_or_id(rules, key) or by_name_or_id(rules, key.upper())
    if rule is None:
        hint = did_you_mean(key.upper() if key[:3].lower() == "dra" else key, rules)
        raise UsageError(f"unknown rule {key!r}{hint}")
    sys.stdout.write(rule_docs.markdown(rule))
    return 0
