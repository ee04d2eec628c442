"""Record ``helm template`` output for the chart fixtures under tests/fixtures/helm (run it where helm is installed).

Each recording is what ``helm template CHART CHART [--values F]`` prints, run in
tests/fixtures/helm, so its ``# Source:`` lines name the templates relative to that folder; for a
chart that does not render, what it prints on standard error.
The tests read the recordings always, and run helm live too when it is on PATH.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "helm"

# recording file -> the chart (its folder, also the release name) and the values files given to helm, in order
RECORDINGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "gpu-inference.rendered.yaml": ("gpu-inference", ()),
    "gpu-inference-broken.rendered.yaml": ("gpu-inference", ("values-broken.yaml",)),
    "twice.rendered.yaml": ("twice", ()),
}
# recording file -> a chart that does not render (helm's standard error is recorded)
FAILURES: dict[str, str] = {"unrendered.stderr.txt": "unrendered"}


def main() -> int:
    argparse.ArgumentParser(
        description=__doc__.splitlines()[0] if __doc__ else None
    ).parse_args()
    helm = shutil.which("helm")
    if helm is None:
        print("record_helm: helm is not on PATH; nothing recorded", file=sys.stderr)
        return 2
    for recording, (chart, values) in sorted(RECORDINGS.items()):
        command = [helm, "template", chart, chart]
        for name in values:
            command += ["--values", name]
        done = subprocess.run(command, cwd=FIXTURES, capture_output=True, text=True, check=True)
        (FIXTURES / recording).write_text(done.stdout, encoding="utf-8")
        print(f"record_helm: wrote {recording}")
    for recording, chart in sorted(FAILURES.items()):
        failed = subprocess.run([helm, "template", chart, chart], cwd=FIXTURES, capture_output=True, text=True)
        if failed.returncode == 0:
            print(f"record_helm: {chart} renders; nothing recorded", file=sys.stderr)
            return 1
        (FIXTURES / recording).write_text(failed.stderr, encoding="utf-8")
        print(f"record_helm: wrote {recording}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
