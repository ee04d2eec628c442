"""README.md shows what dralint really prints on examples/ (update the sample when a rule starts finding more)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dralint import cli
from tests.conftest import ROOT


def test_readme_sample_output_is_the_real_output(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ dralint check examples/\n", 1)[1].split("$ echo $?\n", 1)
    sample, exit_code = block[0], block[1].split("\n", 1)[0]
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("NO_COLOR", raising=False)
    result = CliRunner().invoke(cli.main, ["check", "examples/"])
    assert (result.stdout, str(result.exit_code)) == (sample, exit_code)
