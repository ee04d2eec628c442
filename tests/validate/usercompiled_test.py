"""The validator of user-facing schemas agrees with jsonschema (Draft 2020-12): the same problems, in the same order.

On the configuration schemas of every shipped driver profile, with the parameters the corpus,
the examples and the fixtures give those drivers, and on dralint's own schemas with the files
of the fixtures; each also mutated at random.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from dralint.profiles.load import builtin, parse
from dralint.read.load import load
from dralint.read.yamldoc import decode
from dralint.validate import userschema
from dralint.validate.usercompiled import compile_pattern, compile_root
from testing.mutate import mutate
from tests.conftest import CORPUS, FIXTURES, ROOT, require_shared

OWN_SCHEMAS = ("config.schema.json", "inventory.schema.json", "profile.schema.json", "rules.schema.json")


def _config_schemas() -> list[Mapping[str, Any]]:
    out = []
    for driver, path in builtin().items():
        for profile in parse(f"profiles/{path.name}", path.read_text(encoding="utf-8"), validate=False):
            if profile.driver == driver and profile.configs:
                out.extend(kind.schema for kinds in profile.configs.values() for kind in kinds)
    return out


def _opaque_parameters(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        opaque = value.get("opaque")
        if isinstance(opaque, dict) and "parameters" in opaque:
            yield opaque["parameters"]
        for item in value.values():
            yield from _opaque_parameters(item)
    elif isinstance(value, list):
        for item in value:
            yield from _opaque_parameters(item)


def _keys(schema: Any) -> set[str]:
    """Every property name a schema declares, anywhere: mutations add them with wrong values."""
    found: set[str] = set()
    if isinstance(schema, dict):
        found.update(schema.get("properties", {}))
        for value in schema.values():
            found |= _keys(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= _keys(value)
    return found


def _compare(schema: Mapping[str, Any], instances: list[Any], rnd: random.Random, rounds: int) -> tuple[int, list[Any]]:
    """(cases with problems, the instances on which the two validators disagree)."""
    check = compile_root(schema)
    keys = sorted(_keys(schema)) or ["extra"]
    found, disagreements = 0, []
    for instance in instances:
        for candidate in [instance, *(mutate(instance, rnd, keys) for _ in range(rounds))]:
            ours = userschema._sorted(userschema._problems(check, candidate))
            theirs = userschema._sorted(userschema.jsonschema_problems(schema, candidate))
            found += bool(ours)
            if ours != theirs:
                disagreements.append((candidate, ours, theirs))
    return found, disagreements


def test_usercompiled_agrees_with_jsonschema_on_driver_configuration() -> None:
    corpus = require_shared(CORPUS)
    workspace = load([str(corpus), str(ROOT / "examples"), str(FIXTURES)])
    parameters = [p for obj in workspace.objects for p in _opaque_parameters(obj.raw)]
    schemas = _config_schemas()
    assert len(schemas) > 20 and len(parameters) > 20
    rnd = random.Random(12)
    found, disagreements = 0, []
    for schema in schemas:
        instances = [{}, *rnd.sample(parameters, 8)]
        more_found, more = _compare(schema, instances, rnd, rounds=6)
        found, disagreements = found + more_found, disagreements + more
    assert disagreements == []
    assert found > 500  # most cases have problems: the comparison covers the messages


def _documents(folder: Path) -> list[Any]:
    out = []
    for path in sorted(folder.rglob("*.yaml")):
        documents, _ = decode(str(path), path.read_text(encoding="utf-8"), templates=False)
        out.extend(document.data for document in documents)
    return out


@pytest.mark.parametrize("name", OWN_SCHEMAS)
def test_usercompiled_agrees_with_jsonschema_on_dralints_own_files(name: str) -> None:
    schema = userschema.schema(name)
    instances = {
        "config.schema.json": lambda: _documents(FIXTURES / "config"),
        "inventory.schema.json": lambda: [o.raw for o in load([str(FIXTURES)]).objects if o.kind == "Inventory"],
        "profile.schema.json": lambda: _documents(ROOT / "profiles") + _documents(FIXTURES / "profiles"),
        "rules.schema.json": lambda: _documents(ROOT / "rules") + _documents(FIXTURES / "rules"),
    }[name]()
    assert instances
    found, disagreements = _compare(schema, instances, random.Random(5), rounds=4)
    assert disagreements == []
    assert found


def test_usercompiled_refuses_what_it_does_not_implement() -> None:
    for schema in (
        {"type": "array", "contains": {"type": "string"}},
        {"patternProperties": {"^a": {"type": "string"}}},
        {"items": False},
        {"not": False},
        {"$ref": "#/$defs/missing"},
        {"$ref": "#/$defs/a", "$defs": {"a": {"contains": {"type": "string"}}}},  # a definition too
        {"pattern": "(?<=a)b"},  # RE2 has no lookaround (a user's profile with one is refused when it loads)
    ):
        with pytest.raises(ValueError):
            compile_root(schema)
    assert userschema.problems({"type": "array", "contains": {"type": "string"}}, [1])  # jsonschema validates it
    assert userschema.problems({"$ref": "#/$defs/a", "$defs": {"a": {"contains": {"type": "string"}}}}, [1])


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [
        ("b", "abc", True),  # unanchored: a match anywhere
        ("^b", "abc", False),
        ("^a$", "a\n", False),  # ECMA-262's $ is the end, not before a last newline as in Python's re
        ("^\\d$", "\u0663", False),  # ECMA-262's \d is ASCII
        ("^\\u0041+$", "AAA", True),  # ECMA-262's \uXXXX
        ("^\\\\u0041$", "\\u0041", True),  # an escaped backslash, then u0041
        ("^(?<word>[a-z]+)$", "abc", True),  # ECMA-262's named group, which Python's re refuses
    ],
)
def test_patterns_are_searched_with_ecma_262_meanings(pattern: str, text: str, found: bool) -> None:
    assert (compile_pattern(pattern)(text) is not None) is found


def test_patterns_are_matched_in_linear_time() -> None:
    # Python's re takes 2**n steps to fail ^(a+)+$ on n a's and a !: this would not end.
    hostile = "a" * 100_000 + "!"
    assert compile_pattern("^(a+)+$")(hostile) is None
    compiled = {"pattern": "^(a+)+$"}  # dralint's validator
    assert [p.problem for p in userschema.problems(compiled, hostile)] == ["invalid-format"]
    fallback = {"patternProperties": {"^(a+)+$": {"type": "string"}}, "additionalProperties": False}  # jsonschema's
    assert [(p.problem, p.path) for p in userschema.problems(fallback, {hostile: 1})] == [("unknown-field", (hostile,))]
