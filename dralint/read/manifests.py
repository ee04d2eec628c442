"""Which input files are Kubernetes manifests; the others are skipped and counted, never reported on.

A repository holds YAML and JSON of many tools, and the pre-commit hook and ``dralint check .``
meet all of it: GitHub workflows, docker-compose files, ``.pre-commit-config.yaml``,
``mkdocs.yml``, ``tsconfig.json`` with comments, Helm charts. A file is not a manifest when:

- it belongs to a Helm chart (a folder holding ``Chart.yaml``): ``Chart.yaml``, ``Chart.lock``,
  the values files, and everything under ``templates/`` and ``charts/``. Those are templates or
  their inputs, not manifests, until Helm renders them (:data:`HELM_ADVICE`); a chart's
  ``crds/`` are plain manifests and are checked;
- nothing in its text starts a Kubernetes object: no ``apiVersion:`` or ``kind:`` key starting
  a line (indented or not: a flow mapping spread over lines, a list's items) or a list item,
  nor a ``"apiVersion":`` or ``"kind":`` JSON member. A nested ``kind:`` makes a file a
  manifest too: reading too much is harmless, skipping a manifest is not.

So a broken manifest is still a manifest (its ``apiVersion:`` line says so) and its syntax
error is reported, while a broken ``tsconfig.json`` is nobody's business here. Files named on
the command line are classified the same way as files found in directories: pre-commit names
every staged file. Documents without ``apiVersion`` or ``kind`` inside a manifest are counted
and skipped as before.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Literal

__all__ = ["HELM_ADVICE", "NotManifest", "chart_folder", "forget_charts", "not_a_manifest"]

NotManifest = Literal["helm-chart", "not-kubernetes"]

# What to do with a Helm chart: the one place that says it (summaries, hints, the README).
HELM_ADVICE = "check the chart with dralint check --helm-chart CHART (or helm template CHART | dralint check -)"

_OBJECT_START = re.compile(
    r"""^[ \t]*(?:-[ \t]+)?["']?(?:apiVersion|kind)["']?[ \t]*:  # a key starting a line or list item
        |"(?:apiVersion|kind)"[ \t\r\n]*:                    # a JSON member
        |[{,][ \t]*(?:apiVersion|kind)[ \t]*:                 # a flow mapping's key""",
    re.MULTILINE | re.VERBOSE,
)
_CHART_FILES = re.compile(r"(?:Chart\.(?:yaml|lock)|values[^/]*\.(?:ya?ml|json)|(?:templates|charts)/.*)")


def not_a_manifest(path: str, text: str) -> NotManifest | None:
    """Why the file ``path`` holding ``text`` is not a manifest (``None``: it is one)."""
    if path != "-" and _in_helm_chart(os.path.abspath(path)):
        return "helm-chart"
    if _OBJECT_START.search(text) is None:
        return "not-kubernetes"
    return None


def _in_helm_chart(path: str) -> bool:
    return chart_folder(path) is not None


def chart_folder(path: str) -> str | None:
    """The folder of the Helm chart whose file (``Chart.yaml``, values, templates) ``path`` is, if it is one of them."""
    absolute = os.path.abspath(path)
    chart = _chart_of(os.path.dirname(absolute))
    if chart is None:
        return None
    relative = os.path.relpath(absolute, chart).replace(os.sep, "/")
    return chart if _CHART_FILES.fullmatch(relative) is not None else None


@lru_cache(maxsize=1024)
def _chart_of(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` that holds a Helm chart's ``Chart.yaml``."""
    if os.path.isfile(os.path.join(folder, "Chart.yaml")):
        return folder
    parent = os.path.dirname(folder)
    return None if parent == folder else _chart_of(parent)


def forget_charts() -> None:
    """Forget where charts were found (a long-running process reads files again after they changed)."""
    _chart_of.cache_clear()
