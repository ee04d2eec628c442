"""helm for the tests: a stand-in that replays real ``helm template`` output, or the real helm when there is one.

CI has no helm. The stand-in answers ``helm template CHART ...`` (as dralint runs it) with what
helm v4.1.4 printed for the chart of that folder's name (recorded by ``scripts/record_helm.py`` in
``tests/fixtures/helm``): the rendered stream, or for a chart that does not render its error and
exit status 1. Only charts whose output does not depend on the release name are replayed (the
recordings name the release after the chart; dralint leaves helm's default). ``DRALINT_HELM``
(a path to helm) or helm on PATH is the real one, for the tests that run it live.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from testing.run import ROOT

RECORDINGS = ROOT / "tests" / "fixtures" / "helm"
# chart folder name -> (recording, whether it is helm's standard error of a failure)
REPLAYED: dict[str, tuple[str, bool]] = {
    "twice": ("twice.rendered.yaml", False),
    "unrendered": ("unrendered.stderr.txt", True),
}


def real_helm() -> str | None:
    """The real helm: ``DRALINT_HELM``, else helm on PATH (``None`` when there is neither)."""
    named = os.environ.get("DRALINT_HELM")
    return named if named and os.access(named, os.X_OK) else shutil.which("helm")


def stand_in(folder: Path) -> Path:
    """Write the stand-in as ``folder/helm`` (put ``folder`` first on PATH); returns its path."""
    cases = "".join(
        f"  {chart}) cat '{RECORDINGS / recording}'{' >&2; exit 1' if failure else ''} ;;\n"
        for chart, (recording, failure) in sorted(REPLAYED.items())
    )
    script = (
        "#!/bin/sh\n"
        "# helm template CHART: what real helm printed for the chart of CHART's folder name\n"
        '[ "$1" = template ] || { echo "Error: the stand-in only renders (helm template)" >&2; exit 1; }\n'
        'case "$(basename "$2")" in\n'
        f"{cases}"
        '  *) echo "Error: no recording for $2" >&2; exit 1 ;;\n'
        "esac\n"
    )
    program = folder / "helm"
    program.write_text(script, encoding="utf-8")
    program.chmod(0o755)
    return program


def on_path(folder: Path) -> str:
    """A PATH with ``folder`` first (where :func:`stand_in` or a link to the real helm is)."""
    return f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"
