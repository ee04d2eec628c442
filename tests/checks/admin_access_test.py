"""Admin access: namespace labels from the inputs or the options, per release."""

from __future__ import annotations

from dralint.api.versions import make_target
from dralint.findings import Finding
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext, Options
from dralint.read.load import load
from dralint.rules import builtin_rules
from tests.conftest import FIXTURES

CLAIM = FIXTURES / "checks" / "admin-claim.yaml"


def _lint(release: str = "1.37", namespaces: dict[str, dict[str, str]] | None = None, **gates: bool) -> list[Finding]:
    ctx = CheckContext(load([str(CLAIM)]), make_target(release, gates), Options(namespaces=namespaces or {}))
    return engine.run(ctx, builtin_rules(), engine.Selection(enabled=frozenset({"DRA130", "DRA131"})))


def test_namespace_labels_from_the_options_satisfy_the_check() -> None:
    assert _lint(namespaces={"monitoring": {"resource.kubernetes.io/admin-access": "true"}}) == []


def test_namespace_from_the_options_without_the_label_is_an_error() -> None:
    (finding,) = _lint(namespaces={"monitoring": {"team": "ops"}})
    assert (finding.rule, finding.severity, finding.location.line) == ("DRA130", "error", 13)
    assert (
        finding.hint
        == "label the namespace: kubectl label namespace monitoring resource.kubernetes.io/admin-access=true"
    )


def test_unknown_namespace_is_unverified() -> None:
    (finding,) = _lint()
    assert (finding.rule, finding.severity) == ("DRA131", "info")


def test_releases_without_the_namespace_check_report_nothing() -> None:
    assert _lint(release="1.32", DRAAdminAccess=True) == []
    assert _lint(release="1.33") == []  # DRAAdminAccess is off by default: the field is dropped
