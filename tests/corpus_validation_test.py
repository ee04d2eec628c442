"""The whole ``check`` pipeline on the shared corpus: no false errors on valid files, errors on invalid ones.

Each file is checked alone, for the release its INDEX note targets (the newest release of the
range it names; 1.37 when it names none), with ``DynamicResourceAllocation`` on where it is off
by default (a cluster that runs DRA manifests has it on). ``tests/corpus_decisions.tsv`` records
every investigated exception: the release or gates a file needs, and the rules whose errors
dralint rightly reports on a file the corpus calls valid (at least one of them, and nothing
else). ``tests/corpus_invalid_rules.tsv`` gives the rules of the errors each invalid file gets,
exactly, so an invalid file that starts failing for another reason (or for fewer) is noticed.

Without the corpus the parametrised tests are one visible skip (a failure when CI sets
``DRALINT_REQUIRE_CORPUS=1``), never an empty collection.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from dralint.api.versions import RELEASES, parse_feature_gates
from dralint.commands.check import CheckSettings, run
from tests.conftest import CORPUS, require_shared

DECISIONS = Path(__file__).resolve().parent / "corpus_decisions.tsv"
INVALID_RULES = Path(__file__).resolve().parent / "corpus_invalid_rules.tsv"
MISSING = {"file": "corpus-missing", "expected": "", "notes": ""}  # the one parameter when the corpus is missing
_TARGETS = re.compile(r"targets (1\.\d+)(?:-(1\.\d+)|(\+))?")


def _rows() -> list[dict[str, str]]:
    index = CORPUS / "INDEX.tsv"
    if not index.exists():
        return []
    with open(index, encoding="utf-8") as handle:
        return [row for row in csv.DictReader(handle, delimiter="\t") if row["expected"] != "unknown"]


def _decisions() -> dict[str, dict[str, str]]:
    with open(DECISIONS, encoding="utf-8") as handle:
        return {row["file"]: row for row in csv.DictReader(handle, delimiter="\t")}


def _invalid_rules() -> dict[str, list[str]]:
    """Invalid corpus file → the rules of the errors it gets, sorted."""
    with open(INVALID_RULES, encoding="utf-8") as handle:
        return {row["file"]: sorted(row["errors"].split(",")) for row in csv.DictReader(handle, delimiter="\t")}


def _params(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The rows, or one placeholder whose test skips (or fails under CI) visibly when the corpus is missing."""
    return rows if ROWS else [MISSING]


def _row(row: dict[str, str]) -> dict[str, str]:
    if row is MISSING:
        require_shared(CORPUS / "INDEX.tsv")
    return row


def target_release(notes: str) -> str:
    """The newest supported release in the range a note names ("targets 1.31-1.33 v1alpha3" → 1.33)."""
    match = _TARGETS.search(notes)
    if match is None or match.group(3):
        return RELEASES[-1]
    first, last, _ = match.groups()
    release = last or first
    return release if release in RELEASES else RELEASES[-1]


def _findings(tmp_path: Path, file: str, release: str, gates: Mapping[str, bool]) -> list[dict[str, object]]:
    out = tmp_path / "findings.json"
    settings = CheckSettings(
        paths=(str(CORPUS / file),), outputs=(("json", str(out)),), release=release, feature_gates=gates
    )
    run(settings)
    findings: list[dict[str, object]] = json.loads(out.read_text(encoding="utf-8"))["findings"]
    return findings


def _settings(row: Mapping[str, str], decision: Mapping[str, str]) -> tuple[str, dict[str, bool]]:
    release = decision.get("release") or target_release(row["notes"])
    gates = {"DynamicResourceAllocation": True} if release in ("1.31", "1.32", "1.33") else {}
    gates.update(parse_feature_gates(decision.get("feature_gates", "")))
    return release, gates


ROWS = _rows()


def test_corpus_decisions_name_corpus_files() -> None:
    require_shared(CORPUS / "INDEX.tsv")
    files = {row["file"] for row in ROWS}
    assert sorted(set(_decisions()) - files) == []


def test_corpus_invalid_rules_name_every_invalid_file() -> None:
    require_shared(CORPUS / "INDEX.tsv")
    assert sorted(_invalid_rules()) == sorted(row["file"] for row in ROWS if row["expected"] != "valid")


@pytest.mark.parametrize("row", _params([r for r in ROWS if r["expected"] == "valid"]), ids=lambda r: r["file"])
def test_corpus_valid_file_has_no_unexpected_errors(row: dict[str, str], tmp_path: Path) -> None:
    row = _row(row)
    decision = _decisions().get(row["file"], {})
    release, gates = _settings(row, decision)
    findings = _findings(tmp_path, row["file"], release, gates)
    errors = {str(f["rule"]) for f in findings if f["severity"] == "error"}
    allowed = set(filter(None, decision.get("errors", "").split(",")))
    shown = [f"{f['line']}:{f['column']} {f['rule']} {f['message']}" for f in findings]
    if allowed:  # a file dralint rightly rejects: some of the decided errors, and no other
        assert errors and errors <= allowed, shown
    else:
        assert errors == set(), shown


@pytest.mark.parametrize("row", _params([r for r in ROWS if r["expected"] != "valid"]), ids=lambda r: r["file"])
def test_corpus_invalid_file_gets_its_expected_errors(row: dict[str, str], tmp_path: Path) -> None:
    row = _row(row)
    release, gates = _settings(row, _decisions().get(row["file"], {}))
    findings = _findings(tmp_path, row["file"], release, gates)
    errors = sorted({str(f["rule"]) for f in findings if f["severity"] == "error"})
    assert errors == _invalid_rules().get(row["file"]), findings


@pytest.mark.parametrize(
    ("notes", "release"),
    [
        ("targets 1.31-1.33 v1alpha3; features=none", "1.33"),
        ("targets 1.32+ v1beta1", "1.37"),
        ("targets 1.34+ v1 (GA) (DeviceTaintRule v1 is newer than 1.36)", "1.37"),
        ("targets 1.27-1.30 v1alpha2 (classic DRA)", "1.37"),
        ("identical content also at: x; features=pod-claim-ref", "1.37"),
    ],
)
def test_target_release_reads_index_notes(notes: str, release: str) -> None:
    assert target_release(notes) == release
