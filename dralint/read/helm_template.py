"""Run ``helm template`` on a local chart for ``check --helm-chart``: the rendered stream, or exit 2 with why not.

Reading only: the text goes to :mod:`dralint.read.load` like any input, named after the chart,
and :mod:`dralint.read.helm` leads its objects back to their templates. Only local chart folders
are rendered (no repository or OCI reference, no dependency update), and helm runs nothing else:
no post-renderer, no hooks (``helm template`` does not run them), no cluster look-ups.
"""

from __future__ import annotations

import os
import shutil
import subprocess

from dralint.dataclass import dataclass
from dralint.errors import InputError
from dralint.read import sources

__all__ = ["RENDERED_SUFFIX", "HelmChart", "chart_of", "render"]

RENDERED_SUFFIX = sources.HELM_RENDERED
RENDER_TIMEOUT_SECONDS = 60


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


def render(chart: HelmChart, *, max_bytes: int, timeout: float = RENDER_TIMEOUT_SECONDS) -> str:
    """``helm template CHART --values F... --set K=V...``'s output; :class:`InputError` when it cannot be had."""
    helm = shutil.which("helm")
    if helm is None:
        raise InputError("--helm-chart needs helm on PATH; it is not installed")
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
        raise InputError(f"{chart.chart}: helm template did not finish within {timeout:g} seconds") from None
    except OSError as error:
        raise InputError(f"cannot run helm: {error.strerror or error}") from None
    if done.returncode != 0:
        lines = [line.strip() for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        reason = " ".join(lines).removeprefix("Error: ") or f"exit status {done.returncode}"
        raise InputError(f"{chart.chart}: helm template failed: {reason}")
    if len(done.stdout) > max_bytes:
        raise InputError(f"{chart.chart}: the rendered chart is larger than {max_bytes} bytes (limits.maxFileBytes)")
    return done.stdout.decode("utf-8", "replace")
