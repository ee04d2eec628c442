"""Run ``helm template`` on a local chart (``--helm-chart``, the language server): the rendered stream, or why not.

Reading only: the text goes to :mod:`dralint.read.load` like any input, named after the chart,
and :mod:`dralint.read.helm` leads its objects back to their templates. A chart that does not
render (a template error, a ``required`` value missing) is a :class:`RenderFailure` placed on the
template helm names (at its line, when helm gives one) or on ``Chart.yaml``: the loader makes it
a finding, as for a kustomization that does not build. Only local chart folders are rendered (no
repository or OCI reference, no dependency update), and helm runs nothing else: no
post-renderer, no hooks (``helm template`` does not run them), no cluster look-ups.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

from dralint.dataclass import dataclass
from dralint.errors import InputError
from dralint.read import sources

__all__ = ["RENDERED_SUFFIX", "HelmChart", "RenderFailure", "chart_of", "installed", "render"]

RENDERED_SUFFIX = sources.HELM_RENDERED
RENDER_TIMEOUT_SECONDS = 60
NOT_INSTALLED = "--helm-chart needs helm on PATH; it is not installed"
HINT = "fix the chart so that helm template succeeds"
# Where helm's error says the problem is: "execution error at (CHART/templates/x.yaml:8:13): ...",
# "parse error at (CHART/templates/x.yaml:5): ...", "YAML parse error on CHART/templates/x.yaml: ..." (its
# "line N" there is of the template's output, not of the template: only the file is taken).
_AT = re.compile(
    r"error at \((?P<file>[^():\s]+)(?::(?P<line>\d+))?(?::(?P<column>\d+))?\)"
    r"|YAML parse error on (?P<on>\S+?):"
)


@dataclass(frozen=True, slots=True)
class RenderFailure:
    """Why ``helm template`` failed, and the file (as findings name it) and position it concerns."""

    message: str
    file: str
    line: int = 1
    column: int = 1
    hint: str = HINT


@dataclass(frozen=True, slots=True)
class HelmChart:
    """A chart folder and the values it is rendered with (``--values`` files, ``--set`` pairs, in order)."""

    chart: str
    values: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The name its rendered stream has among the inputs."""
        return self.chart.rstrip("/") + RENDERED_SUFFIX


def chart_of(name: str) -> str | None:
    """The chart folder of a rendered stream's name (``None`` for other inputs)."""
    return name.removesuffix(RENDERED_SUFFIX) if name.endswith(RENDERED_SUFFIX) else None


def installed() -> bool:
    """Whether helm is on PATH."""
    return shutil.which("helm") is not None


def render(chart: HelmChart, *, max_bytes: int, timeout: float = RENDER_TIMEOUT_SECONDS) -> str | RenderFailure:
    """``helm template CHART --values F... --set K=V...``'s output, or why the chart does not render;
    :class:`InputError` when helm cannot be run on it (not installed, not a chart folder)."""
    helm = shutil.which("helm")
    if helm is None:
        raise InputError(NOT_INSTALLED)
    if not os.path.isfile(os.path.join(chart.chart, "Chart.yaml")):
        raise InputError(f"{chart.chart}: not a local Helm chart (no Chart.yaml in it)")
    command = [helm, "template", chart.chart]
    for values in chart.values:
        command += ["--values", values]
    for pair in chart.sets:
        command += ["--set", pair]
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return RenderFailure(f"helm template did not finish within {timeout:g} seconds", _chart_file(chart))
    except OSError as error:
        raise InputError(f"cannot run helm: {error.strerror or error}") from None
    if done.returncode != 0:
        return _failure(chart, done.stderr.decode("utf-8", "replace"), done.returncode)
    if len(done.stdout) > max_bytes:
        message = f"the rendered chart is larger than {max_bytes} bytes (limits.maxFileBytes); not checked"
        return RenderFailure(message, _chart_file(chart))
    return done.stdout.decode("utf-8", "replace")


def _chart_file(chart: HelmChart) -> str:
    return sources.display(os.path.join(chart.chart, "Chart.yaml"))


def _failure(chart: HelmChart, stderr: str, status: int) -> RenderFailure:
    """helm's error on one line (without its advice to use --debug), at the template it names if it names one."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip() and "--debug" not in line]
    reason = " ".join(lines).removeprefix("Error: ") or f"exit status {status}"
    message = f"helm template failed: {reason}"
    at = _AT.search(reason)
    named = at and (at.group("file") or at.group("on"))
    if not at or not named:
        return RenderFailure(message, _chart_file(chart))
    # helm names a template after the chart's name, not its folder: CHART/templates/x.yaml
    _, _, inside = named.partition("/")
    file = sources.display(os.path.join(chart.chart, inside))
    if not os.path.isfile(file):
        return RenderFailure(message, _chart_file(chart))
    line, column = at.group("line"), at.group("column")
    # (Go's template errors count the column from 0)
    return RenderFailure(message, file, int(line or 1), int(column) + 1 if line and column else 1)
