"""The HTML report of ``dralint simulate``, rendered by headless Chromium and checked as a page.

Chromium (Debian package ``chromium``) renders the file; the DOM it dumps must hold the summary,
one figure with an inline SVG chart per pool, the placement rows and the unplaced pods, and the
screenshot must show the charts' bars in their colours. Skipped, with the reason, when Chromium
is not installed (CI installs it).
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from dralint.cli import main
from testing.chromium import Page, chromium, decode_png, needs_chromium
from testing.simulate import SIMULATE

pytestmark = needs_chromium


def _report(tmp_path: Path) -> Path:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            str(SIMULATE / "workloads/mixed.yaml"),
            "--inventory",
            str(SIMULATE / "inventory/kubectl-list.yaml"),
            "--inventory",
            str(SIMULATE / "placement/partitions.yaml"),
            "--format",
            "html",
            "--output",
            str(out),
        ],
    )
    assert result.exit_code == 1, result.output  # some pods stay unplaced
    return out


def test_html_report_renders_charts_and_tables_inchromium(tmp_path: Path) -> None:
    page = Page()
    page.feed(chromium("--dump-dom", _report(tmp_path).as_uri()))
    # The partitionable node's selectors read an attribute the kubectl-list GPUs lack: the pods of
    # partitions.yaml hit CEL runtime errors, the Job with the extended resource takes node-0.
    assert page.texts["summary"] == "3 of 10 pods placed on 3 nodes (Kubernetes 1.37, pack)."
    assert page.figures == ["gpu.example.com/node-0", "gpu.example.com/worker-1", "gpu.example.com/worker-2"]
    assert page.svg_labels == [
        "gpu.example.com/node-0: 100% utilised",
        "gpu.example.com/worker-1: 50% utilised",
        "gpu.example.com/worker-2: 100% utilised",
    ]
    # node-0: devices, then its memory and slices counters, all full; worker-1 half; worker-2 full
    assert page.bars == [240.0, 240.0, 240.0, 120.0, 240.0]
    assert (
        page.rows == ["placed", "placed", "missing-claim", "missing-claim", "unsatisfiable", "placed"] + ["error"] * 4
    )
    assert page.unplaced == 6  # 7 pods: the two missing-claim replicas of one StatefulSet are one entry


def test_html_report_screenshot_shows_the_bars(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    chromium(f"--screenshot={shot}", "--window-size=1400,1000", _report(tmp_path).as_uri())
    width, height, pixels = decode_png(shot.read_bytes())
    assert (width, height) == (1400, 1000)
    colours = {}
    for rgb in ((207, 34, 46), (45, 164, 78), (234, 238, 242)):  # full, under 80 %, empty track
        colours[rgb] = sum(1 for p in pixels if p == rgb)
    # four full bars (240 x 18 px each) in red, worker-1's half bar in green and its empty half
    assert colours[(207, 34, 46)] >= 4 * 240 * 18 * 0.9
    assert colours[(45, 164, 78)] >= 120 * 18 * 0.9
    assert colours[(234, 238, 242)] >= 120 * 18 * 0.9
