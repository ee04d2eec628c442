"""The machine-readable did-you-mean of findings (what the language server's quick fixes apply)."""

from __future__ import annotations

from dralint.findings import Replacement
from testing.lint import lint_files
from tests.conftest import FIXTURES

RULES = FIXTURES.parent / "rules"


def test_api_version_replacement_only_when_nothing_else_changes() -> None:
    findings = lint_files([str(RULES / "DRA200" / "fail" / "invalid.yaml")], release="1.34", rules=["DRA200"])
    # v1alpha2 is classic DRA and v1alpha3 claims change shape (`exactly`): `convert` does those.
    assert [(f.location.line, f.replacement) for f in findings] == [
        (1, None),
        (7, None),
        (17, Replacement("resource.k8s.io/v1", "resource.k8s.io/v1alpha3")),
        (26, Replacement("resource.k8s.io/v1alpha4", "resource.k8s.io/v1")),
    ]


def test_unknown_device_class_replacement_names_the_close_class() -> None:
    findings = lint_files(
        [str(FIXTURES / "checks" / "misspelt-class.yaml")],
        inventory=[str(FIXTURES / "checks" / "inventory-classes.yaml")],
        rules=["DRA300"],
    )
    assert [(f.location.line, f.hint, f.replacement) for f in findings] == [
        (10, "did you mean `gpu.example.com`?", Replacement("gpu.exmaple.com", "gpu.example.com"))
    ]
