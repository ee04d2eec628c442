"""The rule catalogue: every rule dralint knows, loaded from YAML files.

A rule is data (id, name, category, default severity, summary, typed options, documentation)
plus what reports it: the name of a Python check registered in :mod:`dralint.checks.registry`, or a CEL
``policy`` over the object (the way ValidatingAdmissionPolicy works). Built-in rules live in
the top-level ``rules/`` folder (``CATALOGUE_FILES``); users add their own files with
``--rules`` or the configuration. Every file is validated against ``schema.json``; a broken
file is a :class:`~dralint.errors.ConfigError` naming file, line and column.
The built-in files are read decoded ahead of time when they can be (``rules/decoded.json``, see
:mod:`dralint.data`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from functools import cache
from typing import Any, Literal

from dralint import data
from dralint.apimachinery.fieldpath import Path, is_path, parse
from dralint.dataclass import dataclass
from dralint.errors import ConfigError
from dralint.findings import Severity
from dralint.read import userfile
from dralint.validate import userschema as schemacheck

CATALOGUE_FILES = (
    "input.yaml",
    "schema.yaml",
    "apiserver.yaml",
    "defaulting.yaml",
    "skew.yaml",
    "references.yaml",
    "cel.yaml",
    "runtime.yaml",
    "allocation.yaml",
    "scheduling.yaml",
    "sharing.yaml",
    "inventory.yaml",
    "meta.yaml",
    "profiles.yaml",
)
DOC_SECTIONS = ("what", "why", "example", "use_instead")
BUILTIN_PREFIX = "DRA"
USER_RULE_SUFFIXES = (".yaml", ".yml")

OptionType = Literal["integer", "number", "string", "boolean", "list"]
_OPTION_JSON_TYPES: dict[str, Any] = {
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "string": {"type": "string"},
    "boolean": {"type": "boolean"},
    "list": {"type": "array", "items": {"type": "string"}},
}


@dataclass(frozen=True, slots=True)
class RuleOption:
    """A typed option of a rule; checks read its value (the default unless configured) from the context."""

    name: str
    type: OptionType
    default: Any
    description: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()

    def json_schema(self) -> dict[str, Any]:
        """The JSON schema a configured value must satisfy."""
        out = dict(_OPTION_JSON_TYPES[self.type])
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.choices:
            out["enum"] = list(self.choices)
        return out


@dataclass(frozen=True, slots=True)
class Match:
    """Which objects a policy applies to: ``apiVersions`` and ``kinds`` globs (empty = all)."""

    api_versions: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Policy:
    """A CEL policy: ``expression`` must be true for every matched object (``object`` = the manifest)."""

    expression: str
    match: Match = field(default_factory=Match)
    conditions: tuple[tuple[str, str], ...] = ()  # (name, expression) that must all hold to apply
    message: str | None = None
    message_expression: str | None = None
    path: Path = ()  # where in the object the finding points
    hint: str | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    name: str
    category: str
    severity: Severity
    summary: str
    check: str | None = None  # the registered check that reports it, or None for a policy
    policy: Policy | None = None
    options: Mapping[str, RuleOption] = field(default_factory=dict)
    docs: Mapping[str, Any] = field(default_factory=dict)  # what, why, example, use_instead, notes, ...
    source: str = ""  # file the rule was loaded from
    line: int = 0
    builtin: bool = True


def _schema() -> Mapping[str, Any]:
    return schemacheck.schema("rules.schema.json")


def load_file(file: userfile.UserFile, *, builtin: bool) -> list[Rule]:
    """The rules of one decoded rule file, validated (the built-in catalogue is read without this, from
    ``decoded.json``: a test validates its files)."""
    data = [] if file.data is None else file.data
    schemacheck.validate(_schema(), data, file.where)
    rules = []
    for index, entry in enumerate(data):
        rule = _rule(entry, file.name, file.position((index,))[0], builtin=builtin)
        _check_rule(rule, entry, file, index)
        rules.append(rule)
    return rules


def _rule(entry: Mapping[str, Any], source: str, line: int, *, builtin: bool) -> Rule:
    policy = entry.get("policy")
    return Rule(
        id=entry["id"],
        name=entry["name"],
        category=entry.get("category", "custom"),
        severity=entry["severity"],
        summary=entry["summary"],
        check=entry.get("check"),
        policy=_policy(policy) if policy is not None else None,
        options={
            name: RuleOption(
                name=name,
                type=spec["type"],
                default=spec["default"],
                description=spec["description"],
                minimum=spec.get("minimum"),
                maximum=spec.get("maximum"),
                choices=tuple(spec.get("enum", ())),
            )
            for name, spec in (entry.get("options") or {}).items()
        },
        docs=dict(entry.get("docs") or {}),
        source=source,
        line=line,
        builtin=builtin,
    )


def _policy(data: Mapping[str, Any]) -> Policy:
    match = data.get("match") or {}
    return Policy(
        expression=data["expression"],
        match=Match(tuple(match.get("apiVersions", ())), tuple(match.get("kinds", ()))),
        conditions=tuple((c["name"], c["expression"]) for c in data.get("matchConditions", ())),
        message=data.get("message"),
        message_expression=data.get("messageExpression"),
        path=parse(data["path"]) if data.get("path") else (),
        hint=data.get("hint"),
    )


def _check_rule(rule: Rule, entry: Mapping[str, Any], file: userfile.UserFile, index: int) -> None:
    """What the schema cannot say: built-in versus user rules, checks that exist, option defaults."""

    def fail(path: Path, message: str) -> None:
        raise ConfigError(f"{file.where((index, *path))}: rule {rule.id}: {message}")

    if (rule.check is None) == (rule.policy is None):
        fail((), "give either `check` (a built-in check) or `policy` (a CEL policy), not both or neither")
    if rule.builtin:
        if not rule.id.startswith(BUILTIN_PREFIX):
            fail(("id",), f"built-in rule ids start with {BUILTIN_PREFIX}")
        if "category" not in entry:
            fail((), "built-in rules need a `category`")
        if "docs" not in entry:
            fail((), f"built-in rules need `docs` ({', '.join(DOC_SECTIONS)})")
    else:
        if rule.id.startswith(BUILTIN_PREFIX):
            fail(("id",), f"ids starting with {BUILTIN_PREFIX} are reserved for built-in rules; use your own prefix")
        if rule.check is not None:
            fail(("check",), "`check` names one of dralint's Python checks; user rules are CEL policies (`policy:`)")
    if rule.check is not None:
        from dralint.checks import registry  # the checks bring the object model: only when a rule names one

        if not registry.known(rule.check):
            hint = schemacheck.did_you_mean(rule.check, sorted(registry.CHECKS))
            fail(("check",), f"no check is registered as {rule.check!r}{hint}")
    for option in rule.options.values():
        problems = schemacheck.problems(option.json_schema(), option.default)
        if problems:
            fail(("options", option.name, "default"), f"default does not fit the option: {problems[0].message}")
    if rule.policy is not None:
        _compile_policy(rule, entry["policy"], file, index)


def _compile_policy(rule: Rule, data: Mapping[str, Any], file: userfile.UserFile, index: int) -> None:
    """Compile every expression of a policy so that a broken rule fails at load time, not per object."""
    from dralint.policy import cel  # the CEL engine loads only for catalogues with policies

    expressions: list[tuple[Path, str, cel.Result]] = [(("expression",), data["expression"], "bool")]
    if "messageExpression" in data:
        expressions.append((("messageExpression",), data["messageExpression"], "string"))
    expressions += [
        (("matchConditions", n, "expression"), c["expression"], "bool")
        for n, c in enumerate(data.get("matchConditions", ()))
    ]
    if data.get("message") is None and data.get("messageExpression") is None:
        raise ConfigError(
            f"{file.where((index, 'policy'))}: rule {rule.id}: a policy needs `message` or `messageExpression`"
        )
    names = [condition["name"] for condition in data.get("matchConditions", ())]
    for position, name in enumerate(names):
        if name in names[:position]:  # as a ValidatingAdmissionPolicy, whose conditions are keyed by name
            raise ConfigError(
                f"{file.where((index, 'policy', 'matchConditions', position, 'name'))}: rule {rule.id}: "
                f"policy.matchConditions[{position}].name: duplicate name {name!r}"
            )
    if data.get("path") and not is_path(data["path"]):
        raise ConfigError(
            f"{file.where((index, 'policy', 'path'))}: rule {rule.id}: policy.path: {data['path']!r} is not a field "
            "path; write fields with dots, indexes and map keys in brackets, e.g. spec.devices.requests[0].name"
        )
    for path, text, result in expressions:
        try:
            cel.compile_expression(text, result)
        except cel.CelCompileError as error:
            where = file.where((index, "policy", *path), error.offset)
            raise ConfigError(f"{where}: rule {rule.id}: policy.{'.'.join(map(str, path))}: {error.message}") from None


def _merge(into: dict[str, Rule], rules: Iterable[Rule]) -> None:
    names = {rule.name: rule for rule in into.values()}
    for rule in rules:
        for existing in (into.get(rule.id), names.get(rule.name)):
            if existing is not None:
                what = "id" if existing.id == rule.id else "name"
                value = rule.id if what == "id" else rule.name
                raise ConfigError(
                    f"{rule.source}:{rule.line}:1: duplicate rule {what} {value} "
                    f"(already defined at {existing.source}:{existing.line})"
                )
        into[rule.id] = rule
        names[rule.name] = rule


@cache
def builtin_rules() -> dict[str, Rule]:
    """The built-in catalogue, keyed by rule id, in id order."""
    rules: dict[str, Rule] = {}
    for source, line, entry in _builtin_entries(builtin_texts()):
        _merge(rules, [_rule(entry, source, line, builtin=True)])
    return dict(sorted(rules.items()))


Entry = tuple[str, int, Mapping[str, Any]]  # (file as the repository names it, line, the rule as written)


def builtin_texts() -> dict[str, str]:
    """The built-in rule files: name in ``rules/`` -> text."""
    folder = data.folder("rules")
    return {name: (folder / name).read_text(encoding="utf-8") for name in CATALOGUE_FILES if (folder / name).is_file()}


def _builtin_entries(texts: Mapping[str, str]) -> list[Entry]:
    found = data.decoded("rules", texts)
    if found is None:
        found = {name: decode_builtin(name, text) for name, text in texts.items()}
    return [(f"rules/{name}", line, entry) for name, rules in found.items() for line, entry in rules]


def decode_builtin(name: str, text: str) -> list[tuple[int, Mapping[str, Any]]]:
    """(line, the rule as written) of each rule of a built-in file, decoded from YAML."""
    file = userfile.parse(f"rules/{name}", text)
    return [(file.position((index,))[0], entry) for index, entry in enumerate(file.data or [])]


def user_rule_files(paths: Sequence[str]) -> list[str]:
    """The rule files named by ``paths``: files as given, directories' ``*.yaml``/``*.yml`` (sorted, not recursive)."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n.endswith(USER_RULE_SUFFIXES) and not n.startswith("."))
            out.extend(os.path.join(path, n) for n in names)
        elif os.path.exists(path):
            out.append(path)
        else:
            raise ConfigError(f"{path}: no such rule file or directory")
    return out


def catalogue(user_paths: Sequence[str] = ()) -> dict[str, Rule]:
    """Built-in rules plus the user rules in ``user_paths``, keyed by id, in id order."""
    rules = dict(builtin_rules())
    for path in user_rule_files(user_paths):
        _merge(rules, load_file(userfile.read(path), builtin=False))
    return dict(sorted(rules.items()))


_RULE_ID = re.compile(r"[A-Z]+[0-9]+")


def did_you_mean(key: str, rules: Mapping[str, Rule]) -> str:
    """A suggestion for a mistyped rule id or name (ids must be nearly equal: DRA999 is not DRA129)."""
    if _RULE_ID.fullmatch(key):
        return schemacheck.did_you_mean(key, list(rules), cutoff=0.8)
    return schemacheck.did_you_mean(key, [r.name for r in rules.values()])


def by_name_or_id(rules: Mapping[str, Rule], key: str) -> Rule | None:
    """Look a rule up by id (``DRA101``) or name (``unsatisfiable-claim``)."""
    if key in rules:
        return rules[key]
    for rule in rules.values():
        if rule.name == key:
            return rule
    return None
