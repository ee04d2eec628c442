"""The HTML report of ``dralint plan``, rendered by headless Chromium and checked as a page.

The DOM Chromium dumps must hold the summary, the decisions, the pods no pool places, and per
pool its utilisation bar before and after; the screenshot must show the bars.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from dralint.cli import main
from testing.chromium import Page, bar_rows, chromium, decode_png, needs_chromium
from tests.conftest import ROOT

pytestmark = needs_chromium
SCENARIO = Path(ROOT) / "tests" / "fixtures" / "plan" / "two-pools"
FULL, OK = (9, 105, 218), (45, 164, 78)  # the bars' colours (dralint/report/htmlpage.py)


def _report(tmp_path: Path) -> Path:
    out = tmp_path / "plan.html"
    args = [
        "plan",
        "--no-config",
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


class _Page(Page):
    """List items by list id, and per utilisation row its pool and its bars' widths."""

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[str, list[str]] = {}
        self.rows: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "li" and self.stack and "id" in self.stack[-1][1]:
            self.items.setdefault(self.stack[-1][1]["id"], []).append("")
        super().handle_starttag(tag, attrs)
        attributes = self.stack[-1][1]
        if tag == "tr" and "data-pool" in attributes:
            self.rows.append((attributes["data-pool"], []))
        elif tag == "span" and attributes.get("style", "").startswith("width:") and self.rows:
            self.rows[-1][1].append(attributes["style"].removeprefix("width:"))

    def handle_data(self, data: str) -> None:
        super().handle_data(data)
        lists = [a["id"] for tag, a in self.stack if tag == "ul" and "id" in a]
        if lists and any(tag == "li" for tag, _ in self.stack):
            self.items[lists[-1]][-1] += data


def test_plan_html_shows_decisions_and_utilisation_in_chromium(tmp_path: Path) -> None:
    page = _Page()
    page.feed(chromium("--dump-dom", _report(tmp_path).as_uri()))
    assert page.texts["summary"] == "Add 2 nodes, remove 0, 1 unplaceable (Kubernetes 1.37, expander least-waste)."
    assert page.items["scale-up"] == [
        "+ 1 node of pool a100 (a100-1) for 2 pods: ml/train-2, ml/train-3",
        "+ 1 node of pool h100 (h100-0) for 1 pod: ml/train-4",
    ]
    (huge,) = page.items["unplaceable"]
    assert huge.startswith("ml/huge-0 (Job ml/huge): the claims cannot be allocated")
    assert page.items["scale-down"] == [
        "kept h100-0 (pool h100, 25%): pod ml/train-4 fits on no other node: "
        "the claims cannot be allocated on any of the 2 nodes the pod may run on"
    ]
    # a100-0 full before and after; a100-1 and h100-0 only after the scale-up
    assert page.rows == [
        ("gpu.example.com/a100-0", ["100%", "100%"]),
        ("gpu.example.com/a100-1", ["100%"]),
        ("gpu.example.com/h100-0", ["25%"]),
    ]


def test_plan_html_screenshot_shows_the_bars(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    chromium(f"--screenshot={shot}", "--window-size=1400,1000", _report(tmp_path).as_uri())
    width, height, pixels = decode_png(shot.read_bytes())
    assert (width, height) == (1400, 1000)
    # A bar is 10rem x .9rem (160 x 14 px): full bars in blue on the rows of a100-0 (before and after,
    # side by side) and a100-1; h100-0's quarter bar (40 px) in green.
    assert bar_rows(width, pixels, FULL, 160) >= 2 * 14
    assert bar_rows(width, pixels, OK, 38) >= 14
