"""User-facing JSON-schema validation: positions, plain-language messages, did-you-mean."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from dralint.errors import ConfigError
from dralint.read import userfile
from dralint.validate import userschema as schemacheck


@pytest.mark.parametrize("name", ["config.schema.json", "inventory.schema.json", "rules.schema.json"])
def test_shipped_schemas_are_valid_json_schemas(name: str) -> None:
    Draft202012Validator.check_schema(schemacheck.schema(name))


SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name"],
    "properties": {
        "name": {"type": "string"},
        "level": {"enum": ["low", "high"]},
        "items": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
        "code": {"type": "string", "minLength": 3},
        "labels": {"type": "object", "minProperties": 2},
    },
}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nme: x\n", "t.yaml:1:1: nme: unknown key 'nme'; did you mean 'name'? (and 1 more problem)"),
        (
            "name: x\ncolour: red\n",
            "t.yaml:2:1: colour: unknown key 'colour'; known keys: code, items, labels, level, name",
        ),
        ("name: x\nlevel: hihg\n", "t.yaml:2:1: level: 'hihg' is not one of low, high; did you mean 'high'?"),
        ("name: [x]\n", "t.yaml:1:1: name: expected a string, got a list"),
        ("name: x\nitems: [1, two]\n", "t.yaml:2:12: items[1]: expected an integer, got a string"),
        ("name: x\nitems: []\n", "t.yaml:2:1: items: must not be empty"),
        ("name: x\ncode: ab\n", "t.yaml:2:1: code: must have at least 3 characters"),
        ("name: x\nlabels: {a: b}\n", "t.yaml:2:1: labels: must have at least 2 keys"),
        ("level: low\n", "t.yaml:1:1: missing required key 'name'"),
    ],
)
def test_validate_explains_problems_where_they_are(text: str, message: str) -> None:
    file = userfile.parse("t.yaml", text)
    with pytest.raises(ConfigError) as raised:
        schemacheck.validate(SCHEMA, file.data, file.where)
    assert str(raised.value) == message


def test_closest_is_case_insensitive_as_a_last_resort() -> None:
    assert schemacheck.closest("FAILON", ["failOn", "baseline"]) == "failOn"
    assert schemacheck.closest("zzz", ["failOn"]) is None


def test_a_reference_to_another_document_is_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    # jsonschema's default registry fetches it with urlopen; a user's profile with one is refused when it
    # loads, and the validator of the schemas dralint does not compile has a registry of its own.
    import urllib.request

    from referencing.exceptions import Unresolvable

    fetched: list[object] = []
    monkeypatch.setattr(urllib.request, "urlopen", lambda request, *args, **kwargs: fetched.append(request))
    for ref in ("http://example.com/x.json", "file:///etc/passwd"):
        with pytest.raises(Unresolvable):
            schemacheck.problems({"$ref": ref, "contains": {}}, [1])
    assert fetched == []
