"""The HTML report of ``dralint plan``, rendered by headless Chromium and checked as a page.

The DOM Chromium dumps must hold the summary, the decisions, the pods no pool places, and per
pool the simulation page's chart before and after; the screenshot must show the bars.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from dralint.cli import main
from testing.chromium import Page, chromium, decode_png, needs_chromium
from tests.conftest import ROOT

pytestmark = needs_chromium
SCENARIO = Path(ROOT) / "tests" / "fixtures" / "plan" / "two-pools"


def _report(tmp_path: Path) -> Path:
    out = tmp_path / "plan.html"
    args = [
        "plan",
        str(SCENARIO / "manifests.yaml"),
        "-i",
        str(SCENARIO / "inventory.yaml"),
        "-f",
        "html",
        "-o",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output  # the 16-GPU pod fits no pool
    return out


def test_plan_html_shows_decisions_and_utilisation_in_chromium(tmp_path: Path) -> None:
    page = Page()
    page.feed(chromium("--dump-dom", _report(tmp_path).as_uri()))
    assert page.texts["summary"] == ("Add 2 nodes, remove 0, 1 unplaceable (Kubernetes 1.37, expander least-waste).")
    assert page.texts["scale-up"].split("\n") == [
        "",
        "+ 1 node of pool a100 (a100-1) for 2 pods: ml/train-2, ml/train-3",
        "+ 1 node of pool h100 (h100-0) for 1 pod: ml/train-4",
        "",
    ]
    assert page.texts["unplaceable"].strip().startswith("ml/huge-0 (Job ml/huge): the claims cannot be allocated")
    assert "kept h100-0 (pool h100, 25%)" in page.texts["scale-down"]
    pools = [name for name in page.figures if name]
    assert pools == ["gpu.example.com/a100-0", "gpu.example.com/a100-1", "gpu.example.com/h100-0"]
    # a100-0 before and after, a100-1 and h100-0 after only
    assert page.svg_labels == [
        "gpu.example.com/a100-0: 100% utilised",
        "gpu.example.com/a100-0: 100% utilised",
        "gpu.example.com/a100-1: 100% utilised",
        "gpu.example.com/h100-0: 25% utilised",
    ]
    assert page.bars == [240.0, 240.0, 240.0, 60.0]


def test_plan_html_screenshot_shows_the_bars(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    chromium(f"--screenshot={shot}", "--window-size=1400,1000", _report(tmp_path).as_uri())
    width, height, pixels = decode_png(shot.read_bytes())
    assert (width, height) == (1400, 1000)
    red = sum(1 for p in pixels if p == (207, 34, 46))  # the three full bars
    green = sum(1 for p in pixels if p == (45, 164, 78))  # h100-0's quarter bar
    assert red >= 3 * 240 * 18 * 0.9
    assert green >= 60 * 18 * 0.9
