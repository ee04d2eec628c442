"""Validate user-written YAML (configuration, rule files, baselines) against a JSON schema shipped with dralint.

JSON-schema error messages are written for schema authors; the ones produced here are for
users: they name the key and its position, say what was expected, and suggest the closest
known key or value when the input looks like a typo.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from dralint import data
from dralint.apimachinery.fieldpath import Path, render
from dralint.errors import ConfigError
from dralint.validate.jsontypes import TYPE_PHRASES, SchemaError, problem_of, type_phrase

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

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
    from jsonschema import Draft202012Validator  # imported only when a user file is checked (50-80 ms)

    validator = Draft202012Validator(schema_)
    out: list[SchemaError] = []
    for error in validator.iter_errors(instance):
        out.extend(_explain(error))
    # Each required error names every absent key (jsonschema gives one error per key): keep each once.
    unique = list(dict.fromkeys(out))
    # Unknown keys first: a misspelt key is usually why a required one is "missing".
    return sorted(unique, key=lambda p: (p.problem != "unknown-field", _order(p.path)))


def _order(path: Path) -> list[tuple[int, int | str]]:
    return [(0, step) if isinstance(step, int) else (1, str(step)) for step in path]


# Expected types read better as "true or false" than as "a boolean" in a configuration file.
_EXPECTED = {**TYPE_PHRASES, "boolean": "true or false"}


def _explain(error: ValidationError) -> list[SchemaError]:
    """The problems of one of jsonschema's errors, read from its keyword, keyword value, instance and
    path (never from its English message, except for keywords no user file is expected to fail)."""
    path: Path = tuple(error.absolute_path)
    problem = problem_of(str(error.validator))
    sub = error.schema if isinstance(error.schema, Mapping) else {}
    kind = error.validator
    expected: Any = error.validator_value
    if kind == "additionalProperties" and isinstance(error.instance, Mapping):
        known = sorted(sub.get("properties", {}))
        pattern_props = sub.get("patternProperties", {})
        out = []
        for key in error.instance:
            if key in known or any(_search(p, key) for p in pattern_props):
                continue
            hint = did_you_mean(str(key), known) or (f"; known keys: {', '.join(known)}" if known else "")
            out.append(SchemaError(problem, (*path, str(key)), f"unknown key {key!r}{hint}"))
        return out
    if kind == "required":
        present = error.instance if isinstance(error.instance, Mapping) else {}
        return [
            SchemaError(problem, path, f"missing required key {name!r}") for name in expected if name not in present
        ]
    if kind == "enum":
        allowed = [str(v) for v in expected]
        hint = did_you_mean(str(error.instance), allowed)
        return [SchemaError(problem, path, f"{error.instance!r} is not one of {', '.join(allowed)}{hint}")]
    if kind == "const":
        return [SchemaError(problem, path, f"must be {expected!r}")]
    if kind == "type":
        types = expected if isinstance(expected, list) else [expected]
        names = " or ".join(_EXPECTED.get(str(t), str(t)) for t in types)
        advice = f"; {sub['x-message']}" if "x-message" in sub else ""
        return [SchemaError(problem, path, f"expected {names}, got {type_phrase(error.instance)}{advice}")]
    if "x-message" in sub:
        return [SchemaError(problem, path, f"{error.instance!r}: {sub['x-message']}")]
    if kind in ("minLength", "minItems", "minProperties"):
        return [SchemaError(problem, path, "must not be empty")]
    if kind == "propertyNames":
        return [SchemaError(problem, path, f"invalid key {error.instance!r}")]
    return [SchemaError(problem, path, error.message)]


def _search(pattern: str, text: str) -> bool:
    return re.search(pattern, text) is not None


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
