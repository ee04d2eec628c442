"""``dralint profile extract`` (a starting profile per driver of a cluster's ResourceSlices) and ``profile show``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dralint.cli import main
from dralint.profiles.load import load, parse
from testing.run import ROOT, in_root
from tests.conftest import FIXTURES

SLICES = "tests/fixtures/profile_extract/slices.yaml"
EXPECTED = FIXTURES / "profile_extract" / "expected.yaml"


def test_extract_writes_a_profile_per_driver_with_kinds_of_device() -> None:
    code, output = in_root("profile", "extract", "-i", SLICES)
    assert (code, output) == (0, EXPECTED.read_text(encoding="utf-8"))


def test_extracted_profiles_are_valid_profiles(tmp_path: Path) -> None:
    written = tmp_path / "extracted.yaml"
    code, output = in_root("profile", "extract", "-i", SLICES, "-o", str(written))
    assert (code, output) == (0, "")
    profiles = parse(str(written), written.read_text(encoding="utf-8"))
    assert [p.driver for p in profiles] == ["gpu.nvidia.com", "nic.example.org"]
    gpu = load([str(written)], shipped=False).get("gpu.nvidia.com")
    assert gpu is not None and [k.name for k in gpu.kinds] == ["gpu", "mig"]


def test_extract_of_one_driver_and_of_a_driver_that_is_not_there() -> None:
    code, output = in_root("profile", "extract", "-i", SLICES, "--driver", "nic.example.org")
    assert code == 0 and output.count("kind: DriverProfile") == 1 and "name: nic.example.org" in output
    code, output = in_root("profile", "extract", "-i", SLICES, "--driver", "gpu.amd.com")
    assert (code, output) == (
        2,
        f"dralint: error: {SLICES}: no ResourceSlice or Inventory device of driver gpu.amd.com\n",
    )


def test_show_prints_the_shipped_profile_of_a_driver() -> None:
    code, output = in_root("profile", "show", "gpu.example.com", "--no-config")
    shipped = ROOT / "profiles" / "gpu.example.com.yaml"
    assert code == 0
    assert output == f"# the profile of gpu.example.com shipped with dralint ({shipped})\n" + shipped.read_text()


def test_show_prints_the_configured_profile_of_a_driver_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = FIXTURES / "lsp" / "workspace"
    monkeypatch.chdir(workspace)
    result = CliRunner().invoke(main, ["profile", "show", "fpga.example.com"])
    assert (result.exit_code, result.output) == (
        0,
        "# the profile of fpga.example.com from profiles/fpga.example.com.yaml (configured)\n"
        + (workspace / "profiles" / "fpga.example.com.yaml").read_text(),
    )


def test_show_of_a_driver_without_a_profile_suggests_one() -> None:
    assert in_root("profile", "show", "gpu.exmaple.com", "--no-config") == (
        2,
        "dralint: error: no driver profile for gpu.exmaple.com; did you mean gpu.example.com?\n",
    )
