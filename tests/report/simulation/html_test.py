"""The HTML report of ``dralint simulate``, rendered by headless Chromium and checked as a page.

Chromium (Debian package ``chromium``) renders the file; the DOM it dumps must hold the summary,
the node groups with their bars and nodes, the workloads and the unplaced pods, and the screenshot
must show the bars in their colours. Skipped, with the reason, when Chromium
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
# The bars' colours (dralint/report/htmlpage.py), as Chromium paints them.
FULL, OK, TRACK, ERROR = (9, 105, 218), (45, 164, 78), (234, 238, 242), (207, 34, 46)
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
    """What the tests look at: text by element id, node groups with their bars, node rows, workloads."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.texts: dict[str, str] = {}
        self.groups: list[str] = []
        self.group_bars: list[tuple[str, str]] = []  # (level class, width) of each group's bar
        self.nodes: list[str] = []  # the first cell of each node row, in page order
        self.workloads: list[str] = []
        self.unplaced_rows = 0
        self.unplaced = 0
        self.marks: list[str] = []

    def _inside(self, tag: str, css: str | None = None) -> bool:
        return any(t == tag and (css is None or css in a.get("class", "").split()) for t, a in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        parent = self.stack[-1] if self.stack else ("", {})
        self.stack.append((tag, attributes))
        if tag == "details" and attributes.get("class") == "group":
            self.groups.append(attributes["data-group"])
        elif tag == "details" and attributes.get("class") == "workload":
            self.workloads.append(attributes["data-workload"])
        elif tag == "span" and parent[0] == "span" and "bar" in parent[1].get("class", ""):
            if self._inside("summary") and self._inside("details", "group"):
                self.group_bars.append((parent[1]["class"].split()[1], attributes["style"]))
        elif tag == "tr" and attributes.get("class") == "unplaced":
            self.unplaced_rows += 1
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
        tags = [t for t, _ in self.stack]
        if tags[-1:] == ["td"] and tags[-3:-1] == ["tbody", "tr"] and self._inside("details", "group"):
            if len(self.stack) >= 2 and not self._first_cell_seen():
                self.nodes.append(data)
        elif tags[-1:] == ["mark"]:
            self.marks.append(data)

    def _first_cell_seen(self) -> bool:
        row = self.stack[-2][1]
        seen = "seen" in row
        row["seen"] = ""
        return seen


def test_html_report_renders_groups_and_workloads_in_chromium(tmp_path: Path) -> None:
    page = _Page()
    page.feed(_chromium("--dump-dom", _report(tmp_path).as_uri()))
    # The partitionable node's selectors read an attribute the kubectl-list GPUs lack: the pods of
    # partitions.yaml hit CEL runtime errors, the Job with the extended resource takes node-0.
    assert page.texts["summary"] == "3 of 10 pods placed on 3 nodes (Kubernetes 1.37, pack)."
    # node-0 comes from the node pool "node" of an Inventory; worker-1 is only named by slices (no
    # labels but its hostname); worker-2 is a Node labelled pool=l4
    assert page.groups == ["node", "", "pool=l4"]
    assert page.nodes == ["node-0", "worker-1", "worker-2"]
    # full is blue ("full"), never the error colour; worker-1 is half used
    assert page.group_bars == [("full", "width:100%"), ("ok", "width:50%"), ("full", "width:100%")]
    assert page.workloads == [
        "Deployment ml/trainer",
        "StatefulSet ml/inference",
        "DaemonSet ml/monitor",
        "Job ml/batch",
        "Job default/small",
        "Pod default/big",
    ]
    assert page.unplaced_rows == 7
    assert page.unplaced == 6  # 7 pods: the two missing-claim replicas of one StatefulSet are one entry


def test_html_report_screenshot_shows_the_bars(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    _chromium(f"--screenshot={shot}", "--window-size=1400,1000", _report(tmp_path).as_uri())
    width, height, pixels = _decode_png(shot.read_bytes())
    assert (width, height) == (1400, 1000)
    # A bar is 10rem x .9rem (160 x 14 px): rows of the screenshot with a run that long in its colour.
    assert _bar_rows(width, pixels, FULL, 160) >= 2 * 14  # the two full groups, in blue
    assert _bar_rows(width, pixels, OK, 80) >= 14  # worker-1's half bar in green, and its empty half
    assert _bar_rows(width, pixels, TRACK, 80) >= 14
    assert _bar_rows(width, pixels, ERROR, 40) == 0  # red is only text (the unplaced pods), never a bar


def _bar_rows(width: int, pixels: list[tuple[int, int, int]], rgb: tuple[int, int, int], length: int) -> int:
    """How many rows of the image hold ``length`` consecutive pixels of colour ``rgb`` (text never does)."""
    rows = 0
    for start in range(0, len(pixels), width):
        run = best = 0
        for pixel in pixels[start : start + width]:
            run = run + 1 if pixel == rgb else 0
            best = max(best, run)
        rows += best >= length
    return rows


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
