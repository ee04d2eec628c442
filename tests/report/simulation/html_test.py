"""The HTML report of ``dralint simulate``, rendered by headless Chromium and checked as a page.

Chromium (Debian package ``chromium``) renders the file; the DOM it dumps must hold the summary,
one figure with an inline SVG chart per pool, the placement rows and the unplaced pods, and the
screenshot must show the charts' bars in their colours. Skipped, with the reason, when Chromium
is not installed (CI installs it).
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from dralint.cli import main
from testing.simulate import SIMULATE

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and os.environ.get("DRALINT_REQUIRE_CHROMIUM") == "1":
    raise RuntimeError("DRALINT_REQUIRE_CHROMIUM=1 but chromium is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium); CI installs it"
)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1"]


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


def _chromium(*args: str) -> str:
    assert CHROMIUM is not None
    done = subprocess.run([CHROMIUM, *FLAGS, *args], capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


class _Page(HTMLParser):
    """What the tests look at: text by element id, figures, SVG labels and bars, table rows."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.texts: dict[str, str] = {}
        self.figures: list[str] = []
        self.svg_labels: list[str] = []
        self.bars: list[float] = []
        self.rows: list[str] = []
        self.unplaced = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.stack.append((tag, attributes))
        if tag == "figure":
            self.figures.append(attributes.get("data-pool", ""))
        elif tag == "svg":
            self.svg_labels.append(attributes.get("aria-label", ""))
        elif tag == "rect" and attributes.get("class") == "used":
            self.bars.append(float(attributes["width"]))
        elif tag == "tr" and "data-outcome" in attributes:
            self.rows.append(attributes["data-outcome"])
        elif tag == "li" and len(self.stack) >= 2 and self.stack[-2][1].get("id") == "unplaced":
            self.unplaced += 1

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, attributes in self.stack:
            if "id" in attributes:
                self.texts[attributes["id"]] = self.texts.get(attributes["id"], "") + data


def test_html_report_renders_charts_and_tables_in_chromium(tmp_path: Path) -> None:
    page = _Page()
    page.feed(_chromium("--dump-dom", _report(tmp_path).as_uri()))
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
    _chromium(f"--screenshot={shot}", "--window-size=1400,1000", _report(tmp_path).as_uri())
    width, height, pixels = _decode_png(shot.read_bytes())
    assert (width, height) == (1400, 1000)
    colours = {}
    for rgb in ((207, 34, 46), (45, 164, 78), (234, 238, 242)):  # full, under 80 %, empty track
        colours[rgb] = sum(1 for p in pixels if p == rgb)
    # four full bars (240 x 18 px each) in red, worker-1's half bar in green and its empty half
    assert colours[(207, 34, 46)] >= 4 * 240 * 18 * 0.9
    assert colours[(45, 164, 78)] >= 120 * 18 * 0.9
    assert colours[(234, 238, 242)] >= 120 * 18 * 0.9


def _decode_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """RGB pixels of an 8-bit RGB or RGBA PNG (what Chromium writes), without imaging libraries."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    pixels: list[tuple[int, int, int]] = []
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 0xFF
        pixels.extend(tuple(line[i : i + 3]) for i in range(0, stride, channels))  # type: ignore[misc]
        previous = line
    return width, height, pixels
