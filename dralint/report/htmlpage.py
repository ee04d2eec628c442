"""Pieces of dralint's self-contained HTML pages: the page frame, the shared styles and the utilisation bars.

Pages have no scripts and no external resources, so they open from a CI artefact or an e-mail as they
are. Everything here returns markup; callers escape every value from the input with :func:`text`.
Bars are plain CSS (two nested spans), a few dozen bytes each, so a page can draw one per node of a
10,000-node cluster and stay small.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Literal

from dralint.report.simulation import percent

# Full is the goal of packing, not a fault: it is drawn in blue, and red is left for what went wrong.
Level = Literal["ok", "high", "full"]
COLOURS: dict[Level, str] = {"ok": "#2da44e", "high": "#bf8700", "full": "#0969da"}
TRACK = "#eaeef2"  # the empty part of a bar
ERROR = "#cf222e"  # pods that were not placed
HIGH = 0.8  # from here on a bar is drawn amber

STYLE = f"""
body {{ font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem; color: #1f2328; }}
h1 {{ font-size: 1.5rem; }} h2 {{ font-size: 1.2rem; margin-top: 2rem; }}
.summary, .legend {{ color: #57606a; }}
table {{ border-collapse: collapse; margin: .5rem 0; }}
th, td {{ border: 1px solid #d0d7de; padding: .2rem .5rem; text-align: left; vertical-align: top; font-size: .85rem; }}
th {{ background: #f6f8fa; }}
details {{ margin: .25rem 0; }}
details > table {{ margin-left: 1rem; }}
summary {{ cursor: pointer; padding: .2rem 0; }}
.bar {{ display: inline-block; width: 10rem; height: .9rem; background: {TRACK}; vertical-align: middle; }}
.bar > span {{ display: block; height: 100%; }}
.bar.ok > span {{ background: {COLOURS["ok"]}; }}
.bar.high > span {{ background: {COLOURS["high"]}; }}
.bar.full > span {{ background: {COLOURS["full"]}; }}
.bad {{ color: {ERROR}; font-weight: 600; }}
"""


def text(value: object) -> str:
    """``value`` as HTML text or attribute value (quotes escaped too)."""
    return escape(str(value))


def level(share: float) -> Level:
    return "full" if share >= 1 else "high" if share >= HIGH else "ok"


def bar(share: float) -> str:
    """A utilisation bar for ``share`` (0.0-1.0, clamped), followed by the percentage."""
    clamped = max(0.0, min(1.0, share))
    width = f"{clamped * 100:.1f}".removesuffix(".0")
    return f'<span class="bar {level(share)}"><span style="width:{width}%"></span></span> {percent(share)}'


def document(title: str, body: Iterable[str], *, style: str = "") -> str:
    """A whole page: ``body`` (markup) under an ``<h1>`` of ``title``, with :data:`STYLE` and ``style``."""
    head = (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n<title>{text(title)}</title>\n'
        f"<style>{STYLE}{style}</style></head><body>\n<h1>{text(title)}</h1>\n"
    )
    return head + "\n".join(body) + "\n</body></html>\n"
