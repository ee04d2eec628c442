"""References across objects: an inventory makes its DeviceClasses authoritative."""

from __future__ import annotations

from dralint.config.resolve import Layer, Ref
from testing.lint import lint_files
from testing.run import check
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


def test_a_class_of_another_driver_is_not_offered_as_a_misspelling() -> None:
    """The inventory's classes are gpu.example.com's: gpu.nvidia.com is not a slip of it (it was
    suggested as one); a name a slip away still is."""
    findings = lint_files(
        [str(CHECKS / "claims-for-other-drivers.yaml")],
        inventory=[str(CHECKS / "inventory-classes.yaml")],
        rules=REFERENCES,
    )
    assert [(f.rule, f.location.line, f.hint) for f in findings] == [
        ("DRA300", 13, "use one of: gpu.example.com"),
        ("DRA300", 25, "did you mean `gpu.example.com`?"),
    ]


def test_a_class_a_slip_away_from_a_profiled_driver_is_an_error_without_any_class() -> None:
    """No class in the inputs: gpu.nvidia.com may exist in the cluster (DRA306), but gpu.exmaple.com
    is a slip in the name of a driver dralint knows, whose class is usually named after it."""
    flags = Layer(select=tuple(Ref(rule, "--select") for rule in REFERENCES))
    findings = check([CHECKS / "claims-for-other-drivers.yaml"], flags=flags).report.findings  # shipped profiles
    assert [(f.rule, f.severity, f.location.line, f.hint) for f in findings] == [
        (
            "DRA306",
            "info",
            13,
            "install the driver that provides it, or pass the cluster's DeviceClasses with --inventory",
        ),
        (
            "DRA300",
            "error",
            25,
            "did you mean `gpu.example.com`? (the name of a driver, which its DeviceClass usually has too)",
        ),
    ]
