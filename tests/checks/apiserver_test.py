"""The apiserver check: which objects it validates, for which target, and the hints it gives."""

from __future__ import annotations

from dralint.findings import Finding
from testing.lint import lint_files
from tests.conftest import FIXTURES

CHECKS = FIXTURES / "checks"
APISERVER = [f"DRA{n}" for n in range(120, 133)] + ["DRA303", "DRA304"]


def _lint(name: str, release: str = "1.37", **gates: bool) -> list[Finding]:
    return lint_files([str(CHECKS / name)], release=release, gates=gates, rules=APISERVER)


def test_errors_caused_by_a_dropped_field_are_left_to_the_skew_check() -> None:
    # Without DRAListTypeAttributes the server drops `strings` and rejects the empty attribute:
    # DRA212 (skew) reports that, naming the field and the gate; the apiserver rules stay silent.
    assert _lint("list-attribute.yaml") == []
    findings = lint_files([str(CHECKS / "list-attribute.yaml")], rules=["DRA212"])
    assert [(f.rule, f.location.line) for f in findings] == [("DRA212", 13)]


def test_errors_inside_a_dropped_field_are_not_reported() -> None:
    # The bad toleration is dropped with DRADeviceTaints off (1.35), so the server never sees it.
    assert _lint("dropped-toleration.yaml", release="1.35") == []
    assert [f.rule for f in _lint("dropped-toleration.yaml", release="1.36")] == ["DRA126"]


def test_list_attribute_is_valid_with_its_gate_on() -> None:
    assert _lint("list-attribute.yaml", DRAListTypeAttributes=True) == []


def test_objects_of_a_version_the_target_does_not_serve_are_not_validated() -> None:
    assert _lint("unserved.yaml", release="1.33") == []
    assert {f.rule for f in _lint("unserved.yaml", release="1.34")} == {"DRA120", "DRA125"}


def test_pod_level_claims_are_checked_only_where_pod_level_resources_are_on() -> None:
    assert [f.rule for f in _lint("pod-level-claims.yaml")] == ["DRA129"]
    assert _lint("pod-level-claims.yaml", release="1.33") == []
    assert [f.rule for f in _lint("pod-level-claims.yaml", release="1.33", PodLevelResources=True)] == ["DRA129"]


def test_every_finding_has_a_hint() -> None:
    fixtures = sorted((FIXTURES / "apiserver").glob("*.invalid.yaml"))
    findings = lint_files([str(p) for p in fixtures], rules=APISERVER)
    assert findings
    assert [f for f in findings if not f.hint] == []
