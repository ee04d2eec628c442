"""References across objects: an inventory makes its DeviceClasses authoritative."""

from __future__ import annotations

from testing.lint import lint_files
from tests.conftest import FIXTURES

CHECKS = FIXTURES / "checks"
REFERENCES = ["DRA300", "DRA301", "DRA302", "DRA305", "DRA306"]


def test_unknown_class_without_inventory_is_only_unverified() -> None:
    findings = lint_files([str(CHECKS / "claims-for-inventory.yaml")], rules=REFERENCES)
    assert [(f.rule, f.severity, f.message) for f in findings] == [
        ("DRA306", "info", 'DeviceClass "fpga.vendor.io" is not among the inputs; it must exist in the cluster')
    ]


def test_unknown_class_with_an_inventory_is_an_error() -> None:
    findings = lint_files(
        [str(CHECKS / "claims-for-inventory.yaml")],
        inventory=[str(CHECKS / "inventory-classes.yaml")],
        rules=REFERENCES,
    )
    assert [(f.rule, f.severity, f.location.line, f.message, f.hint) for f in findings] == [
        (
            "DRA300",
            "error",
            10,
            'DeviceClass "fpga.vendor.io" is not defined in the inventory and inputs',
            "use one of: gpu.example.com",
        )
    ]


def test_unknown_class_with_an_inventory_without_classes_says_there_are_none() -> None:
    findings = lint_files(
        [str(CHECKS / "claims-for-inventory.yaml")],
        inventory=[str(CHECKS / "inventory-slices-only.yaml")],
        rules=REFERENCES,
    )
    assert [(f.rule, f.location.line, f.hint) for f in findings] == [
        (
            "DRA300",
            10,
            "no DeviceClass is defined in the inventory or inputs; add the cluster's (kubectl get deviceclasses -o yaml)",
        )
    ]
