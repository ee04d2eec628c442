"""``dralint inventory expand``: the generated Nodes and ResourceSlices, and refusals with exit code 2."""

from __future__ import annotations

from pathlib import Path

from testing.run import in_root
from testing.simulate import SIMULATE


def _invoke(*args: str) -> tuple[int, str]:
    return in_root(*args)


def test_expand_prints_nodes_and_slices_as_yaml() -> None:
    code, output = _invoke("inventory", "expand", "tests/fixtures/simulate/inventory/compact-gpu.yaml")
    assert code == 0
    assert output == (SIMULATE / "expected" / "compact-gpu.expanded.yaml").read_text(encoding="utf-8")


def test_expanded_yaml_passes_dralint_check(tmp_path: Path) -> None:
    _, output = _invoke("inventory", "expand", "tests/fixtures/simulate/inventory/compact-gpu.yaml")
    expanded = tmp_path / "expanded.yaml"
    expanded.write_text(output, encoding="utf-8")
    # DRA903 (an inventory that differs from a driver profile) is about the fixture's invented
    # gpu.example.com attributes, not about the expansion.
    code, report = _invoke("check", str(expanded), "--color", "never", "--fail-on", "info", "--ignore", "DRA903")
    assert (code, report.splitlines()[-1]) == (0, "1 file, 7 objects: 0 errors, 0 warnings, 0 info")


def test_expand_refuses_an_invalid_document_in_one_line() -> None:
    code, output = _invoke("inventory", "expand", "tests/fixtures/simulate/inventory/compact-invalid.yaml")
    assert code == 2
    assert output == (
        "dralint: error: invalid Inventory document: tests/fixtures/simulate/inventory/compact-invalid.yaml:8:5: "
        "-1 is less than the minimum of 0 (and 2 more; dralint check "
        "tests/fixtures/simulate/inventory/compact-invalid.yaml lists them)\n"
    )


def test_expand_refuses_a_file_without_inventory() -> None:
    code, output = _invoke("inventory", "expand", "tests/fixtures/simulate/inventory/kubectl-list.yaml")
    assert code == 2
    assert output == (
        "dralint: error: tests/fixtures/simulate/inventory/kubectl-list.yaml: no Inventory document "
        "(apiVersion dralint.io/v1alpha1, kind Inventory)\n"
    )
