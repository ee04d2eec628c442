"""Structural fuzzing of manifests: hypothesis strategies and the property every run must have.

A case is a real document (from the corpus or the examples) with a few structural mutations:
a value replaced by one of the wrong type, a huge number, odd unicode or deep nesting; a field
removed; an unknown field added. It is written as YAML or JSON and checked by the whole
pipeline (with the examples' cluster as inventory, so the dry-run runs too). The property: the
run ends with a report (exit 0 or 1) or a usage/input error (exit 2), never another exception,
and running it again gives the same bytes. ``tests/fuzz_test.py`` runs a few examples with a
fixed profile; ``scripts/fuzz.py`` runs many, with random seeds, for manual hunting.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from dralint import report
from dralint.commands.check import CheckSettings, analyse
from dralint.errors import DralintError
from dralint.read.load import load

ROOT = Path(__file__).resolve().parent.parent
INVENTORY = ROOT / "examples" / "cluster"
FORMATS = ("text", "json", "sarif", "junit", "github")

# Values that are wrong somewhere in every schema, and the kinds of text that break naive code.
ODD_TEXT = st.sampled_from([
    "", " ", "\u202e", "\u0000", "\ufeff", "é" * 3, "\U0001f600", "a" * 5000, "{{ .Values.x }}", "*a", "&a b",
    "- x", ": x", "'", '"', "\\", "\t", "\n", "\r\n", "0x1F", "1e400", "-0", ".inf", "NaN", "yes", "~", "null",
    "2025-02-30T12:00:00Z", "1.5 Gi", "device.attributes['x'].y", "gpu.example.com/model", "a" * 64 + ".com",
])  # fmt: skip
HUGE_NUMBERS = st.sampled_from([2**31, 2**63, -(2**63) - 1, 10**40, float("inf"), float("-inf"), 1e308, -0.0, 0.5])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), HUGE_NUMBERS, ODD_TEXT, st.text(max_size=20)
)


def nested(depth: int) -> Any:
    """A value nested ``depth`` levels deep (alternating lists and mappings)."""
    value: Any = "bottom"
    for level in range(depth):
        value = [value] if level % 2 else {"n": value}
    return value


VALUES = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=4),
    st.dictionaries(st.text(max_size=8), SCALARS, max_size=4),
    st.integers(min_value=1, max_value=300).map(nested),
)
FIELD_NAMES = st.one_of(
    st.sampled_from(["extra", "spec", "devices", "count", "name", "Name", "apiVersion", "kind", "metadata", "<<"]),
    st.text(max_size=12),
)


@dataclass(frozen=True, slots=True)
class Mutation:
    """One structural change at the node reached by ``walk`` (indexes into keys/items, wrapping)."""

    walk: tuple[int, ...]
    action: str  # "replace", "delete", "add"
    value: Any = None
    field: str = ""


MUTATIONS = st.builds(
    Mutation,
    walk=st.lists(st.integers(min_value=0, max_value=50), max_size=8).map(tuple),
    action=st.sampled_from(["replace", "replace", "delete", "add"]),
    value=VALUES,
    field=FIELD_NAMES,
)


def documents() -> list[dict[str, Any]]:
    """The documents cases start from: every object of the corpus (when present) and the examples."""
    paths = [str(ROOT / "examples")]
    corpus = ROOT.parent / "shared" / "corpus"
    if corpus.is_dir():
        paths.append(str(corpus))
    return [dict(obj.raw) for obj in load(paths).objects]


def mutate(document: Any, mutations: Sequence[Mutation]) -> Any:
    """A copy of ``document`` with the mutations applied in order."""
    document = copy.deepcopy(document)
    for mutation in mutations:
        holder, key = None, None
        node = document
        for step in mutation.walk:
            if isinstance(node, dict) and node:
                holder, key = node, list(node)[step % len(node)]
            elif isinstance(node, list) and node:
                holder, key = node, step % len(node)
            else:
                break
            node = holder[key]
        if holder is None:
            if isinstance(document, dict):
                document[mutation.field] = mutation.value
            continue
        if mutation.action == "replace":
            holder[key] = mutation.value
        elif mutation.action == "delete":
            del holder[key]
        elif isinstance(node, dict):
            node[mutation.field] = mutation.value
        else:
            holder[key] = mutation.value
    return document


def render(document: Any, as_json: bool) -> str:
    """The document as a file: JSON (NaN and Infinity as Python writes them), or YAML."""
    if as_json:
        return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.width = 4096
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class Run:
    exit_code: int
    output: str  # every format, or the one-line error of exit code 2


def run(path: Path) -> Run:
    """Check ``path`` (with the examples' inventory) as the command line does; only exit-2 errors are caught."""
    settings = CheckSettings(paths=(str(path),), inventory=(str(INVENTORY),), no_config=True, jobs=1, environment={})
    try:
        outcome = analyse(settings)
    except DralintError as error:
        return Run(error.exit_code, f"dralint: error: {error}")
    out = io.StringIO()
    for name in FORMATS:
        report.renderer(name)(outcome.report, out)
    return Run(outcome.exit_code, out.getvalue())


def check_property(directory: Path, document: Any, mutations: Sequence[Mutation], as_json: bool) -> Run:
    """Write the mutated document, check it twice, and assert the property; the run, for the caller."""
    path = directory / ("case.json" if as_json else "case.yaml")
    try:
        text = render(mutate(document, mutations), as_json)
    except (ValueError, RecursionError):  # a value the writer cannot represent: nothing to check
        return Run(0, "")
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    first = run(path)
    assert first.exit_code in (0, 1, 2), first
    assert first.exit_code != 2 or "\n" not in first.output, first.output
    again = run(path)
    assert again == first, "the same input gave different output"
    return first
