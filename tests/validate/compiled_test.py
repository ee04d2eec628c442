"""The compiled schema validator agrees with jsonschema (Draft 2020-12) on real and mutated objects."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from jsonschema import Draft202012Validator, ValidationError, validators

from dralint import schemas
from dralint.api.versions import RELEASES
from dralint.read.load import load
from dralint.validate.compiled import Compiler, Issue
from dralint.validate.schema import FORMATS, format_problem, validator
from testing.mutate import mutate
from tests.conftest import CORPUS, FIXTURES, ROOT, require_shared

Seen = tuple[str, tuple[Any, ...], str]


def _format(_: Any, fmt: str, instance: Any, __: Mapping[str, Any]) -> Iterator[ValidationError]:
    problem = format_problem(fmt, instance)
    if problem is not None:
        yield ValidationError(problem, validator="format", validator_value=fmt)


_Reference = validators.extend(Draft202012Validator, {"format": _format})


def _reference(release: str, api_version: str, kind: str, raw: Any) -> list[Seen]:
    name = schemas.root_name(release, api_version, kind)
    assert name is not None
    checker = _Reference({"$defs": schemas.definitions(), "$ref": f"#/$defs/{name}"})
    return sorted(
        (e.validator, tuple(e.absolute_path), e.message if e.validator == "format" else "")
        for e in checker.iter_errors(raw)
    )


def _compiled(release: str, api_version: str, kind: str, raw: Any) -> list[Seen]:
    compiled = validator(release, api_version, kind)
    assert compiled is not None
    return sorted(_seen(issue) for issue in compiled.issues(raw))


def _seen(issue: Issue) -> Seen:
    return (issue.keyword, issue.path, issue.message if issue.keyword == "format" else "")


def _objects() -> list[tuple[str, str, Any]]:
    corpus = require_shared(CORPUS)
    paths = [str(corpus), str(ROOT / "examples"), str(FIXTURES / "schema"), str(FIXTURES / "workloads")]
    workspace = load(paths)
    return [
        (obj.api_version, obj.kind, obj.raw)
        for obj in workspace.objects
        if schemas.root_name(RELEASES[-1], obj.api_version, obj.kind) is not None
    ]


def test_compiled_validator_agrees_with_jsonschema_on_the_corpus() -> None:
    objects = _objects()
    assert len(objects) > 300
    for api_version, kind, raw in objects:
        for release in (RELEASES[0], RELEASES[-1]):
            if schemas.root_name(release, api_version, kind) is not None:
                assert _compiled(release, api_version, kind, raw) == _reference(release, api_version, kind, raw)


def test_compiled_validator_agrees_with_jsonschema_on_mutated_objects() -> None:
    objects = _objects()
    rnd = random.Random(8)
    disagreements = []
    with_issues = 0
    for _ in range(600):
        api_version, kind, raw = rnd.choice(objects)
        mutated = mutate(raw, rnd)
        release = rnd.choice(RELEASES)
        if schemas.root_name(release, api_version, kind) is None:
            continue
        compiled = _compiled(release, api_version, kind, mutated)
        with_issues += bool(compiled)
        if compiled != _reference(release, api_version, kind, mutated):
            disagreements.append((kind, mutated))
    assert disagreements == []
    assert with_issues > 200  # the mutations do reach the schema


def test_compiled_validator_rejects_keywords_it_does_not_implement() -> None:
    compiler = Compiler({"x": {"type": "string", "pattern": "^a"}}, format_problem, FORMATS)
    with pytest.raises(ValueError, match="unsupported JSON-schema keywords"):
        compiler.definition("x")


def test_compiled_validator_types_follow_draft_2020_12() -> None:
    compiler = Compiler({}, format_problem, FORMATS)
    check = compiler.compile({"type": ["integer", "null"]})
    results = {}
    for value in (1, 1.0, 1.5, True, None, "1"):
        out: list[Issue] = []
        check(value, None, out)
        results[repr(value)] = bool(out)
    assert results == {"1": False, "1.0": False, "1.5": True, "True": True, "None": False, "'1'": True}
