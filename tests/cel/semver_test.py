"""Version parsing (blang/semver v4 and Kubernetes' normalising form) and precedence."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from dralint.cel.lib.semver_value import SemverError, parse, parse_normalised

CASES = YAML(typ="safe", pure=True).load(
    (Path(__file__).resolve().parent.parent / "fixtures" / "cel" / "versions.yaml").read_text(encoding="utf-8")
)
PARSE = [c for c in CASES if "text" in c]
(ORDER,) = [c["order"] for c in CASES if "order" in c]


def _outcome(parser: Any, text: str) -> str:
    try:
        return str(parser(text))
    except SemverError as error:
        return f"error: {error}"


@pytest.mark.parametrize("case", PARSE, ids=[c["text"] or "<empty>" for c in PARSE])
def test_semver_parse_strict_and_normalised(case: dict[str, str]) -> None:
    assert _outcome(parse, case["text"]) == case["strict"]
    assert _outcome(parse_normalised, case["text"]) == case["normalised"]


def test_semver_precedence_follows_the_specification() -> None:
    versions = [parse(v) for v in ORDER]
    assert sorted(reversed(versions)) == versions
    assert all(a.compare(b) == -1 for a, b in itertools.pairwise(versions))
    assert parse("1.0.0+build.1") == parse("1.0.0+other")
