"""The engine: violations → findings, filtering, ordering, exit codes (dralint/pipeline/engine.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from dralint.api.versions import make_target
from dralint.checks import registry
from dralint.cli import main
from dralint.errors import InternalError
from dralint.findings import Finding, Location, ObjectRef, Violation
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from dralint.rules import Rule, builtin_rules

CHECKED = "tests/fixtures/engine/checked.yaml"
CONTEXT = "tests/fixtures/engine/context.yaml"


def context() -> CheckContext:
    return CheckContext(load([CHECKED], [CONTEXT]), make_target())


def test_run_reports_only_checked_files_in_order_with_configured_severity() -> None:
    rules = builtin_rules()
    selection = engine.Selection(enabled=frozenset({"DRA200"}), severities={"DRA200": "warning"})
    findings = engine.run(context(), rules, selection)
    assert [(f.rule, f.name, f.severity, f.location, f.object, f.path) for f in findings] == [
        ("DRA200", "api-version-not-served", "warning", Location(CHECKED, 1, 1),
         ObjectRef("resource.k8s.io/v1alpha2", "ResourceClass", None, "checked-classic"), ("apiVersion",)),
        ("DRA200", "api-version-not-served", "warning", Location(CHECKED, 5, 1),
         ObjectRef("resource.k8s.io/v1alpha2", "ResourceClass", None, "checked-classic-2"), ("apiVersion",)),
    ]  # fmt: skip


def test_run_skips_rules_that_are_not_enabled() -> None:
    assert engine.run(context(), builtin_rules(), engine.Selection(enabled=frozenset({"DRA001"}))) == []


def test_resolve_uses_an_explicit_location_and_value_offsets() -> None:
    ctx = context()
    rule = Rule("DRA999", "test-rule", "test", "info", "summary", "none")
    selection = engine.Selection(frozenset())
    at = engine.resolve(ctx, Violation("DRA999", "m", location=Location(CHECKED, 3, 4)), rule, selection)
    assert at is not None and at.location == Location(CHECKED, 3, 4) and at.object is None
    obj = ctx.objects[0]
    inside = engine.resolve(ctx, Violation("DRA999", "m", obj, ("metadata", "name"), offset=8), rule, selection)
    assert inside is not None and inside.location == Location(CHECKED, 3, 26)
    # findings in context-only files are dropped
    context_obj = ctx.objects[2]
    assert context_obj.file == CONTEXT
    assert engine.resolve(ctx, Violation("DRA999", "m", context_obj, ()), rule, selection) is None


def test_resolve_cuts_messages_over_a_thousand_characters_and_keeps_details() -> None:
    ctx = context()
    rule = Rule("DRA999", "test-rule", "test", "info", "summary", "none")
    selection = engine.Selection(frozenset())
    at = Location(CHECKED, 3, 4)
    long = "x" * 2_500
    cut = engine.resolve(ctx, Violation("DRA999", long, location=at, details=(("n", 1),)), rule, selection)
    assert cut is not None and len(cut.message) == 1_000
    assert cut.message == "x" * 971 + " … (cut from 2500 characters)"
    assert cut.details == (("n", 1),)
    exact = engine.resolve(ctx, Violation("DRA999", "y" * 1_000, location=at), rule, selection)
    assert exact is not None and exact.message == "y" * 1_000


def finding(
    file: str, line: int, column: int, rule: str = "DRA001", message: str = "m", severity: str = "error"
) -> Finding:
    return Finding(rule, "name", severity, message, Location(file, line, column))  # type: ignore[arg-type]


def test_sort_unique_orders_by_position_then_rule_and_drops_duplicates() -> None:
    findings = [
        finding("b.yaml", 1, 1),
        finding("a.yaml", 10, 1),
        finding("a.yaml", 2, 5, "DRA200"),
        finding("a.yaml", 2, 5, "DRA004"),
        finding("a.yaml", 2, 5, "DRA004"),
    ]
    assert [(f.location.file, f.location.line, f.rule) for f in engine.sort_unique(findings)] == [
        ("a.yaml", 2, "DRA004"),
        ("a.yaml", 2, "DRA200"),
        ("a.yaml", 10, "DRA001"),
        ("b.yaml", 1, "DRA001"),
    ]


@pytest.mark.parametrize(
    ("severities", "fail_on", "code"),
    [
        (["warning"], "error", 0),
        (["warning"], "warning", 1),
        (["info"], "warning", 0),
        (["info"], "info", 1),
        (["error"], "never", 0),
        ([], "info", 0),
    ],
)
def test_exit_code_follows_fail_on(severities: list[str], fail_on: str, code: int) -> None:
    findings = [finding("a.yaml", 1, 1, severity=s) for s in severities]
    assert engine.exit_code(findings, fail_on) == code


def test_exit_code_ignores_suppressed_findings() -> None:
    suppressed = Finding("DRA001", "n", "error", "m", Location("a.yaml", 1, 1), suppressed="known issue")
    assert engine.exit_code([suppressed], "info") == 0


def _reports_a_foreign_rule(ctx: CheckContext) -> Iterator[Violation]:
    """A gated-fields check gone wrong: it reports DRA200, which the catalogue gives to served-versions."""
    yield Violation("DRA200", "not this check's rule", ctx.objects[0], ("apiVersion",))


def test_a_check_reporting_another_checks_rule_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.CHECKS, "gated-fields", _reports_a_foreign_rule)
    selection = engine.Selection(enabled=frozenset({"DRA210"}))
    with pytest.raises(
        InternalError,
        match=r"^check 'gated-fields' reported DRA200, which the catalogue assigns to check 'served-versions'$",
    ):
        engine.run(context(), builtin_rules(), selection)


def test_a_foreign_rule_is_exit_3_with_one_line_from_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.CHECKS, "gated-fields", _reports_a_foreign_rule)
    result = CliRunner().invoke(main, ["check", "--no-config", "--jobs", "1", CHECKED])
    assert result.exit_code == 3
    assert result.output == (
        "dralint: internal error: InternalError: check 'gated-fields' reported DRA200, which the catalogue assigns "
        "to check 'served-versions' (rerun as dralint --debug COMMAND ... for a traceback and report it at "
        "https://github.com/dralint/dralint/issues)\n"
    )
