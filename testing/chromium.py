"""Headless Chromium for the HTML reports' tests: render a page, dump its DOM, read a screenshot.

Chromium (Debian package ``chromium``) renders the file; tests that use it are skipped, with the
reason, when it is not installed (CI installs it and sets ``DRALINT_REQUIRE_CHROMIUM=1``).
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and os.environ.get("DRALINT_REQUIRE_CHROMIUM") == "1":
    raise RuntimeError("DRALINT_REQUIRE_CHROMIUM=1 but chromium is not installed")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium); CI installs it"
)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1"]


def chromium(*args: str) -> str:
    assert CHROMIUM is not None
    done = subprocess.run([CHROMIUM, *FLAGS, *args], capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


def decode_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
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


def bar_rows(width: int, pixels: list[tuple[int, int, int]], rgb: tuple[int, int, int], length: int) -> int:
    """How many rows of the image hold ``length`` consecutive pixels of colour ``rgb`` (text never does)."""
    rows = 0
    for start in range(0, len(pixels), width):
        run = best = 0
        for pixel in pixels[start : start + width]:
            run = run + 1 if pixel == rgb else 0
            best = max(best, run)
        rows += best >= length
    return rows


class Page(HTMLParser):
    """The DOM Chromium dumps, as tests read it: the elements open at each point (``stack``, with their
    attributes) and the text under each element id (``texts``). Tests subclass it for what else they count."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.texts: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append((tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, attributes in self.stack:
            if "id" in attributes:
                self.texts[attributes["id"]] = self.texts.get(attributes["id"], "") + data
