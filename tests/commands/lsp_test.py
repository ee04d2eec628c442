"""``dralint lsp`` without its extra installed says how to install it, as dralint can be installed."""

from __future__ import annotations

import subprocess
import sys

from testing.run import ROOT

# pygls absent: an import of it fails as it does where the extra is not installed.
WITHOUT_PYGLS = "import sys; sys.modules['pygls'] = None; sys.argv = ['dralint', 'lsp']; from dralint.cli import main; main()"


def test_lsp_without_pygls_is_exit_2_with_an_install_command_that_works() -> None:
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_PYGLS], cwd=ROOT, capture_output=True, text=True, check=False, timeout=60
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "dralint: error: dralint lsp needs pygls: install dralint with its lsp extra (pip install -e '.[lsp]' in a "
        "clone, or pip install 'dralint[lsp] @ git+https://github.com/dralint/dralint')\n"
    )
