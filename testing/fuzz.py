"""Structural fuzzing of manifests and inventories: hypothesis strategies and the property every run must have.

A case is a real document (from the corpus, the examples or the Inventory fixtures) with a few
structural mutations: a value replaced by one of the wrong type, a huge number, odd unicode,
control characters or deep nesting; raw text written unquoted (5,000-digit integers, ``1e999999``,
JSON escapes of lone surrogates); a field removed; an unknown field added. It is written as YAML
or JSON. Two families: a *manifest* is checked with the examples' cluster as inventory; an
*inventory* is given with ``--inventory`` to a check of the example apps. Each case runs through
``check`` with every output format and through ``simulate`` with every output format.

The property: each run ends with a report (exit 0 or 1) or a one-line usage/input error (exit
2), never another exception; text outputs carry no control characters but line ends, JSON and
SARIF parse, JUnit is well-formed XML, everything encodes as UTF-8; and running it again gives
the same bytes. ``tests/fuzz_test.py`` runs a few examples with a fixed profile;
``scripts/fuzz.py`` runs many, with random seeds, and reports the worst time and memory.
"""

from __future__ import annotations

import copy
import io
import json
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from hypothesis import strategies as st

from dralint import report
from dralint.commands.check import CheckSettings, analyse
from dralint.commands.simulate import SimulateSettings
from dralint.commands.simulate import run as simulate
from dralint.errors import DralintError
from dralint.read.load import load
from dralint.report import simulation
from testing.shared import CORPUS

ROOT = Path(__file__).resolve().parent.parent
INVENTORY = ROOT / "examples" / "cluster"
APPS = ROOT / "examples" / "apps"
FORMATS = ("text", "json", "sarif", "junit", "github")
SIMULATE_FORMATS = tuple(sorted(simulation.FORMATS))
Family = Literal["manifests", "inventories"]
FAMILIES: tuple[Family, ...] = ("manifests", "inventories")
_INVENTORY_KINDS = frozenset({"ResourceSlice", "DeviceClass", "Node", "Inventory", "DeviceTaintRule"})
_INVENTORY_FIXTURES = (ROOT / "tests" / "fixtures" / "simulate" / "inventory" / "compact-gpu.yaml",
                       ROOT / "tests" / "fixtures" / "simulate" / "placement")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Raw:
    """Text written into the file as it is (unquoted): numbers no writer produces, JSON escapes."""

    text: str


# Written unquoted: beyond Python's int/str limit, beyond float64, 16,000-bit hexadecimal, a
# quantity exponent apimachinery accepts, escapes of control characters and lone surrogates.
RAW = st.sampled_from([
    Raw("9" * 5000), Raw("-" + "9" * 4400), Raw("0x" + "f" * 4000), Raw("1e999999"), Raw("-1e999999"),
    Raw("1e1001"), Raw("0o" + "7" * 5000), Raw('"\\udcff"'), Raw('"a\\u001b]0;x\\u0007\\nrepo.yaml:1:1: error X"'),
    Raw('"\\u2028\\u2029\\u0085"'), Raw('"\\u0000\\u0007\\u001b[2J"'),
])  # fmt: skip

# Values that are wrong somewhere in every schema, and the kinds of text that break naive code.
ODD_TEXT = st.sampled_from([
    "", " ", "\u202e", "\u0000", "\ufeff", "é" * 3, "\U0001f600", "a" * 5000, "{{ .Values.x }}", "*a", "&a b",
    "- x", ": x", "'", '"', "\\", "\t", "\n", "\r\n", "0x1F", "1e400", "-0", ".inf", "NaN", "yes", "~", "null",
    "2025-02-30T12:00:00Z", "1.5 Gi", "device.attributes['x'].y", "gpu.example.com/model", "a" * 64 + ".com",
    "\x1b]0;pwned\x07", "\x1b[2J", "a\u2028b", "a\u0085b", "\x7f\x9b", "x\nrepo.yaml:1:1: error DRA999 forged",
    "[z-a]", "*a*a*a*a*a*a*a*a*a*b", "1e1001", "1E4294967297",
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
    RAW,
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


def documents(family: Family = "manifests", corpus: Path | None = None) -> list[dict[str, Any]]:
    """The documents cases start from: every object of the corpus (when present) and the examples,
    or for inventories those of the inventory kinds among them and the Inventory fixtures."""
    paths = [str(ROOT / "examples")]
    corpus = corpus or CORPUS
    if corpus.is_dir():
        paths.append(str(corpus))
    if family == "manifests":
        return [dict(obj.raw) for obj in load(paths).objects]
    paths.extend(str(p) for p in _INVENTORY_FIXTURES)
    return [dict(obj.raw) for obj in load(paths).objects if obj.kind in _INVENTORY_KINDS]


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
    """The document as a file: JSON (NaN and Infinity as Python writes them), or YAML; :class:`Raw` unquoted."""
    raws: list[str] = []
    document = _sentinels(document, raws)
    if as_json:
        text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    else:
        from ruamel.yaml import YAML

        yaml = YAML(typ="safe", pure=True)
        yaml.default_flow_style = False
        yaml.width = 4096
        out = io.StringIO()
        yaml.dump(document, out)
        text = out.getvalue()
    if raws:
        text = _SENTINEL.sub(lambda m: raws[int(m.group(2))], text)
    return text


_SENTINEL = re.compile(r"([\"']?)@@RAW(\d+)@@\1")


def _sentinels(value: Any, raws: list[str]) -> Any:
    if isinstance(value, Raw):
        raws.append(value.text)
        return f"@@RAW{len(raws) - 1}@@"
    if isinstance(value, dict):
        return {k: _sentinels(v, raws) for k, v in value.items()}
    if isinstance(value, list):
        return [_sentinels(v, raws) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Run:
    exit_code: int  # of check
    output: str  # every format of check and simulate, or their one-line errors of exit code 2
    simulate_exit_code: int = 0
    cpu: float = field(default=0.0, compare=False)  # seconds of CPU check and simulate took


def _check(path: Path, family: Family) -> tuple[int, dict[str, str]]:
    paths, inventory = ((str(path),), (str(INVENTORY),)) if family == "manifests" else ((str(APPS),), (str(path),))
    settings = CheckSettings(paths=paths, inventory=inventory, no_config=True, jobs=1, environment={})
    try:
        outcome = analyse(settings)
    except DralintError as error:
        return error.exit_code, {"error": f"dralint: error: {error}"}
    outputs = {}
    for name in FORMATS:
        out = io.StringIO()
        report.renderer(name)(outcome.report, out)
        outputs[name] = out.getvalue()
    return outcome.exit_code, outputs


def _simulate(path: Path, family: Family) -> tuple[int, dict[str, str]]:
    paths, inventory = ((str(path),), (str(INVENTORY),)) if family == "manifests" else ((str(APPS),), (str(path),))
    folder = path.parent
    files = {name: folder / f"simulate.{name}" for name in SIMULATE_FORMATS}
    settings = SimulateSettings(
        paths=paths,
        inventory=inventory,
        outputs=tuple((name, str(file)) for name, file in files.items()),
        no_config=True,
        environment={},
    )
    try:
        code = simulate(settings)
    except DralintError as error:
        return error.exit_code, {"error": f"dralint: error: {error}"}
    return code, {f"simulate-{name}": file.read_text(encoding="utf-8") for name, file in files.items()}


def run(path: Path, family: Family = "manifests") -> Run:
    """Check and simulate ``path`` as the command line does, in every format; only exit-2 errors are caught."""
    started = time.process_time()
    code, outputs = _check(path, family)
    simulated, simulation_outputs = _simulate(path, family)
    cpu = time.process_time() - started
    for name, text in {**outputs, **simulation_outputs}.items():
        well_formed(name, text)
    output = "\n".join(f"== {name}\n{text}" for name, text in sorted({**outputs, **simulation_outputs}.items()))
    return Run(code, output, simulated, cpu)


_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def well_formed(name: str, text: str) -> None:
    """The output of format ``name`` is what the format promises, whatever the input held."""
    text.encode("utf-8")  # strict: no lone surrogate
    if name in ("text", "github", "simulate-text", "error"):
        found = _CONTROL.search(text)
        assert found is None, f"{name}: raw control character {found.group()!r} in the output"
        assert name != "error" or "\n" not in text, text  # exit 2 is one line
    elif name in ("json", "sarif", "simulate-json"):
        json.loads(text)
    elif name == "junit":
        ET.fromstring(text.encode("utf-8"))


def check_property(
    directory: Path, document: Any, mutations: Sequence[Mutation], as_json: bool, family: Family = "manifests"
) -> Run:
    """Write the mutated document, check and simulate it twice, and assert the property; the run, for the caller."""
    path = directory / ("case.json" if as_json else "case.yaml")
    try:
        text = render(mutate(document, mutations), as_json)
    except (ValueError, RecursionError):  # a value the writer cannot represent: nothing to check
        return Run(0, "")
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    first = run(path, family)
    assert first.exit_code in (0, 1, 2) and first.simulate_exit_code in (0, 1, 2), first
    again = run(path, family)
    assert again == first, "the same input gave different output"
    return first
