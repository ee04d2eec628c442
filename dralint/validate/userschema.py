"""Validate user-written YAML (configuration, rule files, baselines) against a JSON schema shipped with dralint.

JSON-schema error messages are written for schema authors; the ones produced here are for
users: they name the key and its position, say what was expected, and suggest the closest
known key or value when the input looks like a typo.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from dralint import data
from dralint.apimachinery.fieldpath import Path, render
from dralint.errors import ConfigError
from dralint.validate.jsontypes import TYPE_PHRASES, SchemaError, problem_of, type_phrase

if TYPE_CHECKING:
    from dralint.validate.compiled import Check, Issue

Where = Callable[[Path], str]  # field path -> "file:line:col"


@cache
def schema(name: str) -> Mapping[str, Any]:
    """One of the JSON schemas of dralint's own files in ``schemas/`` (``schema("config.schema.json")``).

    Not checked against the meta-schema here (that costs more than validating): a test does it.
    """
    text = (data.folder("schemas") / name).read_text(encoding="utf-8")
    loaded: Mapping[str, Any] = json.loads(text)
    return loaded


def closest(word: str, candidates: Sequence[str], *, cutoff: float = 0.6) -> str | None:
    """The candidate ``word`` is most likely a typo of, if any is close enough."""
    import difflib  # only when there is something to suggest a name for

    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    if close:
        return close[0]
    lowered = {c.lower(): c for c in candidates}
    return lowered.get(word.lower())


def did_you_mean(word: str, candidates: Sequence[str], *, cutoff: float = 0.6) -> str:
    """``"; did you mean 'x'?"`` for the closest candidate, or ``""`` when nothing is close."""
    match = closest(word, candidates, cutoff=cutoff)
    return f"; did you mean {match!r}?" if match else ""


def problems(schema_: Mapping[str, Any], instance: Any) -> list[SchemaError]:
    """Every problem of ``instance``, in document order of their paths."""
    check = _compiled(schema_)
    return _sorted(jsonschema_problems(schema_, instance) if check is None else _problems(check, instance))


def _problems(check: Check, instance: Any) -> list[SchemaError]:
    issues: list[Issue] = []
    check(instance, None, issues)
    out: list[SchemaError] = []
    for issue in issues:
        out.extend(_explain(issue.keyword, issue.value, issue.instance, issue.schema, issue.path, issue.message))
    return out


def jsonschema_problems(schema_: Mapping[str, Any], instance: Any) -> list[SchemaError]:
    """The problems jsonschema finds, for the schemas dralint does not compile (and for tests), unsorted."""
    import referencing  # with jsonschema: 50-80 ms to import, only for a schema that needs it

    out: list[SchemaError] = []
    # An empty registry of our own: jsonschema's default one fetches a $ref to another document
    # (http:, file:) with urlopen. Only the JSON-schema meta-schemas, which it bundles, resolve.
    validator = _jsonschema_validator()(schema_, registry=referencing.Registry())
    for error in validator.iter_errors(instance):
        sub = error.schema if isinstance(error.schema, Mapping) else {}
        path = tuple(error.absolute_path)
        out.extend(_explain(str(error.validator), error.validator_value, error.instance, sub, path, error.message))
    return out


@cache
def _jsonschema_validator() -> Any:
    """jsonschema's Draft 2020-12 validator, with the keywords that match patterns matching them with RE2.

    jsonschema matches with Python's ``re``, which backtracks: a pattern of a user's driver
    profile could hang a run on a claim's value (or key). The three keywords below are jsonschema's,
    word for word but for the matching. The fourth that matches patterns, ``unevaluatedProperties``
    (through the ``patternProperties`` it meets), cannot be changed alone: a profile may not combine
    the two (:mod:`dralint.profiles.configschema`).
    """
    from jsonschema import Draft202012Validator, validators
    from jsonschema.exceptions import ValidationError

    from dralint.validate.usercompiled import compile_pattern

    def pattern(validator: Any, regex: str, instance: Any, schema: Mapping[str, Any]) -> Iterator[Any]:
        if validator.is_type(instance, "string") and compile_pattern(regex)(instance) is None:
            yield ValidationError(f"{instance!r} does not match {regex!r}")

    def pattern_properties(validator: Any, regexes: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        for regex, subschema in regexes.items():
            search = compile_pattern(regex)
            for key, value in instance.items():
                if search(key) is not None:
                    yield from validator.descend(value, subschema, path=key, schema_path=regex)

    def additional_properties(
        validator: Any, additional: Any, instance: Any, schema: Mapping[str, Any]
    ) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        extras = set(_additional_keys(instance, schema))
        if validator.is_type(additional, "object"):
            for extra in extras:
                yield from validator.descend(instance[extra], additional, path=extra)
        elif not additional and extras:
            if "patternProperties" in schema:
                verb = "does" if len(extras) == 1 else "do"
                joined = ", ".join(repr(each) for each in sorted(extras))
                patterns = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
                yield ValidationError(f"{joined} {verb} not match any of the regexes: {patterns}")
            else:
                unexpected = sorted(extras, key=str)
                verb = "was" if len(unexpected) == 1 else "were"
                listed = ", ".join(repr(each) for each in unexpected)
                yield ValidationError(f"Additional properties are not allowed ({listed} {verb} unexpected)")

    keywords = {
        "pattern": pattern,
        "patternProperties": pattern_properties,
        "additionalProperties": additional_properties,
    }
    return validators.extend(Draft202012Validator, keywords)  # type: ignore[no-untyped-call]


def _additional_keys(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> Iterator[str]:
    """The keys of ``instance`` that neither ``properties`` nor ``patternProperties`` of ``schema`` name."""
    declared = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    for key in instance:
        if key not in declared and not any(_search(pattern, key) for pattern in patterns):
            yield key


def _sorted(out: list[SchemaError]) -> list[SchemaError]:
    # Each required error names every absent key (jsonschema gives one error per key): keep each once.
    unique = list(dict.fromkeys(out))
    # Unknown keys first: a misspelt key is usually why a required one is "missing".
    return sorted(unique, key=lambda p: (p.problem != "unknown-field", _order(p.path)))


# Schemas compiled by dralint.validate.usercompiled, by identity (each kept here, so that its id is
# not reused), or None for those it refuses (validated with jsonschema). A run has a few: dralint's
# own and the configuration kinds of the drivers' profiles it reads; a language server reads the
# user's profiles again after each edit, so old ones are dropped beyond MAX_COMPILED.
_COMPILED: dict[int, tuple[Mapping[str, Any], Check | None]] = {}
MAX_COMPILED = 256


def _compiled(schema_: Mapping[str, Any]) -> Check | None:
    found = _COMPILED.get(id(schema_))
    if found is None or found[0] is not schema_:
        from dralint.validate.usercompiled import compile_root

        try:
            check: Check | None = compile_root(schema_)
        except ValueError:
            check = None
        if len(_COMPILED) >= MAX_COMPILED:
            _COMPILED.clear()
        found = _COMPILED[id(schema_)] = (schema_, check)
    return found[1]


def _order(path: Path) -> list[tuple[int, int | str]]:
    return [(0, step) if isinstance(step, int) else (1, str(step)) for step in path]


# Expected types read better as "true or false" than as "a boolean" in a configuration file.
_EXPECTED = {**TYPE_PHRASES, "boolean": "true or false"}


def _explain(
    kind: str, expected: Any, instance: Any, sub: Mapping[str, Any], path: Path, english: str
) -> list[SchemaError]:
    """The problems of one failed keyword, read from the keyword, its value, the instance, the schema
    object holding the keyword and the path (never from the English message, except for keywords
    no user file is expected to fail)."""
    problem = problem_of(kind)
    if kind == "additionalProperties" and isinstance(instance, Mapping):
        known = sorted(sub.get("properties", {}))
        out = []
        for key in _additional_keys(instance, sub):
            hint = did_you_mean(str(key), known) or (f"; known keys: {', '.join(known)}" if known else "")
            out.append(SchemaError(problem, (*path, str(key)), f"unknown key {key!r}{hint}"))
        return out
    if kind == "required":
        present = instance if isinstance(instance, Mapping) else {}
        return [
            SchemaError(problem, path, f"missing required key {name!r}") for name in expected if name not in present
        ]
    if kind == "enum":
        allowed = [str(v) for v in expected]
        hint = did_you_mean(str(instance), allowed)
        return [SchemaError(problem, path, f"{instance!r} is not one of {', '.join(allowed)}{hint}")]
    if kind == "const":
        return [SchemaError(problem, path, f"must be {expected!r}")]
    if kind == "type":
        types = expected if isinstance(expected, list) else [expected]
        names = " or ".join(_EXPECTED.get(str(t), str(t)) for t in types)
        advice = f"; {sub['x-message']}" if "x-message" in sub else ""
        return [SchemaError(problem, path, f"expected {names}, got {type_phrase(instance)}{advice}")]
    if "x-message" in sub:
        return [SchemaError(problem, path, f"{instance!r}: {sub['x-message']}")]
    if kind in ("minLength", "minItems", "minProperties"):
        if expected == 1:
            return [SchemaError(problem, path, "must not be empty")]
        unit = {"minLength": "characters", "minItems": "items", "minProperties": "keys"}[kind]
        return [SchemaError(problem, path, f"must have at least {expected} {unit}")]
    if kind == "propertyNames":
        return [SchemaError(problem, path, f"invalid key {instance!r}")]
    # jsonschema's own words for these print the whole value and schema as Python reprs.
    if kind == "not":
        return [SchemaError(problem, path, "must not match the schema under `not`")]
    if kind == "None":  # the false schema (``false``, ``allOf: [false]``): nothing is allowed there
        return [SchemaError(problem, path, "no value is allowed here")]
    return [SchemaError(problem, path, english)]


def _search(pattern: str, text: str) -> bool:
    from dralint.validate.usercompiled import compile_pattern

    return compile_pattern(pattern)(text) is not None


def raise_first(found: Sequence[SchemaError], where: Where) -> None:
    """Raise a :class:`ConfigError` for the first problem (counting the others), if any."""
    if not found:
        return
    first = found[0]
    more = f" (and {len(found) - 1} more problem{'s' * (len(found) > 2)})" if len(found) > 1 else ""
    field = f"{render(first.path)}: " if first.path else ""
    raise ConfigError(f"{where(first.path)}: {field}{first.message}{more}")


def validate(schema_: Mapping[str, Any], instance: Any, where: Where) -> None:
    """Raise a :class:`ConfigError` naming file, line and key when ``instance`` does not fit ``schema_``."""
    raise_first(problems(schema_, instance), where)
