"""Per-rule fixtures: ``tests/rules/<ID>/pass/*.yaml`` must not report the rule, ``fail/*.yaml`` must,
exactly as in the ``.expected`` file beside it (text format, only that rule's lines). Every
rule of the catalogue has at least one of each (``.json`` fixtures count too).

A fixture ``x.yaml`` runs with ``x.dralint.yaml`` as its configuration when that file exists,
else with none. ``DRALINT_UPDATE_GOLDEN=1 pytest tests/rules/fixtures_test.py`` rewrites the
``.expected`` files (review the diff); those runs skip instead of passing, since a rewritten file
proves nothing, and CI (``CI`` set) refuses update mode.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from dralint.report import text
from dralint.rules import builtin_rules
from testing.run import ROOT, check

HERE = Path(__file__).resolve().parent
CONFIG_SUFFIX = ".dralint.yaml"


def _fixtures(kind: str) -> list[Path]:
    found = [*HERE.glob(f"DRA*/{kind}/*.yaml"), *HERE.glob(f"DRA*/{kind}/*.json")]
    return sorted(p for p in found if not p.name.endswith(CONFIG_SUFFIX))


def _lines(fixture: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    rule_id = fixture.parent.parent.name
    monkeypatch.chdir(ROOT)
    relative = fixture.relative_to(ROOT)
    config = fixture.with_name(fixture.name.removesuffix(".yaml") + CONFIG_SUFFIX)
    outcome = check([relative], config=config.relative_to(ROOT) if config.exists() else None)
    stream = io.StringIO()
    text.render(outcome.report, stream)
    return [line for line in stream.getvalue().splitlines() if f" {rule_id} " in line and ":" in line.split(" ")[0]]


PASS = _fixtures("pass")
FAIL = _fixtures("fail")


@pytest.mark.parametrize("fixture", PASS, ids=[str(p.relative_to(HERE)) for p in PASS])
def test_rule_pass_fixture_reports_nothing(fixture: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _lines(fixture, monkeypatch) == []


@pytest.mark.parametrize("fixture", FAIL, ids=[str(p.relative_to(HERE)) for p in FAIL])
def test_rule_fail_fixture_matches_expected(fixture: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lines(fixture, monkeypatch)
    expected = fixture.with_suffix(".expected")
    if os.environ.get("DRALINT_UPDATE_GOLDEN") == "1":
        if os.environ.get("CI"):
            pytest.fail("DRALINT_UPDATE_GOLDEN=1 under CI would compare the golden files with themselves")
        expected.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        pytest.skip(f"rewrote {expected.relative_to(ROOT)}: review the diff")
    assert lines, f"{fixture.relative_to(ROOT)} does not trigger {fixture.parent.parent.name}"
    assert expected.exists(), f"{expected.relative_to(ROOT)} is missing (DRALINT_UPDATE_GOLDEN=1 writes it)"
    assert lines == expected.read_text(encoding="utf-8").splitlines()


def test_every_rule_directory_is_a_catalogue_rule() -> None:
    directories = {p.name for p in HERE.glob("DRA*") if p.is_dir()}
    assert directories <= set(builtin_rules()), sorted(directories - set(builtin_rules()))


# Rule files whose rules keep table-driven fixtures elsewhere (with their own harness that
# requires every rule of the file to be exercised): tests/validate/apiserver/fixtures_test.py.
FIXTURES_ELSEWHERE = frozenset({"rules/apiserver.yaml", "rules/references.yaml"})
WITH_FIXTURES = [r for r in builtin_rules() if builtin_rules()[r].source not in FIXTURES_ELSEWHERE]


@pytest.mark.parametrize("rule_id", WITH_FIXTURES)
def test_every_rule_has_pass_and_fail_fixtures(rule_id: str) -> None:
    rule = builtin_rules()[rule_id]
    for kind in ("pass", "fail"):
        files = [p for p in (HERE / rule_id / kind).glob("*") if p.suffix in (".yaml", ".json")]
        assert files, f"{rule_id} ({rule.name}, {rule.source}) has no tests/rules/{rule_id}/{kind}/ fixtures"
