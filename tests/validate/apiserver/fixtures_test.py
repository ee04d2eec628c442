"""Table-driven apiserver and reference fixtures: each ``<case>.invalid.yaml`` yields exactly the
findings in ``<case>.expected``; each ``<case>.valid.yaml`` yields none.

A fixture's first line may set the target: ``# target: 1.33 gates: DRAPrioritizedList=true``.
Expected lines read ``line:column RULE message``. Only the rules of the apiserver and reference
checks are compared (schema, skew and CEL rules are other checks' business).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dralint.api.versions import parse_feature_gates
from dralint.findings import Finding
from dralint.rules import builtin_rules
from testing.lint import lint_files
from tests.conftest import FIXTURES

FOLDER = FIXTURES / "apiserver"
OWNED = sorted(r.id for r in builtin_rules().values() if r.source in ("rules/apiserver.yaml", "rules/references.yaml"))
# Input rules too, so that a fixture with a YAML mistake cannot pass silently.
COMPARED = sorted({*OWNED, *(r.id for r in builtin_rules().values() if r.source == "rules/input.yaml")})
_HEADER = re.compile(r"#\s*target:\s*(?P<release>\S+)(?:\s+gates:\s*(?P<gates>\S+))?")


def _cases(suffix: str) -> list[Path]:
    return sorted(FOLDER.glob(f"*.{suffix}.yaml"))


def _lint(path: Path) -> list[Finding]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = _HEADER.match(first)
    release = match["release"] if match else "1.37"
    gates = parse_feature_gates(match["gates"]) if match and match["gates"] else {}
    return lint_files([str(path)], release=release, gates=gates, rules=COMPARED)


def _render(findings: list[Finding]) -> list[str]:
    return [f"{f.location.line}:{f.location.column} {f.rule} {f.message}" for f in findings]


@pytest.mark.parametrize("path", _cases("invalid"), ids=lambda p: p.name.removesuffix(".invalid.yaml"))
def test_invalid_fixture_yields_exactly_the_expected_findings(path: Path) -> None:
    expected_file = path.with_name(path.name.removesuffix(".invalid.yaml") + ".expected")
    expected = [line for line in expected_file.read_text(encoding="utf-8").splitlines() if line and line[0] != "#"]
    assert _render(_lint(path)) == expected


@pytest.mark.parametrize("path", _cases("valid"), ids=lambda p: p.name.removesuffix(".valid.yaml"))
def test_valid_fixture_yields_no_findings(path: Path) -> None:
    assert _render(_lint(path)) == []


def test_every_case_has_a_valid_and_an_invalid_fixture() -> None:
    invalid = {p.name.removesuffix(".invalid.yaml") for p in _cases("invalid")}
    valid = {p.name.removesuffix(".valid.yaml") for p in _cases("valid")}
    assert invalid == valid
    assert invalid, "no fixtures found"


def test_every_owned_rule_is_exercised_by_some_fixture() -> None:
    seen = {
        line.split()[1]
        for p in FOLDER.glob("*.expected")
        for line in p.read_text().splitlines()
        if line and line[0] != "#"
    }
    assert set(OWNED) <= seen


# "Required value" is DRA121 (missing-required-field) wherever a field is missing or empty. The
# exceptions are rules scoped by something other than the kind of defect: a one-of group none of
# whose members is set (DRA125 covers "none, or more than one"), the metadata rule (DRA120), the
# status rule (DRA132), and the empty part of a name that is written (`example.com/`), which
# releases up to 1.33 print as "Required value" and later ones as "Invalid value": it stays
# DRA122 so that its rule does not change with the target release.
_REQUIRED_ELSEWHERE = {
    "DRA120": re.compile(r"^metadata\."),
    "DRA125": re.compile(r": Required value: (exactly|at least) one of "),
    "DRA132": re.compile(r"^status\."),
    "DRA122": re.compile(r": Required value: (the (name|domain) must not be empty|name required)$"),
}


def test_required_value_is_missing_required_field_unless_a_scoped_rule_owns_it() -> None:
    checked = 0
    for expected in sorted(FOLDER.glob("*.expected")):
        for line in expected.read_text(encoding="utf-8").splitlines():
            if ": Required value" not in line or line.startswith("#"):
                continue
            _, rule, message = line.split(" ", 2)
            checked += 1
            owner = _REQUIRED_ELSEWHERE.get(rule)
            assert rule == "DRA121" or (owner is not None and owner.search(message)), f"{expected.name}: {line}"
    assert checked > 40
