"""Configuration exceptions: object and path selectors, reasons, expiry."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from dralint.config.resolve import ExceptionSpec, Ref
from dralint.findings import Finding, Location, ObjectRef
from dralint.rules import builtin_rules
from dralint.suppress.exceptions import Exceptions, build
from testing.run import check
from tests.conftest import FIXTURES


def _spec(**selectors: tuple[str, ...]) -> ExceptionSpec:
    return ExceptionSpec(
        rules=(Ref("api-version-not-served", "c:1:1"),),
        reason="old cluster",
        origin="c:1:1",
        file="c",
        line=1,
        column=1,
        expires="2030-06-30",
        **selectors,  # type: ignore[arg-type]
    )


def _finding(file: str, kind: str, namespace: str | None, name: str) -> Finding:
    ref = ObjectRef("resource.k8s.io/v1beta1", kind, namespace, name)
    return Finding("DRA200", "api-version-not-served", "error", "m", Location(file, 1, 1), ref)


@pytest.mark.parametrize(
    ("selectors", "finding", "applies"),
    [
        ({}, _finding("a.yaml", "ResourceClaim", "ml", "x"), True),
        ({"paths": ("apps/**",)}, _finding("apps/ml/a.yaml", "ResourceClaim", "ml", "x"), True),
        ({"paths": ("apps/**",)}, _finding("other/a.yaml", "ResourceClaim", "ml", "x"), False),
        ({"kinds": ("ResourceClaim*",)}, _finding("a.yaml", "ResourceClaimTemplate", "ml", "x"), True),
        ({"kinds": ("ResourceClaim",)}, _finding("a.yaml", "DeviceClass", None, "x"), False),
        (
            {"namespaces": ("team-*",), "names": ("old-*",)},
            _finding("a.yaml", "ResourceClaim", "team-a", "old-1"),
            True,
        ),
        (
            {"namespaces": ("team-*",), "names": ("old-*",)},
            _finding("a.yaml", "ResourceClaim", "team-a", "new-1"),
            False,
        ),
    ],
)
def test_exception_selectors(selectors: dict[str, tuple[str, ...]], finding: Finding, applies: bool) -> None:
    (exception,) = build([_spec(**selectors)], builtin_rules())
    assert exception.rules == frozenset({"DRA200"})
    assert exception.applies(finding, ".") is applies


@pytest.mark.parametrize(("today", "expired"), [("2030-06-30", False), ("2030-07-01", True)])
def test_exception_applies_through_its_expiry_date(today: str, expired: bool) -> None:
    exceptions = Exceptions.of(build([_spec()], builtin_rules()), datetime.date.fromisoformat(today), ".")
    finding = _finding("a.yaml", "ResourceClaim", "ml", "x")
    assert (len(exceptions.covering(finding)) == 0) is expired
    assert [v.rule for v in exceptions.expired_violations()] == (["DRA800"] if expired else [])


def test_exceptions_suppress_as_external_and_are_counted(tmp_path: Path) -> None:
    config = tmp_path / ".dralint.yaml"
    config.write_text(
        'exceptions:\n- rules: [DRA200]\n  name: gpu.*\n  reason: the 1.33 cluster\n  expires: "2030-06-30"\n'
    )
    outcome = check([FIXTURES / "check" / "legacy.yaml"], config=config, today=datetime.date(2030, 6, 30))
    (finding,) = outcome.report.findings
    assert finding.rule == "DRA200"
    assert finding.suppressed is not None and (finding.suppressed.kind, finding.suppressed.reason) == (
        "config",
        "the 1.33 cluster",
    )
    assert outcome.exit_code == 0
    later = check([FIXTURES / "check" / "legacy.yaml"], config=config, today=datetime.date(2030, 7, 1))
    assert sorted((f.rule, f.suppressed) for f in later.report.findings) == [("DRA200", None), ("DRA800", None)]
    assert later.exit_code == 1
